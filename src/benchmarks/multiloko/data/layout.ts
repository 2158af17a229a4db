// Which files of a MultiLoKo tree belong to a split, and what each one is — following the official eval.py.
import { DataError } from '../../../data/errors.ts';
import type { DatasetTree } from '../../../data/tree.ts';
import { reservedLanguageKey } from './reservedIds.ts';

export const FEWSHOT_FILE = 'knowledge_fewshot.jsonl';

export interface SubsetFile {
  /** eval.py's language key (see `subsetKey`). */
  key: string;
  folder: string;
  /** Path inside the dataset: `<folder>/<file name>`. */
  file: string;
  sourceLanguage: string;
  questionLanguage: string;
  translated: boolean;
  translation?: 'human' | 'machine';
}

interface SplitLayout {
  subsets: SubsetFile[];
  /** language folder → path of its `knowledge_fewshot.jsonl`. */
  fewshot: Array<{ folder: string; file: string }>;
}

/** Orders strings by code point (Python's `sorted`), not by UTF-16 unit. */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/**
 * eval.py's key for a translated file: the basename up to the first `.jsonl`, with every occurrence of
 * the split name replaced by the folder name (`italian/dev_translated_human_english.jsonl` →
 * `italian_translated_human_english`), quirks included.
 */
export function subsetKey(fileName: string, split: string, folder: string): string {
  const stem = fileName.split('.jsonl')[0]!;
  return stem.replaceAll(split, folder);
}

/** eval.py's glob `<split>_translated*.jsonl` (no path separators in a basename, so a prefix/suffix test suffices). */
function matchesTranslatedGlob(fileName: string, split: string): boolean {
  return fileName.startsWith(`${split}_translated`) && fileName.endsWith('.jsonl');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function assertSplitName(split: string): void {
  if (split === '' || /[\\/]/.test(split)) {
    throw new DataError('<split>', `invalid split name ${JSON.stringify(split)}: expected a file stem such as "dev"`, { code: 'layout' });
  }
}

/** Finds every file of the split in the tree: local questions, translations (both directions) and few-shot files. */
export async function discoverSplit(tree: DatasetTree, split: string): Promise<SplitLayout> {
  assertSplitName(split);
  const translatedName = new RegExp(`^${escapeRegExp(split)}_translated_(human|machine)_(.+)\\.jsonl$`, 'u');
  const folders = (await tree.list(''))
    .filter((e) => e.kind === 'dir' && !e.name.includes('debug'))
    .map((e) => e.name)
    .sort(compareCodePoints);
  const subsets: SubsetFile[] = [];
  const fewshot: SplitLayout['fewshot'] = [];
  // The folders are listed concurrently and handled in order (the first failure in order is the one reported).
  const listings = await Promise.allSettled(folders.map((folder) => tree.list(folder)));
  for (const [f, folder] of folders.entries()) {
    const listing = listings[f]!;
    if (listing.status === 'rejected') throw listing.reason;
    const names = listing.value.filter((e) => e.kind === 'file').map((e) => e.name);
    if (names.includes(`${split}.jsonl`)) {
      subsets.push({
        key: folder,
        folder,
        file: `${folder}/${split}.jsonl`,
        sourceLanguage: folder,
        questionLanguage: folder,
        translated: false,
      });
    }
    for (const name of names.filter((n) => matchesTranslatedGlob(n, split)).sort(compareCodePoints)) {
      const match = translatedName.exec(name);
      if (!match) {
        throw new DataError(
          tree.describe(`${folder}/${name}`),
          `is named like a translated file but not as ${split}_translated_{human|machine}_<language>.jsonl`,
          { code: 'layout' },
        );
      }
      subsets.push({
        key: subsetKey(name, split, folder),
        folder,
        file: `${folder}/${name}`,
        sourceLanguage: folder,
        questionLanguage: match[2]!,
        translated: true,
        translation: match[1] as 'human' | 'machine',
      });
    }
    if (names.includes(FEWSHOT_FILE)) fewshot.push({ folder, file: `${folder}/${FEWSHOT_FILE}` });
  }
  const seen = new Map<string, string>();
  for (const subset of subsets) {
    const reserved = reservedLanguageKey(subset.key);
    if (reserved !== undefined) {
      throw new DataError(tree.describe(subset.folder), `gives the language key ${JSON.stringify(subset.key)}, which cannot be one: ${reserved}; rename the folder`, { code: 'layout' });
    }
    const other = seen.get(subset.key);
    if (other !== undefined) {
      throw new DataError(
        tree.describe(subset.file),
        `gives the language key ${JSON.stringify(subset.key)}, which ${other} already has (eval.py would silently keep only one)`,
        { code: 'layout' },
      );
    }
    seen.set(subset.key, subset.file);
  }
  return { subsets, fewshot };
}
