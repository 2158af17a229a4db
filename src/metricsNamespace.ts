// The `metrics` namespace of the package's API (src/index.ts): the shared scoring of src/metrics and MultiLoKo's
// results metrics (per-language means, group metrics, eval.py's results file).
export * from './metrics/index.ts';
export {
  normalizeAnswerForLanguage, contentLanguage, languageMeans, groupMetrics, type GroupMetricsOptions,
  assembleResults, assembleOrderedResults, officialResultsJson,
  type LanguageExamples, type AssembleOptions, type OfficialResults, type LanguageResults, type OrderedResults, type OrderedEntry,
} from './benchmarks/multiloko/index.ts';
