// `lokal plan [--shards <n>] [--items-per-second <r>] [--tokenizer <folder>]`: what a run of this project would hold,
// without calling a model — each benchmark's items (with the project's settings: lokal.config.json and LOKAL_*), cut
// into the n parts that `lokal init --ci github --shards n` writes part files for, the time each shard takes at an
// assumed speed, and the prompt tokens of each part when a tokenizer is on disk (the model's own, or --tokenizer's).
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchmarkGroup, GroupInfo, PromptModel } from '../benchmarks/benchmark.ts';
import { BENCHMARKS } from '../benchmarks/index.ts';
import { groupsOfPart } from '../benchmarks/parts.ts';
import { splitModelList } from '../core/modelList.ts';
import { benchmarkModel, resolveSettingsTree, sectionSettings, type SettingsTree } from '../core/settings.ts';
import { DataError } from '../data/errors.ts';
import { DEFAULT_ITEMS_PER_SECOND, SETUP_MINUTES } from '../init/githubWorkflow.ts';
import { partFile } from '../init/itemCounts.ts';
import { loadLocalTokenizer, TokenizerFolderError } from '../models/localTokenizer.ts';
import { modelSpec } from '../models/open.ts';
import { requestPromptIds, type PromptTokenizer } from '../models/promptTokens.ts';
import { parseProviderSpec, PROVIDERS, providerRow } from '../models/providers.ts';
import { UsageError } from './usageError.ts';

