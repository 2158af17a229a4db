// loadMultiLoKo: every file of a MultiLoKo split, validated, from a folder or straight from the encrypted archive.
// Only what a folder of JSONL files needs loads up front: the archive code (xz, tar, openssl) loads when the location
// is an archive, and zod (jsonl.ts) only for a file the plain record checks refuse, to name the problem.
import type { ArchiveLimits } from './archive.ts';
import { DataError } from '../../../data/errors.ts';
import { quickJsonlRecords } from '../../../data/jsonlText.ts';
import { RESERVED_ITEM_IDS } from './reservedIds.ts';
import { assertSplitName, discoverSplit, type SubsetFile } from './layout.ts';
import { MULTILOKO_PASSWORD_ENV, locateMultiLoKo, type LocateOptions } from './locate.ts';
import { checkFewshotItem, checkMultiLoKoItem } from './recordCheck.ts';
import type { MultiLoKoFewshotItem, MultiLoKoQuestion } from './schema.ts';
import { FolderTree, type DatasetTree } from '../../../data/tree.ts';
import { sha256 } from '../../../core/sha256.ts';

export interface MultiLoKoSubset extends SubsetFile {
  items: MultiLoKoQuestion[];
  /** SHA-256 (hex) of the file's bytes: what a run's fingerprint records of its data. */
  sha256?: string;
}

export interface MultiLoKoDataset {
  split: string;
  /** The folder or archive read. */
  location: string;
  /** Folders sorted by code point; in each, the local subset first, then its translations sorted by file name. */
  subsets: MultiLoKoSubset[];
  /** Language folder → its `knowledge_fewshot.jsonl` examples, for folders that have one. */
  fewshot: Record<string, MultiLoKoFewshotItem[]>;
  /** Language folder → SHA-256 (hex) of its `knowledge_fewshot.jsonl`. */
  fewshotSha256?: Record<string, string>;
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
  const [{ openMultiLoKoArchive }, { MULTILOKO_PASSWORD }] = await Promise.all([import('./archive.ts'), import('../../../data/opensslEnc.ts')]);
  const env = options.env ?? process.env;
  const password = options.password ?? (env[MULTILOKO_PASSWORD_ENV] || MULTILOKO_PASSWORD);
  const { maxFileBytes, maxArchiveBytes, maxArchiveMembers } = options;
  return openMultiLoKoArchive(found.path, { password, maxFileBytes, maxArchiveBytes, maxArchiveMembers });
}

const itemId = (item: { id?: string | number }) => item.id;

/** Reads the files concurrently; every outcome is kept, so the caller can report the first failure in order. */
function readAllSettled(tree: DatasetTree, files: readonly string[]): Promise<Array<PromiseSettledResult<Uint8Array>>> {
  return Promise.allSettled(files.map((file) => tree.read(file)));
}

function settledValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}
/** The zod-validating parsers: they name the file, line and field of a problem the quick read met. */
const validatingParsers = () => import('./jsonl.ts');

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
  // Every file is read at once (the reads overlap), then parsed in order: the first bad file in order is reported.
  const reads = await readAllSettled(tree, [...layout.subsets.map((s) => s.file), ...layout.fewshot.map((f) => f.file)]);
  let next = 0;
  const subsets: MultiLoKoSubset[] = [];
  for (const subset of layout.subsets) {
    const bytes = settledValue(reads[next++]!);
    const items =
      quickJsonlRecords(bytes, checkMultiLoKoItem, itemId, RESERVED_ITEM_IDS) ?? (await validatingParsers()).parseMultiLoKoJsonl(bytes, tree.describe(subset.file));
    subsets.push({ ...subset, items, sha256: sha256(bytes) });
  }
  const fewshot: Record<string, MultiLoKoFewshotItem[]> = {};
  const fewshotSha256: Record<string, string> = {};
  for (const { folder, file } of layout.fewshot) {
    const bytes = settledValue(reads[next++]!);
    fewshotSha256[folder] = sha256(bytes);
    fewshot[folder] = quickJsonlRecords(bytes, checkFewshotItem, itemId) ?? (await validatingParsers()).parseFewshotJsonl(bytes, tree.describe(file));
  }
  return { split, location: tree.location, subsets, fewshot, fewshotSha256 };
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
