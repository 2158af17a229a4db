// sacrebleu chrF++ word tokens (docs/metrics.md#chrf): split on Python whitespace, split off one ASCII punctuation character.
import { pythonSplit } from '../core/python/pythonWhitespace.ts';

const ASCII_PUNCT = new Set(Array.from('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'));

/** Words of `sentence` for chrF++: a trailing, else a leading, ASCII punctuation character becomes its own token. */
export function chrfWordTokens(sentence: string): string[] {
  const out: string[] = [];
  for (const word of pythonSplit(sentence)) {
    const chars = Array.from(word);
    if (chars.length === 1) out.push(word);
    else if (ASCII_PUNCT.has(chars[chars.length - 1]!)) out.push(chars.slice(0, -1).join(''), chars[chars.length - 1]!);
    else if (ASCII_PUNCT.has(chars[0]!)) out.push(chars[0]!, chars.slice(1).join(''));
    else out.push(word);
  }
  return out;
}
