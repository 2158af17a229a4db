// `lokal init [--ci github] [--shards N] [--items-per-second R]`: sets up the current project as the README's "Set up"
// does — the Vitest config, one eval file per built-in benchmark, lokal.config.json, the .gitignore lines of what a run
// writes — and, with --ci github, a sharded GitHub Actions workflow. It never overwrites a file: what exists is listed
// as skipped (a .gitignore is extended, its lines kept). The project must be an ES module (the eval files use
// top-level await), so a package.json without "type": "module" stops it before anything is written. Then it checks
// that the configured model's packages are installed, since without them every eval file fails at collection.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCHMARKS } from '../benchmarks/index.ts';
import { benchmarkModel, resolveSettingsTree } from '../core/settings.ts';
import { readRegularTextSync } from '../data/filesSync.ts';
import { DEFAULT_MODEL } from '../models/defaults.ts';
import { extendGitignore, gitignoreLines } from '../init/gitignore.ts';
import { DEFAULT_ITEMS_PER_SECOND, fittingLimit, githubWorkflow, largestShard, MAX_JOB_MINUTES, MODEL_CACHE_DIR, shardTimeout } from '../init/githubWorkflow.ts';
import { evalFileCounts, evalItemCounts, type FileCount } from '../init/itemCounts.ts';
import { missingModelPackages, missingPackagesLine } from '../init/modelPackages.ts';
import { projectFiles } from '../init/projectFiles.ts';
import { UsageError } from './usageError.ts';
import { planBenchmarks } from './plan.ts';

const INIT_USAGE = `usage: lokal init [--ci github] [--shards <n>] [--items-per-second <r>]
  Writes vitest.config.ts, evals/multiloko.eval.ts, evals/kalahi.eval.ts and lokal.config.json (the model) into the
  current project, which must be an ES module ("type": "module" in package.json), and adds results/, .lokal-cache/,
  .vitest-reports/ and data/ to its .gitignore. With --ci github also .github/workflows/evals.yml: the evals in <n>
  shards (1 to 64, default 2), merged into one roll-up that applies the gates, writes the step summary and uploads
  results/; with <n> above 1 the eval files are evals/part-01-of-<n>.eval.ts …, one a shard, each a part of every
  benchmark; a shard's time limit assumes <r> items per second (default ${DEFAULT_ITEMS_PER_SECOND}). Existing files are
  never overwritten. Then it says what to install when the configured model's packages are missing.
`;

const WORKFLOW = '.github/workflows/evals.yml';
/** Largest .gitignore read and extended. */
const MAX_GITIGNORE_BYTES = 16 * 2 ** 20;
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

/**
 * Part files' item counts as a run cuts them (by prompt length, src/benchmarks/parts.ts) when every benchmark's data is
 * there; otherwise the counts as they came (cut by count, or the full sizes).
 */
async function exactPartCounts(root: string, counts: FileCount[], shards: number): Promise<FileCount[]> {
  if (shards === 1 || counts.length !== shards || counts.some((c) => c.source !== 'data')) return counts;
  try {
    const planned = await planBenchmarks(root, shards);
    if (planned.some((b) => !b.parts)) return counts;
    return counts.map((c, i) => ({ ...c, items: planned.reduce((sum, b) => sum + b.parts![i]!, 0) }));
  } catch {
    // a settings or data mistake is the run's to report; the workflow keeps the counts cut by count
    return counts;
  }
}

