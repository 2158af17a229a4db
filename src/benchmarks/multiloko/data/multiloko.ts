// loadMultiLoKo: every file of a MultiLoKo split, validated, from a folder or straight from the encrypted archive.
import { openMultiLoKoArchive, type ArchiveLimits } from './archive.ts';
import { DataError } from '../../../data/errors.ts';
import { parseFewshotJsonl, parseMultiLoKoJsonl } from '../../../data/jsonl.ts';
import { assertSplitName, discoverSplit, type SubsetFile } from './layout.ts';
import { MULTILOKO_PASSWORD_ENV, locateMultiLoKo, type LocateOptions } from './locate.ts';
import { MULTILOKO_PASSWORD } from '../../../data/opensslEnc.ts';
import type { MultiLoKoFewshotItem, MultiLoKoItem } from './schema.ts';
import { FolderTree, type DatasetTree } from '../../../data/tree.ts';

export interface MultiLoKoSubset extends SubsetFile {
  items: MultiLoKoItem[];
}

export interface MultiLoKoDataset {
  split: string;
  /** The folder or archive read. */
  location: string;
  /** Folders sorted by code point; in each, the local subset first, then its translations sorted by file name. */
  subsets: MultiLoKoSubset[];
  /** Language folder → its `knowledge_fewshot.jsonl` examples, for folders that have one. */
  fewshot: Record<string, MultiLoKoFewshotItem[]>;
}

export interface LoadMultiLoKoOptions extends LocateOptions, ArchiveLimits {
  /** Archive password; default $LOKAL_MULTILOKO_PASSWORD, else the published "multiloko". */
  password?: string;
  /** Largest dataset file (or encrypted archive) read, in bytes; default 256 MiB. */
  maxFileBytes?: number;
}

/** Opens a location (folder, its parent, or archive; default as in `locateMultiLoKo`) as a dataset tree. */
export async function openMultiLoKo(location?: string, options: LoadMultiLoKoOptions = {}): Promise<DatasetTree> {
  const found = await locateMultiLoKo(location, options);
  if (found.kind === 'folder') return new FolderTree(found.path, { maxFileBytes: options.maxFileBytes });
  const env = options.env ?? process.env;
  const password = options.password ?? (env[MULTILOKO_PASSWORD_ENV] || MULTILOKO_PASSWORD);
  const { maxFileBytes, maxArchiveBytes, maxArchiveMembers } = options;
  return openMultiLoKoArchive(found.path, { password, maxFileBytes, maxArchiveBytes, maxArchiveMembers });
}

/** Reads and validates every file of `split` in an opened tree. */
export async function readMultiLoKoTree(tree: DatasetTree, split: string): Promise<MultiLoKoDataset> {
  const layout = await discoverSplit(tree, split);
  if (layout.subsets.length === 0) {
    const folders = (await tree.list('')).filter((e) => e.kind === 'dir').map((e) => e.name);
    throw new DataError(
      tree.location,
      `has no files of split ${JSON.stringify(split)}: expected <language>/${split}.jsonl or <language>/${split}_translated_{human|machine}_<language>.jsonl` +
        (folders.length === 0 ? ' (it has no language folders at all)' : ` (folders found: ${folders.slice(0, 8).join(', ')}${folders.length > 8 ? ', …' : ''})`),
      { code: 'layout' },
    );
  }
  const subsets: MultiLoKoSubset[] = [];
  for (const subset of layout.subsets) {
    const items = parseMultiLoKoJsonl(await tree.read(subset.file), tree.describe(subset.file));
    subsets.push({ ...subset, items });
  }
  const fewshot: Record<string, MultiLoKoFewshotItem[]> = {};
  for (const { folder, file } of layout.fewshot) {
    fewshot[folder] = parseFewshotJsonl(await tree.read(file), tree.describe(file));
  }
  return { split, location: tree.location, subsets, fewshot };
}

/**
 * Loads a MultiLoKo split. `location`: the extracted `benchmark_data/` folder, its parent, or the official
 * `benchmark_data.tar.xz.enc` (decrypted and unpacked in memory); default $LOKAL_MULTILOKO, then
 * ./data/benchmark_data.tar.xz.enc, then ./data/benchmark_data/.
 */
export async function loadMultiLoKo(location?: string, split = 'dev', options: LoadMultiLoKoOptions = {}): Promise<MultiLoKoDataset> {
  assertSplitName(split);
  const tree = await openMultiLoKo(location, options);
  return readMultiLoKoTree(tree, split);
}
