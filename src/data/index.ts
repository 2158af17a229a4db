// Data layer: MultiLoKo (folder or encrypted archive), and the downloader for `lokal data fetch`.
export { DataError, type DataErrorCode } from './errors.ts';
export {
  MultiLoKoItemSchema,
  MultiLoKoFewshotItemSchema,
  type MultiLoKoItem,
  type MultiLoKoFewshotItem,
} from './schema.ts';
export {
  loadMultiLoKo,
  openMultiLoKo,
  readMultiLoKoTree,
  type MultiLoKoDataset,
  type MultiLoKoSubset,
  type LoadMultiLoKoOptions,
} from './multiloko.ts';
export { discoverSplit, subsetKey, FEWSHOT_FILE, type SubsetFile } from './layout.ts';
export {
  locateMultiLoKo,
  howToProvideMultiLoKo,
  MULTILOKO_ENV,
  MULTILOKO_PASSWORD_ENV,
  MULTILOKO_ARCHIVE_NAME,
  DEFAULT_DATA_DIR,
  type MultiLoKoLocation,
} from './locate.ts';
export { openMultiLoKoArchive, readTarFiles } from './archive.ts';
export { decryptOpensslEnc, MULTILOKO_PASSWORD } from './opensslEnc.ts';
export { FolderTree, MemoryTree, type DatasetTree } from './tree.ts';
export { DATA_SOURCES, type DataSource } from './sources.ts';
export { fetchData, KALAHI_ENV, type FetchDataOptions, type FetchedFile } from './fetch.ts';
export {
  loadKalahi, parseKalahiCsv, resolveKalahiFile, kalahiVariantOfFile, readKalahiResponses, parseKalahiResponsesJsonl,
  KALAHI_VARIANTS, KALAHI_FILES, KALAHI_DEFAULT_DIR,
  type KalahiVariant, type KalahiRow, type KalahiDataset, type KalahiResponseRow,
} from './kalahi.ts';