export async function initCommand(argv: string[], root = process.cwd()): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ci: { type: 'string' }, shards: { type: 'string' }, 'items-per-second': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(INIT_USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`lokal init: unexpected argument ${JSON.stringify(positionals[0])}`);
  if (values.ci !== undefined && values.ci !== 'github') throw new UsageError(`lokal init: --ci must be "github" (got ${JSON.stringify(values.ci)})`);
  if (values.shards !== undefined && values.ci === undefined) throw new UsageError('lokal init: --shards applies to the CI workflow: add --ci github');
  const shards = values.shards === undefined ? 2 : Number(values.shards);
  if (!/^\d+$/u.test(values.shards ?? '2') || shards < 1 || shards > 64) throw new UsageError(`lokal init: --shards must be an integer from 1 to 64 (got ${JSON.stringify(values.shards)})`);
  const rate = values['items-per-second'];
  if (rate !== undefined && values.ci === undefined) throw new UsageError('lokal init: --items-per-second applies to the CI workflow: add --ci github');
  const itemsPerSecond = rate === undefined ? DEFAULT_ITEMS_PER_SECOND : Number(rate);
  if (!/^\d*\.?\d+$/u.test(rate ?? '1') || !(itemsPerSecond > 0)) throw new UsageError(`lokal init: --items-per-second must be a number above 0 (got ${JSON.stringify(rate)})`);

  const problem = notAnEsModule(root);
  if (problem) {
    process.stderr.write(`lokal init: ${problem}\n`);
    return 1;
  }
  // A workflow of several shards: one part file per shard, each with a part of every benchmark (src/init/projectFiles.ts).
  const parts = values.ci === 'github' ? shards : 1;
  const files = projectFiles(parts);
  const notes: string[] = [];
  if (values.ci === 'github') {
    const counts = await exactPartCounts(root, evalFileCounts(await evalItemCounts(root), shards), shards);
    files[WORKFLOW] = githubWorkflow({ shards, counts, itemsPerSecond });
    const largest = largestShard(counts, shards);
    const timeout = shardTimeout(largest.items, itemsPerSecond);
    if (timeout.capped && !existsSync(path.join(root, WORKFLOW)))
      notes.push(
        `the workflow's largest shard (${largest.items.toLocaleString('en-US')} items at ${itemsPerSecond} items/s) needs about ${timeout.needed} min, more than a GitHub-hosted job's ${MAX_JOB_MINUTES}: ` +
          `LOKAL_LIMIT: ${fittingLimit(counts, shards, itemsPerSecond)} (items per group) in its env fits it, or use a faster model (an openai: server) and --items-per-second`,
      );
  }
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
  // An eval file of a benchmark beside the part files runs it whole in one shard, on top of its parts.
  if (parts > 1) {
    const whole = ['multiloko', 'kalahi'].map((b) => `evals/${b}.eval.ts`).filter((f) => existsSync(path.join(root, f)));
    if (whole.length > 0) notes.push(`${whole.join(' and ')} ${whole.length === 1 ? 'runs its benchmark' : 'run their benchmarks'} whole in one shard, besides the part files: delete ${whole.length === 1 ? 'it' : 'them'} to run each item once`);
  }
  const gitignore = updateGitignore(root, gitignoreLines(values.ci === 'github' ? { modelCache: MODEL_CACHE_DIR } : {}));
  for (const file of written) process.stdout.write(`lokal init: wrote ${file}\n`);
  for (const file of skipped) process.stdout.write(`lokal init: skipped ${file} (it exists; not overwritten)\n`);
  if (gitignore) process.stdout.write(`lokal init: ${gitignore}\n`);
  for (const missing of missingModelPackages(configuredModels(root), root)) notes.push(missingPackagesLine(missing));
  for (const note of notes) process.stdout.write(`lokal init: ${note}\n`);
  process.stdout.write('next: `npx lokal data fetch` (the datasets, into data/), then `npx vitest run`\n');
  return 0;
}

/** Writes or extends the project's .gitignore; what it did, or undefined when every line was there. */
function updateGitignore(root: string, lines: readonly string[]): string | undefined {
  const file = path.join(root, '.gitignore');
  let existing: string | undefined;
  try {
    existing = existsSync(file) ? readRegularTextSync(file, '.gitignore', MAX_GITIGNORE_BYTES) : undefined;
  } catch (error) {
    // a FIFO or an oversized file is left alone, as package.json's checks leave it
    return `${(error as Error).message}; add these lines to it yourself: ${lines.join(' ')}`;
  }
  const text = extendGitignore(existing, lines);
  if (text === undefined) return undefined;
  writeFileSync(file, text);
  const added = text.slice(existing?.length ?? 0).split(/\r?\n/u).filter((line) => line && !line.startsWith('#'));
  return `${existing === undefined ? 'wrote .gitignore' : 'added to .gitignore'}: ${added.join(' ')}`;
}

/** Every model setting a run of this project uses (the shared one, each benchmark's own), the default when none. */
function configuredModels(root: string): string[] {
  let tree;
  try {
    tree = resolveSettingsTree(
      BENCHMARKS.map((b) => b.settings),
      {},
      { cwd: root },
    );
  } catch {
    return []; // a settings mistake is the run's to report, with its fix
  }
  return BENCHMARKS.map((b) => benchmarkModel(tree, b.settings).model ?? `transformers:${DEFAULT_MODEL}`);
}
