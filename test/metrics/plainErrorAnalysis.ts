// The error category and f1_words straight from their definitions in docs/multiloko.md, with no shortcut: every text
// segmented by Intl.Segmenter, every letter's Script tested by regex. The second method the fast code is checked against.
import { tokenF1Single } from '../../src/metrics/tokenF1.ts';

/** The scripts docs/multiloko.md lists, in its tie-breaking order. */
const SCRIPTS = [
  'Latin', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Devanagari', 'Bengali', 'Tamil', 'Telugu', 'Gujarati', 'Kannada',
  'Malayalam', 'Gurmukhi', 'Oriya', 'Sinhala', 'Thai', 'Lao', 'Khmer', 'Myanmar', 'Han', 'Hiragana', 'Katakana',
  'Hangul', 'Georgian', 'Armenian', 'Ethiopic', 'Tibetan', 'Mongolian', 'Thaana', 'Syriac',
];
const SCRIPT_PATTERNS = SCRIPTS.map((s) => new RegExp(`^\\p{Script=${s}}$`, 'u'));

/** The word-like segments of a text, as Intl.Segmenter iterates them. */
export function plainWordTokens(text: string, segmenter: Intl.Segmenter): string[] {
  return [...segmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
}

/** Max over the targets of token F1 between the prediction's and the target's word-like segments. */
export function plainF1Words(prediction: string, targets: readonly string[], segmenter: Intl.Segmenter): number {
  const predWords = plainWordTokens(prediction, segmenter);
  return Math.max(...targets.map((t) => tokenF1Single(predWords, plainWordTokens(t, segmenter))));
}

/** The listed script with the most letters (\p{L}), ties to the earlier, letters of no listed script `other`; null without letters. */
export function plainDominantScript(text: string): string | null {
  const counts = new Map<string, number>();
  for (const char of text) {
    if (!/^\p{L}$/u.test(char)) continue;
    const at = SCRIPT_PATTERNS.findIndex((p) => p.test(char));
    const script = at < 0 ? 'other' : SCRIPTS[at]!;
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const script of [...SCRIPTS, 'other']) {
    const n = counts.get(script) ?? 0;
    if (n > 0 && (best === null || n > counts.get(best)!)) best = script;
  }
  return best;
}

/** The first rule of docs/multiloko.md's table that holds. */
export function plainErrorCategory(prediction: string, targets: readonly string[], editSimilarity: number): string {
  if (targets.some((t) => t === prediction)) return 'correct';
  if (prediction.length === 0) return 'empty';
  if (targets.some((t) => t.length > 0 && prediction.indexOf(t) >= 0)) return 'verbose';
  if (targets.some((t) => t.indexOf(prediction) >= 0)) return 'truncated';
  if (editSimilarity >= 0.7) return 'near';
  const script = plainDominantScript(prediction);
  const targetScript = targets.length > 0 ? plainDominantScript(targets[0]!) : null;
  return script !== null && targetScript !== null && script !== targetScript ? 'wrong_script' : 'wrong';
}
