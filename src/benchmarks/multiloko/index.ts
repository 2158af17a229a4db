// MultiLoKo's face: what other layers and the package's entry points take from this benchmark (its data loaders, its
// results metrics); the benchmark's own modules import each other directly.
export {
  MultiLoKoQuestionSchema,
  MultiLoKoFewshotItemSchema,
  type MultiLoKoQuestion,
  type MultiLoKoFewshotItem,
} from './data/schema.ts';
export {
  loadMultiLoKo,
  openMultiLoKo,
  readMultiLoKoTree,
  type MultiLoKoDataset,
  type MultiLoKoSubset,
  type LoadMultiLoKoOptions,
} from './data/multiloko.ts';
export { discoverSplit, subsetKey, FEWSHOT_FILE, type SubsetFile } from './data/layout.ts';
export {
  locateMultiLoKo,
  howToProvideMultiLoKo,
  MULTILOKO_ENV,
  MULTILOKO_PASSWORD_ENV,
  MULTILOKO_ARCHIVE_NAME,
  DEFAULT_DATA_DIR,
  type MultiLoKoLocation,
} from './data/locate.ts';
export {
  openMultiLoKoArchive,
  readTarFiles,
  readTarEntries,
  DEFAULT_MAX_ARCHIVE_BYTES,
  DEFAULT_MAX_ARCHIVE_MEMBERS,
  type ArchiveLimits,
} from './data/archive.ts';
export { normalizeAnswerForLanguage } from './metrics/normalizeAnswerForLanguage.ts';
export { contentLanguage } from './data/subsetKey.ts';
export { languageMeans } from './metrics/languageMeans.ts';
export { groupMetrics, type GroupMetricsOptions } from './metrics/groupMetrics.ts';
export {
  assembleResults, assembleOrderedResults, officialResultsJson,
  type LanguageExamples, type AssembleOptions, type OfficialResults, type LanguageResults, type OrderedResults, type OrderedEntry,
} from './metrics/assembleResults.ts';
