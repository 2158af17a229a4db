// `lokal init [--ci github] [--shards N]`: sets up the current project as the README's "Set up" does — the Vitest
// config, one eval file per built-in benchmark, lokal.config.json — and, with --ci github, a sharded GitHub Actions
// workflow. It never overwrites a file: what exists is listed as skipped. The project must be an ES module (the eval
// files use top-level await), so a package.json without "type": "module" stops it before anything is written.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readRegularTextSync } from '../data/filesSync.ts';
import { githubWorkflow } from '../init/githubWorkflow.ts';
import { projectFiles } from '../init/projectFiles.ts';
import { UsageError } from './usageError.ts';

export const INIT_USAGE = `usage: lokal init [--ci github] [--shards <n>]
  Writes vitest.config.ts, evals/multiloko.eval.ts, evals/kalahi.eval.ts and lokal.config.json (the model and the
  data folders) into the current project, which must be an ES module ("type": "module" in package.json). With
  --ci github also .github/workflows/evals.yml: the evals in <n> shards (default 2), merged into one roll-up that
  applies the gates, writes the step summary and uploads results/. Existing files are never overwritten.
`;

const WORKFLOW = '.github/workflows/evals.yml';
/** Largest package.json read (npm's own are a few kilobytes). */
const MAX_MANIFEST_BYTES = 16 * 2 ** 20;

/** Why the project at `root` cannot take the eval files, or undefined when it can. */
function notAnEsModule(root: string): string | undefined {
  const manifest = path.join(root, 'package.json');
  if (!existsSync(manifest)) return `no package.json in ${root}: run \`npm init -y && npm pkg set type=module\` first`;
  let text: string;
  try {
    // A FIFO is refused at once, as data files are (a read would wait forever).
    text = readRegularTextSync(manifest, 'package.json', MAX_MANIFEST_BYTES);
  } catch (error) {
    return (error as Error).message;
  }
  let type: unknown;
  try {
    type = (JSON.parse(text) as { type?: unknown }).type;
  } catch (error) {
    return `${manifest} is not valid JSON (${(error as Error).message})`;
  }
  if (type === 'module') return undefined;
  return `${manifest} has ${type === undefined ? 'no "type"' : `"type": ${JSON.stringify(type)}`}; the eval files use top-level await, which needs an ES module: run \`npm pkg set type=module\`, then lokal init again`;
}

export async function initCommand(argv: string[], root = process.cwd()): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ci: { type: 'string' }, shards: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(INIT_USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`lokal init: unexpected argument ${JSON.stringify(positionals[0])}`);
  if (values.ci !== undefined && values.ci !== 'github') throw new UsageError(`lokal init: --ci must be "github" (got ${JSON.stringify(values.ci)})`);
  if (values.shards !== undefined && values.ci === undefined) throw new UsageError('lokal init: --shards applies to the CI workflow: add --ci github');
  const shards = values.shards === undefined ? 2 : Number(values.shards);
  if (!/^\d+$/u.test(values.shards ?? '2') || shards < 1 || shards > 64) throw new UsageError(`lokal init: --shards must be an integer from 1 to 64 (got ${JSON.stringify(values.shards)})`);

  const problem = notAnEsModule(root);
  if (problem) {
    process.stderr.write(`lokal init: ${problem}\n`);
    return 1;
  }
  const files = projectFiles();
  if (values.ci === 'github') files[WORKFLOW] = githubWorkflow(shards);
  const written: string[] = [];
  const skipped: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(root, file);
    if (existsSync(target)) {
      skipped.push(file);
      continue;
    }
    mkdirSync(path.dirname(target), { recursive: true });
    // 'wx': a file that appeared since the check is still not overwritten.
    writeFileSync(target, text, { flag: 'wx' });
    written.push(file);
  }
  for (const file of written) process.stdout.write(`lokal init: wrote ${file}\n`);
  for (const file of skipped) process.stdout.write(`lokal init: skipped ${file} (it exists; not overwritten)\n`);
  process.stdout.write('next: `npx lokal data fetch` (the datasets, into data/), then `npx vitest run`\n');
  return 0;
}
