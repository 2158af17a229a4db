// The `data` namespace of the package's API (src/index.ts): the data layer's readers and downloader, and each
// benchmark's loaders from its folder's index.ts.
export * from './data/index.ts';
export { fetchData } from './benchmarks/fetchData.ts';
export {
  MultiLoKoQuestionSchema, MultiLoKoFewshotItemSchema, type MultiLoKoQuestion, type MultiLoKoFewshotItem,
  loadMultiLoKo, openMultiLoKo, readMultiLoKoTree, type MultiLoKoDataset, type MultiLoKoSubset, type LoadMultiLoKoOptions,
  discoverSplit, subsetKey, FEWSHOT_FILE, type SubsetFile,
  locateMultiLoKo, howToProvideMultiLoKo, MULTILOKO_ENV, MULTILOKO_PASSWORD_ENV, MULTILOKO_ARCHIVE_NAME, DEFAULT_DATA_DIR, type MultiLoKoLocation,
  openMultiLoKoArchive, readTarFiles, readTarEntries, DEFAULT_MAX_ARCHIVE_BYTES, DEFAULT_MAX_ARCHIVE_MEMBERS, type ArchiveLimits,
} from './benchmarks/multiloko/index.ts';
export * from './benchmarks/kalahi/index.ts';
