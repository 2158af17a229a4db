// Our side of the bench's whole-process comparison as a user's run has it: the compiled package (dist/, as npm installs
// it), not the TypeScript sources through tsx (whose CLI starts a second Node process and compiles every module first:
// 1.4 s more before the first line). Reads the job bench/hfPeer.ts writes; writes what bench/generationRun.ts would.
import { readFileSync, writeFileSync } from 'node:fs';
import { TransformersProvider } from '../dist/src/models/transformers.js';
import { peakRssMiB } from './peakRss.mjs';

const [jobFile, resultFile] = process.argv.slice(2);
const job = JSON.parse(readFileSync(jobFile, 'utf8'));
const provider = new TransformersProvider(job.dir, { env: {}, threads: job.threads, cacheDir: job.cacheDir });
const started = performance.now();
await provider.load();
const loadSeconds = (performance.now() - started) / 1000;
const { requests } = job.workloads[0];
const generating = performance.now();
const results = await Promise.all(requests.map((r) => provider.generate([r]).then((x) => x[0])));
const seconds = (performance.now() - generating) / 1000;
await provider.close();
const modes = [{ mode: job.workloads[0].mode, seconds, texts: results.map((r) => r.text) }];
writeFileSync(resultFile, JSON.stringify({ loadSeconds, loadKind: provider.loadReport?.kind, peakRssMiB: peakRssMiB(), modes }));
