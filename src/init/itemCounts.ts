// How many item tests each eval file `lokal init` writes will run, for the workflow's timeouts: counted from the data
// where it is (with the project's settings: split, languages, subsets, variants, limit), else the published full size.
import { KALAHI_SETTINGS } from '../benchmarks/kalahi/settings.ts';
import { MULTILOKO_SETTINGS, type MultiLoKoSettings } from '../benchmarks/multiloko/settings.ts';
import { resolveSettingsTree, sectionSettings, type SettingsTree } from '../core/settings.ts';
import type { KalahiSettings } from '../benchmarks/kalahi/run/config.ts';

/**
 * Full sizes when the data is absent. MultiLoKo's dev split: 31 languages of 250 questions, each language's own
 * subset plus, for the 30 other than English, its human and machine translations into and out of English
 * (31 + 4 × 30 = 151 subsets, 37,750 items; github.com/facebookresearch/multiloko). Kalahi: 150 prompts in its
 * default variant, `full` (github.com/aisingapore/kalahi).
 */
const FULL_ITEMS = { multiloko: 37_750, kalahi: 150 } as const;
/** Groups (a limit applies to each) of the full sizes: MultiLoKo's 151 subsets, Kalahi's one variant. */
const FULL_GROUPS = { multiloko: 151, kalahi: 1 } as const;

/** One eval file's item count and where it comes from. */
export interface FileCount {
  /** The eval file `lokal init` writes. */
  file: string;
  items: number;
  /** Its groups (MultiLoKo's subsets, Kalahi's variants): `limit` (LOKAL_LIMIT) caps the items of each. */
  groups: number;
  /** `data`: counted in the project's data; `full size`: the data is absent or unreadable. */
  source: 'data' | 'full size';
}

/** One benchmark's eval file's item count and where it comes from. */
interface ItemCount extends FileCount {
  benchmark: 'multiloko' | 'kalahi';
  /** The eval file `lokal init` writes for the benchmark. */
  file: string;
  items: number;
  /** Its groups (MultiLoKo's subsets, Kalahi's variants): `limit` (LOKAL_LIMIT) caps the items of each. */
  groups: number;
  /** `data`: counted in the project's data; `full size`: the data is absent or unreadable. */
  source: 'data' | 'full size';
}

type Counted = { items: number; groups: number };

async function multilokoItems(settings: MultiLoKoSettings, root: string, env: Readonly<Record<string, string | undefined>>): Promise<Counted> {
  const [{ loadMultiLoKo }, { selectSubsets }] = await Promise.all([import('../benchmarks/multiloko/data/multiloko.ts'), import('../benchmarks/multiloko/run/select.ts')]);
  const dataset = await loadMultiLoKo(settings.data, settings.split, { cwd: root, env });
  const selected = selectSubsets(dataset, settings);
  return { items: selected.reduce((sum, s) => sum + s.items.length, 0), groups: selected.length };
}

async function kalahiItems(settings: KalahiSettings, root: string, env: Readonly<Record<string, string | undefined>>): Promise<Counted> {
  const [{ loadKalahi }, { resolveKalahiConfig }] = await Promise.all([import('../benchmarks/kalahi/data/kalahi.ts'), import('../benchmarks/kalahi/run/config.ts')]);
  const config = resolveKalahiConfig(settings);
  let sum = 0;
  for (const variant of config.variants) {
    const { rows } = await loadKalahi(config.location, variant, { cwd: root, env });
    sum += settings.limit === undefined ? rows.length : Math.min(settings.limit, rows.length);
  }
  return { items: sum, groups: config.variants.length };
}

/** The item tests of each built-in benchmark's eval file in the project at `root` (its lokal.config.json and env). */
export async function evalItemCounts(root: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<ItemCount[]> {
  let tree: SettingsTree = {};
  try {
    tree = resolveSettingsTree([MULTILOKO_SETTINGS, KALAHI_SETTINGS], {}, { cwd: root, env });
  } catch {
    // a settings mistake is the run's to report; the counts fall back to the full sizes
  }
  const count = async (benchmark: ItemCount['benchmark'], counted: () => Promise<Counted>): Promise<ItemCount> => {
    const file = `evals/${benchmark}.eval.ts`;
    try {
      return { benchmark, file, ...(await counted()), source: 'data' };
    } catch {
      // absent data is skipped by the run with its line; the timeout then covers the data a later fetch brings
      // every group of the full sizes has the same number of items, so a limit caps each alike
      const perGroup = FULL_ITEMS[benchmark] / FULL_GROUPS[benchmark];
      const limit = typeof tree.limit === 'number' ? Math.min(tree.limit, perGroup) : perGroup;
      return { benchmark, file, items: FULL_GROUPS[benchmark] * limit, groups: FULL_GROUPS[benchmark], source: 'full size' };
    }
  };
  return [
    await count('multiloko', () => multilokoItems(sectionSettings<MultiLoKoSettings>(tree, MULTILOKO_SETTINGS), root, env)),
    await count('kalahi', () => kalahiItems(sectionSettings<KalahiSettings>(tree, KALAHI_SETTINGS), root, env)),
  ];
}

/** The part file `lokal init --ci github --shards n` writes for part `index` of `count`: every benchmark's part. */
export function partFile(index: number, count: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `evals/part-${two(index)}-of-${two(count)}.eval.ts`;
}

/**
 * Items of part `index` (1..count) of `items` when src/benchmarks/parts.ts cuts them by count: rank r goes to part
 * ⌊(r + ½) × count / items⌋, so part p (0-based) holds the ranks from ⌈p × items / count − ½⌉ up to the next part's.
 * A run balances the parts by prompt length instead, so its counts differ a little: `lokal init` takes the run's own
 * counts from the plan when every benchmark's data is there (src/cli/init.ts), and `lokal plan` prints them.
 */
export function partSize(items: number, index: number, count: number): number {
  const start = (p: number) => Math.max(0, Math.ceil((p * items) / count - 0.5));
  return start(index) - start(index - 1);
}

/**
 * The files a workflow of `shards` shards runs: the benchmarks' own eval files for one shard, else one part file per
 * shard holding every benchmark's part (each benchmark's groups spread over the parts: a limit per group caps 1/n of
 * them in each). A part file's source is `data` only when every benchmark's count is.
 */
export function evalFileCounts(counts: readonly ItemCount[], shards: number): FileCount[] {
  if (shards === 1) return [...counts];
  const source = counts.every((c) => c.source === 'data') ? 'data' : 'full size';
  return Array.from({ length: shards }, (_, i) => ({
    file: partFile(i + 1, shards),
    items: counts.reduce((sum, c) => sum + partSize(c.items, i + 1, shards), 0),
    groups: counts.reduce((sum, c) => sum + c.groups, 0) / shards,
    source,
  }));
}