/** Whole hours and minutes, rounded up to the minute: `5 h 16 min`, `42 min`. */
export function duration(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

/** One benchmark's items in each part (index 0 is part 1), or why it has none; its prompt tokens per part when counted. */
export interface PlannedBenchmark {
  name: string;
  parts?: number[];
  skipped?: string;
  /** Prompt tokens of each part, when they were counted. */
  tokens?: number[];
  /** Why the prompt tokens were not counted, when they were asked for. */
  uncounted?: string;
  /** The tokenizer folder they were counted with. */
  tokenizer?: string;
}

/** Prompt tokens to count: with the tokenizer in `folder` (`--tokenizer`), else each benchmark's model's when on disk. */
export interface TokenCounting {
  folder?: string;
  /** Where progress lines of a long count go (the CLI: stderr). */
  progress?: (line: string) => void;
}

/** A tokenizer and the model its prompts are rendered for, or why there is none. */
type TokenSource = { folder: string; tokenizer: PromptTokenizer; model: PromptModel } | { uncounted: string };

/**
 * The tokenizer a benchmark's prompts are counted with: `--tokenizer`'s folder (a replay model's prompts are then those a
 * model reading that tokenizer gets), else the tokenizer files of the benchmark's model (the first of a list) when on
 * disk. A `--tokenizer` folder that cannot be read throws; the model's own is a reason not to count.
 */
async function tokenSource(spec: string, counting: TokenCounting, root: string, env: Readonly<Record<string, string | undefined>>, loaded: Map<string, Promise<PromptTokenizer>>): Promise<TokenSource> {
  const first = splitModelList(spec)[0]!;
  const { kind, target } = parseProviderSpec(first);
  const row = providerRow(kind);
  let folder: string;
  if (counting.folder !== undefined) folder = path.resolve(root, counting.folder);
  else if (row?.answersFromFile) return { uncounted: `${first} answers from a file and is sent no prompt` };
  else if (!row?.tokenizerFolder) return { uncounted: `lokal plan reads no tokenizer of a ${kind}: model (${first})` };
  else {
    let found;
    try {
      found = await row.tokenizerFolder(target, env);
    } catch (error) {
      // e.g. the provider's optional package is not installed: the run would say so; the plan counts nothing.
      return { uncounted: `${first}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}` };
    }
    if ('missing' in found) return { uncounted: `${first}: ${found.missing}` };
    folder = found.folder;
  }
  let pending = loaded.get(folder);
  if (!pending) loaded.set(folder, (pending = loadLocalTokenizer(folder)));
  let tokenizer: PromptTokenizer;
  try {
    tokenizer = await pending;
  } catch (error) {
    if (counting.folder !== undefined || !(error instanceof TokenizerFolderError)) throw error;
    return { uncounted: `${first}: ${error.message}` };
  }
  const reads = row?.answersFromFile ? PROVIDERS.find((r) => r.tokenizerFolder)!.kind : kind;
  return { folder, tokenizer, model: { kind: reads, chat: async () => Boolean(providerRow(reads)?.alwaysChat || tokenizer.chat_template) } };
}

type Plan = Awaited<ReturnType<(typeof BENCHMARKS)[number]['prepare']>>;

/** The prompt tokens of each part's items, rendered by the plan's own prompt code; progress every 2 s of a long count. */
async function countTokens(name: string, plan: Plan, parts: ReadonlyArray<Array<BenchmarkGroup<unknown, GroupInfo>>>, source: Extract<TokenSource, { folder: string }>, progress?: (line: string) => void): Promise<number[]> {
  const items = parts.reduce((sum, groups) => sum + groups.reduce((n, g) => n + g.items.length, 0), 0);
  const noTemplate = () => new TokenizerFolderError(`tokenizer folder ${source.folder} has no chat template (tokenizer_config.json chat_template), and ${name} sends chat messages`);
  let done = 0;
  let said = performance.now();
  const tokens: number[] = [];
  for (const groups of parts) {
    let sum = 0;
    for (const group of groups) {
      for (const item of group.items) {
        for (const prompt of await plan.itemPrompts!(item, group.info, source.model)) sum += requestPromptIds(source.tokenizer, prompt, noTemplate).ids.length;
        done++;
        if (progress && performance.now() - said >= 2000) {
          said = performance.now();
          progress(`lokal plan: counting ${name}'s prompt tokens: ${done.toLocaleString('en-US')} of ${items.toLocaleString('en-US')} items`);
        }
      }
    }
    tokens.push(sum);
  }
  return tokens;
}

/**
 * Each benchmark's items per part, read as a run would read them (its plan, cut as benchmarkSuite cuts it); with
 * `counting`, the prompt tokens of each part too, or why not.
 */
export async function planBenchmarks(root: string, count: number, env: Readonly<Record<string, string | undefined>> = process.env, counting?: TokenCounting): Promise<PlannedBenchmark[]> {
  const tree: SettingsTree = resolveSettingsTree(
    BENCHMARKS.map((b) => b.settings),
    {},
    { cwd: root, env },
  );
  const planned: PlannedBenchmark[] = [];
  const loaded = new Map<string, Promise<PromptTokenizer>>();
  // --tokenizer's folder is read first: a bad one stops the plan with its one line, whatever the data.
  if (counting?.folder !== undefined) {
    const folder = path.resolve(root, counting.folder);
    loaded.set(folder, loadLocalTokenizer(folder));
    await loaded.get(folder);
  }
  for (const definition of BENCHMARKS) {
    const settings = sectionSettings(tree, definition.settings);
    let plan: Plan;
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
      const weight = plan.itemWeight ? (item: unknown, info: GroupInfo) => plan.itemWeight!(item, info) : undefined;
      const groups = plan.groups as Array<BenchmarkGroup<unknown, GroupInfo>>;
      const parts = Array.from({ length: count }, (_, i) => groupsOfPart(groups, { index: i + 1, count }, id, weight));
      const one: PlannedBenchmark = { name: definition.name, parts: parts.map((groups) => groups.reduce((sum, g) => sum + g.items.length, 0)) };
      if (counting) {
        const source = await tokenSource(modelSpec({ model: benchmarkModel(tree, definition.settings).model }), counting, root, env, loaded);
        if ('uncounted' in source) one.uncounted = source.uncounted;
        else if (!plan.itemPrompts) one.uncounted = `${definition.title} renders no prompt without a model`;
        else {
          one.tokens = await countTokens(definition.name, plan, parts, source, counting.progress);
          one.tokenizer = source.folder;
        }
      }
      planned.push(one);
    } finally {
      await plan.close?.();
    }
  }
  return planned;
}

