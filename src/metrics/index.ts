// Scoring shared by the benchmarks, exact to the reference (docs/metrics.md#multiloko, #chrf, #sentence-bleu): pure
// functions, no Vitest, no I/O; MultiLoKo's results metrics are in src/benchmarks/multiloko/index.ts.
export { MetricsError } from './errors.ts';
export {
  MULTILOKO_METRICS, EXTRA_METRICS, ALL_METRICS,
  type MultiLoKoMetric, type ExtraMetric, type AnyMetric, type ExampleScores, type ExampleRecord,
} from './metricNames.ts';
export { PY_WS_CLASS, isPythonWhitespace, pythonSplit, pythonRstrip, deletePythonWhitespace } from '../core/python/pythonWhitespace.ts';
export { codePointsOf } from '../core/python/codePoints.ts';
export { pythonLower } from '../core/python/pythonLower.ts';
export { PY_WORD_CLASS_V } from '../core/python/pythonWordClass.ts';
export { normalizeAnswer, removeMultilokoPunctuation, blankEnglishArticles } from './normalizeAnswer.ts';
export { exactMatch } from './exactMatch.ts';
export { tokenF1, tokenF1Single } from './tokenF1.ts';
export { tokenize13a, tokens13a, tokens13aFull } from '../core/python/tokenize13a.ts';
export { sentenceBleu, bleuTokens, type SentenceBleuOptions } from './sentenceBleu.ts';
export { chrfWordTokens } from './chrfWordTokens.ts';
export { chrfScore, chrfNgrams, chrfStatistics, chrfFromStatistics, type ChrfOptions, type ChrfNgrams } from './chrfScore.ts';
export { editDistance } from './editDistance.ts';
export { levenshteinDp } from './levenshteinDp.ts';
export { editSimilarity } from './editSimilarity.ts';
export { sequenceMatcherRatio, matchingCharacters } from './sequenceMatcherRatio.ts';
export { scoreExample, scoreNormalizedExample } from './scoreExample.ts';
export { pythonSum, type PythonSumMode } from '../core/python/pythonSum.ts';
export { pythonFloatRepr, pythonJsonDumps, type PyJson } from '../core/python/pythonJson.ts';
