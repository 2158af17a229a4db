// Kalahi metrics: model-free core (MC metrics, reference strings, response scoring with src/metrics' HF BLEU/ROUGE/METEOR).
export { kalahiMC, byteNormalisedScore, KalahiMCError, type KalahiMCResult } from './mc.ts';
export { splitMultiAnswer, formatBestAnswer, bestAnswerIndex, KalahiReferenceError } from '../data/references.ts';
export {
  scoreKalahiResponse,
  scoreKalahiResponses,
  KALAHI_GENERATION_METRICS,
  type KalahiGenerationMetric,
  type KalahiScorableRow,
  type KalahiScoreOptions,
  type KalahiMetricScore,
  maxDiffAcc,
  type KalahiResponseScore,
  type KalahiResponseInput,
  type KalahiScoreReport,
  type KalahiGroupSummary,
  type KalahiMetricSummary,
  type KalahiScoreLabels,
} from './score.ts';
