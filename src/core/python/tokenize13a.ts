// sacrebleu's 13a tokenizer (mteval-v13a), docs/metrics.md#sentence-bleu: returns the tokens joined by one space, as sacrebleu does.
import { pythonSplit } from './pythonWhitespace.ts';

const RULES: ReadonlyArray<readonly [RegExp, string]> = [
  // every ASCII punctuation character except ' , - . (plus the space)
  [/([\x7b-\x7e\x5b-\x60\x20-\x26\x28-\x2b\x3a-\x40\x2f])/gu, ' $1 '],
  [/([^0-9])([.,])/gu, '$1 $2 '],
  [/([.,])([^0-9])/gu, ' $1 $2'],
  [/([0-9])(-)/gu, '$1 $2 '],
];

const ASCII_PUNCTUATION = /[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/;

/** The 13a steps in full: delete `<skipped>` and `-\n`, newline to space, unescape four entities, four regex passes. */
export function tokens13aFull(line: string): string[] {
  let s = line.replaceAll('<skipped>', '').replaceAll('-\n', '').replaceAll('\n', ' ');
  if (s.includes('&')) {
    s = s.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
  }
  s = ` ${s} `;
  for (const [pattern, replacement] of RULES) s = s.replace(pattern, replacement);
  return pythonSplit(s);
}

/** 13a tokens of `line` (no rstrip: sacrebleu's BLEU rstrips before calling this, HF's copy does not). */
export function tokens13a(line: string): string[] {
  // Every rule needs an ASCII punctuation character (`<skipped>`, `-\n`, `&`, the four patterns); a newline alone only
  // becomes a space, which the final split treats the same. So without one, 13a is a whitespace split.
  return ASCII_PUNCTUATION.test(line) ? tokens13aFull(line) : pythonSplit(line);
}

/** sacrebleu `TokenizerV13a()(line)`: the tokens joined by one space. */
export function tokenize13a(line: string): string {
  return tokens13a(line).join(' ');
}
