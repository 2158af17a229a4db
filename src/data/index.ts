// Data layer: MultiLoKo (folder or encrypted archive), and the downloader for `lokal data fetch`.
export { DataError, type DataErrorCode } from './errors.ts';
export { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_STREAM_BYTES, type FileLimits } from './files.ts';
export {
  MultiLoKoQuestionSchema,
  MultiLoKoFewshotItemSchema,
  type MultiLoKoQuestion,
  type MultiLoKoFewshotItem,
} from '../benchmarks/multiloko/data/schema.ts';
export {
  loadMultiLoKo,
  openMultiLoKo,
  readMultiLoKoTree,
  type MultiLoKoDataset,
  type MultiLoKoSubset,
  type LoadMultiLoKoOptions,
} from '../benchmarks/multiloko/data/multiloko.ts';
export { discoverSplit, subsetKey, FEWSHOT_FILE, type SubsetFile } from '../benchmarks/multiloko/data/layout.ts';
export {
  locateMultiLoKo,
  howToProvideMultiLoKo,
  MULTILOKO_ENV,
  MULTILOKO_PASSWORD_ENV,
  MULTILOKO_ARCHIVE_NAME,
  DEFAULT_DATA_DIR,
  type MultiLoKoLocation,
} from '../benchmarks/multiloko/data/locate.ts';
export {
  openMultiLoKoArchive,
  readTarFiles,
  readTarEntries,
  DEFAULT_MAX_ARCHIVE_BYTES,
  DEFAULT_MAX_ARCHIVE_MEMBERS,
  type ArchiveLimits,
} from '../benchmarks/multiloko/data/archive.ts';
export { decryptOpensslEnc, MULTILOKO_PASSWORD } from './opensslEnc.ts';
export { ArchiveTree, FolderTree, MemoryTree, MAX_LINK_HOPS, type ArchiveEntry, type DatasetTree } from './tree.ts';
export { DATA_SOURCES, type DataSource } from '../cli/sources.ts';
export { fetchData, KALAHI_ENV, type FetchDataOptions, type FetchedFile } from '../cli/fetch.ts';
export {
  loadKalahi, parseKalahiCsv, resolveKalahiFile, kalahiVariantOfFile, readKalahiResponses, parseKalahiResponsesJsonl,
  KALAHI_VARIANTS, KALAHI_FILES, KALAHI_DEFAULT_DIR,
  type KalahiVariant, type KalahiRow, type KalahiDataset, type KalahiResponseRow,
} from '../benchmarks/kalahi/data.ts';
