// A MultiLoKo item record as the item test writes it for one answer to the target "roma", from its EM and F1 alone
// (the other scores follow from them): what the tests of folding trials and of gates over trials build items from.
import type { LokalItemRecord } from '../../src/benchmarks/multiloko/run/records.ts';

/** Where the item sits: its subset, id and index (default: italian, q0, 0). */
export interface AnswerPlace {
  subset?: string;
  id?: string;
  index?: number;
}

/** The record of answering `prediction` with EM `em` and F1 `f1` (default: `em`), 10 ms and 2 output tokens. */
export function multilokoAnswer(prediction: string, em: number, f1 = em, { subset = 'italian', id = 'q0', index = 0 }: AnswerPlace = {}): LokalItemRecord {
  return {
    subset, id, index, itemKey: `multiloko/${subset}/${id}`, rawPrediction: prediction, answer: prediction, prediction,
    prompt: { mode: 'chat', language: 'italian', fewshot: 'none', shots: 0, extracted: true },
    targets: ['roma'],
    scores: { em, f1, bleu: 100 * em, chrf: 100 * f1, edit_distance: 1 - em, edit_similarity: f1, edit_distance_first: 1 - em, f1_words: f1 },
    latencyMs: 10, cached: false, missing: false, verdict: '', outputTokens: 2,
  };
}
