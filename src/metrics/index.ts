// MultiLoKo scoring, exact to the reference (METRICS.md §3-§5, §9): pure functions, no Vitest, no I/O.
export { MetricsError } from './errors.ts';
export {
  MULTILOKO_METRICS, EXTRA_METRICS, ALL_METRICS,
  type MultiLoKoMetric, type ExtraMetric, type AnyMetric, type ExampleScores, type ExampleRecord,
} from './metricNames.ts';
export { PY_WS_CLASS, isPythonWhitespace, pythonSplit, pythonRstrip, deletePythonWhitespace } from './pythonWhitespace.ts';
export { codePointsOf } from './codePoints.ts';
export { pythonLower } from './pythonLower.ts';
export { PY_WORD_CLASS_V } from './pythonWordClass.ts';
export { normalizeAnswer, removeMultilokoPunctuation, blankEnglishArticles } from './normalizeAnswer.ts';
export { normalizeAnswerForLanguage, contentLanguage } from './normalizeAnswerForLanguage.ts';
export { exactMatch } from './exactMatch.ts';
export { tokenF1, tokenF1Single } from './tokenF1.ts';
export { tokenize13a, tokens13a, tokens13aFull } from './tokenize13a.ts';
export { sentenceBleu, bleuTokens, type SentenceBleuOptions } from './sentenceBleu.ts';
export { chrfWordTokens } from './chrfWordTokens.ts';
export { chrfScore, chrfNgrams, chrfStatistics, chrfFromStatistics, type ChrfOptions, type ChrfNgrams } from './chrfScore.ts';
export { editDistance } from './editDistance.ts';
export { levenshteinDp } from './levenshteinDp.ts';
export { editSimilarity } from './editSimilarity.ts';
export { sequenceMatcherRatio, matchingCharacters } from './sequenceMatcherRatio.ts';
export { scoreExample, scoreNormalizedExample } from './scoreExample.ts';
export { pythonSum, type PythonSumMode } from './pythonSum.ts';
export { languageMeans } from './languageMeans.ts';
export { groupMetrics, type GroupMetricsOptions } from './groupMetrics.ts';
export {
  assembleResults, assembleOrderedResults, officialResultsJson,
  type LanguageExamples, type AssembleOptions, type OfficialResults, type LanguageResults, type OrderedResults, type OrderedEntry,
} from './assembleResults.ts';
export { pythonFloatRepr, pythonJsonDumps, type PyJson } from './pythonJson.ts';