export async function planCommand(argv: string[], root = process.cwd()): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { shards: { type: 'string' }, 'items-per-second': { type: 'string' }, tokenizer: { type: 'string' } },
  });
  if (positionals.length > 0) throw new UsageError(`lokal plan: unexpected argument ${JSON.stringify(positionals[0])}`);
  const shards = values.shards === undefined ? 1 : Number(values.shards);
  if (!/^\d+$/u.test(values.shards ?? '1') || shards < 1 || shards > 64) throw new UsageError(`lokal plan: --shards must be an integer from 1 to 64 (got ${JSON.stringify(values.shards)})`);
  const rate = values['items-per-second'];
  const itemsPerSecond = rate === undefined ? DEFAULT_ITEMS_PER_SECOND : Number(rate);
  if (!/^\d*\.?\d+$/u.test(rate ?? '1') || !(itemsPerSecond > 0)) throw new UsageError(`lokal plan: --items-per-second must be a number above 0 (got ${JSON.stringify(rate)})`);
  if (values.tokenizer !== undefined && values.tokenizer.trim() === '') throw new UsageError('lokal plan: --tokenizer must name a folder holding tokenizer.json');

  const planned = await planBenchmarks(root, shards, process.env, { folder: values.tokenizer, progress: (line) => process.stderr.write(`${line}\n`) });
  const out: string[] = [];
  const count = (n: number) => n.toLocaleString('en-US');
  const mean = (tokens: number, items: number) => (items === 0 ? '–' : (tokens / items).toFixed(1));
  const counted = planned.some((b) => b.tokens);
  for (const b of planned) {
    if (b.skipped) {
      out.push(`${b.name}: ${b.skipped}`);
      continue;
    }
    const total = b.parts!.reduce((a, c) => a + c, 0);
    out.push(`${b.name}: ${count(total)} items${shards > 1 ? ` in ${shards} parts: ${b.parts!.map(count).join(', ')}` : ''}`);
    if (b.tokens) {
      const sum = b.tokens.reduce((a, c) => a + c, 0);
      const each = shards > 1 ? `; in ${shards} parts: ${b.tokens.map((t, i) => `${count(t)} (${mean(t, b.parts![i]!)})`).join(', ')}` : '';
      out.push(`  prompt tokens: ${count(sum)} (${mean(sum, total)} per item)${each}`);
    } else if (counted && b.uncounted) out.push(`  prompt tokens: not counted (${b.uncounted})`);
  }
  const shardItems = Array.from({ length: shards }, (_, i) => planned.reduce((sum, b) => sum + (b.parts?.[i] ?? 0), 0));
  const shardTokens = Array.from({ length: shards }, (_, i) => planned.reduce((sum, b) => sum + (b.tokens?.[i] ?? 0), 0));
  out.push(`at ${itemsPerSecond} items/s (--items-per-second; the workflow adds ${SETUP_MINUTES} min of setup to each shard):`);
  shardItems.forEach((items, i) => {
    const file = shards > 1 ? ` (${partFile(i + 1, shards)})` : '';
    out.push(`  shard ${i + 1}/${shards}${file}: ${count(items)} items, ${duration(items / itemsPerSecond)}${counted ? `, ${count(shardTokens[i]!)} prompt tokens` : ''}`);
  });
  const folders = [...new Set(planned.flatMap((b) => (b.tokenizer ? [b.tokenizer] : [])))];
  if (counted) out.push(`prompt tokens: counted with the tokenizer in ${folders.join(' and ')}, each prompt rendered as a run renders it`);
  else {
    const reasons = [...new Set(planned.flatMap((b) => (b.uncounted ? [b.uncounted] : [])))];
    out.push(`prompt tokens: not counted (${reasons.length > 0 ? reasons.join('; ') : 'no benchmark has items'}): --tokenizer <folder with tokenizer.json> counts them`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
