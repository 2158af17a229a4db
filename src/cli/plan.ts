// `lokal plan [--shards <n>] [--items-per-second <r>]`: what a run of this project would hold, without calling a model —
// each benchmark's items (with the project's settings: lokal.config.json and LOKAL_*), cut into the n parts that
// `lokal init --ci github --shards n` writes part files for, and the time each shard takes at an assumed speed.
import { parseArgs } from 'node:util';
import { BENCHMARKS } from '../benchmarks/index.ts';
import { groupsOfPart } from '../benchmarks/parts.ts';
import { resolveSettingsTree, sectionSettings, type SettingsTree } from '../core/settings.ts';
import { DataError } from '../data/errors.ts';
import { DEFAULT_ITEMS_PER_SECOND, SETUP_MINUTES } from '../init/githubWorkflow.ts';
import { partFile } from '../init/itemCounts.ts';
import { UsageError } from './usageError.ts';

/** Whole hours and minutes, rounded up to the minute: `5 h 16 min`, `42 min`. */
export function duration(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

/** One benchmark's items in each part (index 0 is part 1), or why it has none. */
interface PlannedBenchmark {
  name: string;
  parts?: number[];
  skipped?: string;
}

/** Each benchmark's items per part, read as a run would read them (its plan, cut as benchmarkSuite cuts it). */
export async function planBenchmarks(root: string, count: number, env: Readonly<Record<string, string | undefined>> = process.env): Promise<PlannedBenchmark[]> {
  const tree: SettingsTree = resolveSettingsTree(
    BENCHMARKS.map((b) => b.settings),
    {},
    { cwd: root, env },
  );
  const planned: PlannedBenchmark[] = [];
  for (const definition of BENCHMARKS) {
    const settings = sectionSettings(tree, definition.settings);
    let plan;
    try {
      plan = await definition.prepare(settings, []);
    } catch (error) {
      // Absent data at the default location is skipped by a run with this line; anything else is the run's error too.
      if (!definition.dataConfigured(settings) && error instanceof DataError && error.code === 'not-found') {
        planned.push({ name: definition.name, skipped: `no data (a run skips it): ${definition.dataHint}` });
        continue;
      }
      throw error;
    }
    try {
      const id = (item: unknown) => (plan.itemId ? plan.itemId(item) : plan.testName(item));
      const parts = Array.from({ length: count }, (_, i) => groupsOfPart(plan.groups, { index: i + 1, count }, id).reduce((sum, g) => sum + g.items.length, 0));
      planned.push({ name: definition.name, parts });
    } finally {
      await plan.close?.();
    }
  }
  return planned;
}

export async function planCommand(argv: string[], root = process.cwd()): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { shards: { type: 'string' }, 'items-per-second': { type: 'string' } } });
  if (positionals.length > 0) throw new UsageError(`lokal plan: unexpected argument ${JSON.stringify(positionals[0])}`);
  const shards = values.shards === undefined ? 1 : Number(values.shards);
  if (!/^\d+$/u.test(values.shards ?? '1') || shards < 1 || shards > 64) throw new UsageError(`lokal plan: --shards must be an integer from 1 to 64 (got ${JSON.stringify(values.shards)})`);
  const rate = values['items-per-second'];
  const itemsPerSecond = rate === undefined ? DEFAULT_ITEMS_PER_SECOND : Number(rate);
  if (!/^\d*\.?\d+$/u.test(rate ?? '1') || !(itemsPerSecond > 0)) throw new UsageError(`lokal plan: --items-per-second must be a number above 0 (got ${JSON.stringify(rate)})`);

  const planned = await planBenchmarks(root, shards);
  const out: string[] = [];
  const count = (n: number) => n.toLocaleString('en-US');
  for (const b of planned) {
    if (b.skipped) {
      out.push(`${b.name}: ${b.skipped}`);
      continue;
    }
    const total = b.parts!.reduce((a, c) => a + c, 0);
    out.push(`${b.name}: ${count(total)} items${shards > 1 ? ` in ${shards} parts: ${b.parts!.map(count).join(', ')}` : ''}`);
  }
  const shardItems = Array.from({ length: shards }, (_, i) => planned.reduce((sum, b) => sum + (b.parts?.[i] ?? 0), 0));
  out.push(`at ${itemsPerSecond} items/s (--items-per-second; the workflow adds ${SETUP_MINUTES} min of setup to each shard):`);
  shardItems.forEach((items, i) => {
    const file = shards > 1 ? ` (${partFile(i + 1, shards)})` : '';
    out.push(`  shard ${i + 1}/${shards}${file}: ${count(items)} items, ${duration(items / itemsPerSecond)}`);
  });
  // No prompt is rendered here (its mode, few-shot examples and chat template depend on the model): tokens are the run's.
  out.push('prompt tokens: not counted (no tokenizer at hand: lokal plan renders no prompt; a run records each item\'s prompt_tokens)');
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
