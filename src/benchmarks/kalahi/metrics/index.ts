// Kalahi metrics: model-free core (MC metrics, HF BLEU/ROUGE/METEOR as Kalahi calls them, response scoring).
export { kalahiMC, byteNormalisedScore, KalahiMCError, type KalahiMCResult } from './mc.ts';
export { splitMultiAnswer, formatBestAnswer, bestAnswerIndex, KalahiReferenceError } from './references.ts';
export { hfChrf } from './hfChrf.ts';
export { hfBleu, hfTokenize13a, BleuZeroDivisionError, type HfBleuResult } from './hfBleu.ts';
export { rougeScores, rougeScoresMulti, rougeTokenize, ROUGE_TYPES, type RougeScores, type RougeType } from './rouge.ts';
export { meteor, meteorMulti, singleMeteorScore, meteorAlign, correctlyRoundedCube, type MeteorOptions } from './meteor.ts';
export { wordTokenize, treebankTokenize } from './wordTokenize.ts';
export {
  punktSentences,
  punktWordTokenize,
  loadPunktParameters,
  englishPunktParameters,
  DEFAULT_PUNKT_DIR,
  PunktParameterError,
  type PunktParameters,
} from './punkt.ts';
export { porterStem } from './porter.ts';
export { WordNet, sharedWordNet, defaultWordNetDir, DEFAULT_WORDNET_EXCEPTIONS_DIR, WordNetError, type WordNetPos } from './wordnet.ts';

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
