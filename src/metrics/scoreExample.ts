// One MultiLoKo example scored as eval.py does (docs/metrics.md#multiloko): normalise, then every metric against all targets.
import { CHRF_MAX_HYPOTHESIS_CODE_POINTS, chrfSentence } from './chrfScore.ts';
import { codePointsOf } from '../core/python/codePoints.ts';
import { editDistance } from './editDistance.ts';
import { exactMatch } from './exactMatch.ts';
import type { ExampleScores } from './metricNames.ts';
import { normalizeAnswer } from './normalizeAnswer.ts';
import { requireTargets } from './requireTargets.ts';
import { bleuTokensWithSplit, sentenceBleuOfTokens } from './sentenceBleu.ts';
import { sequenceMatcherRatio } from './sequenceMatcherRatio.ts';
import { tokenF1OfTokens } from './tokenF1.ts';
import { pythonSplit } from '../core/python/pythonWhitespace.ts';

/** Every metric of already-normalised strings; `edit_distance_first` is the distance to targets[0]. */
export function scoreNormalizedExample(prediction: string, targets: readonly string[]): ExampleScores {
  return scoreNormalized(prediction, targets).scores;
}

/** The scores, and whether chrF read only the first CHRF_MAX_HYPOTHESIS_CODE_POINTS of a runaway prediction. */
function scoreNormalized(prediction: string, targets: readonly string[]): { scores: ExampleScores; truncated: boolean } {
  requireTargets(targets, 'scoreExample');
  const em = exactMatch(prediction, targets);
  // One whitespace split per string for F1 and BLEU (13a is that split unless the text has ASCII punctuation).
  const predTokens = pythonSplit(prediction);
  const targetTokens: string[][] = [];
  const refTokens: string[][] = [];
  for (let t = 0; t < targets.length; t++) {
    const split = pythonSplit(targets[t]!);
    targetTokens.push(split);
    refTokens.push(bleuTokensWithSplit(targets[t]!, split));
  }
  // An exact match is the best target for every metric but BLEU, whose value the metric's bound then is: distance 0,
  // SequenceMatcher 1.0 (difflib's first longest match of a sequence with itself lies on the diagonal and extends over
  // every element, autojunk's popular ones included), and for text with a non-whitespace character (the same 29 code
  // points for the split and for chrF's whitespace deletion) chrF 100 and token F1 1.0, all exact.
  const exact = em === 1.0;
  const exactText = exact && predTokens.length > 0;
  let minDistance = Infinity;
  let firstDistance = 0;
  let maxSimilarity = -Infinity;
  if (exact) {
    minDistance = 0;
    maxSimilarity = 1.0;
    firstDistance = targets[0] === prediction ? 0 : editDistance(prediction, targets[0]!);
  } else {
    const predCodePoints = codePointsOf(prediction);
    for (let t = 0; t < targets.length; t++) {
      const d = editDistance(prediction, targets[t]!);
      if (t === 0) firstDistance = d;
      if (d < minDistance) minDistance = d;
      const s = sequenceMatcherRatio(predCodePoints, codePointsOf(targets[t]!));
      if (s > maxSimilarity) maxSimilarity = s;
    }
  }
  // The cap check as chrfSentence makes it: no more UTF-16 units than the cap, so no more code points.
  const chrf = exactText && prediction.length <= CHRF_MAX_HYPOTHESIS_CODE_POINTS ? { score: 100.0, truncated: false } : chrfSentence(prediction, targets);
  const scores: ExampleScores = {
    em,
    f1: exactText ? 1.0 : tokenF1OfTokens(predTokens, targetTokens),
    bleu: sentenceBleuOfTokens(bleuTokensWithSplit(prediction, predTokens), refTokens),
    chrf: chrf.score,
    edit_distance: minDistance,
    edit_similarity: maxSimilarity,
    edit_distance_first: firstDistance,
  };
  return { scores, truncated: chrf.truncated };
}

/**
 * Normalises the raw prediction and targets (or uses `opts.normalize`, e.g. a language-aware variant) and scores them.
 * `truncated` is present (true) only when chrF scored the first CHRF_MAX_HYPOTHESIS_CODE_POINTS of a longer prediction.
 */
export function scoreExample(
  prediction: string,
  targets: readonly string[],
  opts: { normalize?: (text: string) => string } = {},
): { scores: ExampleScores; prediction: string; targets: string[]; truncated?: true } {
  requireTargets(targets, 'scoreExample');
  const normalize = opts.normalize ?? normalizeAnswer;
  const pred = normalize(prediction);
  // A loop with push, not map(): map() optimised by V8 returns holey arrays where the unoptimised one returned packed
  // ones, and every metric optimised for one kind would be thrown away (deoptimised) on the first of the other.
  const norm: string[] = [];
  for (let t = 0; t < targets.length; t++) norm.push(normalize(targets[t]!));
  const { scores, truncated } = scoreNormalized(pred, norm);
  const result: { scores: ExampleScores; prediction: string; targets: string[]; truncated?: true } = { scores, prediction: pred, targets: norm };
  if (truncated) result.truncated = true;
  return result;
}
