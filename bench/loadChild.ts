// One process of `npm run bench -- load`: loads the model (saved optimised graph on or off), answers a batch of
// Italian base-mode items, prints one JSON line and ends on its own (as a Vitest worker does), so the parent can time
// the load, the peak RSS and how long the process takes to end after its last line.
import { TransformersProvider } from '../src/models/transformers.ts';
import { ITALIAN_ITEMS } from './generation.ts';
import { peakRssMiB } from './peakRss.mjs';

const [dir, cacheDir, save, itemsText, tokensText, readAheadText] = process.argv.slice(2);
const provider = new TransformersProvider(dir!, { env: {}, cacheDir, saveOptimised: save === 'on', readAhead: readAheadText !== 'off', log: () => undefined });
const started = performance.now();
await provider.load();
const loadSeconds = (performance.now() - started) / 1000;
const loadRssMiB = peakRssMiB();
const items = ITALIAN_ITEMS.slice(0, Number(itemsText));
const generating = performance.now();
await Promise.all(items.map((item) => provider.generate([{ prompt: `D: ${item.question}\nR:`, maxNewTokens: Number(tokensText), stop: ['\n'] }])));
const generateSeconds = (performance.now() - generating) / 1000;
console.log(JSON.stringify({ kind: provider.loadReport?.kind, loadSeconds, loadRssMiB, generateSeconds, peakRssMiB: peakRssMiB() }));
