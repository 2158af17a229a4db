// Learned metrics' encoders (BERTScore, BLEURT) through transformers.js.
export {
  BERTSCORE_DEFAULT_LAYERS,
  bertScoreDefaultLayer,
  createBertScorer,
  DEFAULT_BERTSCORE_MODEL,
  type BertScorer,
  type BertScorerDescription,
  type BertScorerOptions,
  type SentenceEmbedding,
} from './bertScorer.ts';
export { createBleurtScorer, DEFAULT_BLEURT_MODEL, type BleurtScorer, type BleurtScorerDescription, type BleurtScorerOptions } from './bleurtScorer.ts';
export { EncoderModelError, resolveEncoderSource, type EncoderDtype, type EncoderLoadOptions, type EncoderSource } from './loadEncoder.ts';
