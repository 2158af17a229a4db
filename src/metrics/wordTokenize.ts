// nltk 3.10.3 word_tokenize: Punkt sentences, then NLTKWordTokenizer on each (docs/metrics.md#meteor).
import { PY_WS_CLASS, pythonSplit } from '../core/python/pythonWhitespace.ts';
import { PY_WORD_CLASS } from '../core/python/pythonWordClass.ts';
import { englishPunktParameters, punktSentences, type PunktParameters } from './punkt.ts';

const W = `[${PY_WORD_CLASS}]`;
const NOT_W_BEFORE = `(?<!${W})`;
const NOT_W_AFTER = `(?!${W})`;
const S = `[${PY_WS_CLASS}]`;
const I = '[i\\u0130\\u0131]'; // Python (?i) lets `i` match İ and ı as well

type Rule = [RegExp, (...groups: string[]) => string];
const rule = (source: string, flags: string, replace: (...groups: string[]) => string): Rule => [new RegExp(source, `g${flags}u`), replace];

// Replacement callbacks receive (match, g1, g2, ...) like String.prototype.replace.
const STARTING_QUOTES: Rule[] = [
  rule('([«“‘„]|`+)', '', (_m, g1) => ` ${g1} `),
  rule('^"', '', () => '``'),
  rule('(``)', '', (_m, g1) => ` ${g1} `),
  rule(`([ ([{<])("|'')`, '', (_m, g1) => `${g1} \`\` `),
  rule(`${NOT_W_BEFORE}(')(?!(?:re|ve|ll|m|t|s|d|n)${NOT_W_AFTER})(?=${W})`, 'i', (_m, g1) => `${g1} `),
];

const PUNCTUATION: Rule[] = [
  rule(`([^.])(\\.)([\\])}>"'»”’ ]*)${S}*$`, '', (_m, g1, g2, g3) => `${g1} ${g2} ${g3} `),
  rule('([:,])([^\\p{Nd}])', '', (_m, g1, g2) => ` ${g1} ${g2}`),
  rule('([:,])(?=\\n?$)', '', (_m, g1) => ` ${g1} `),
  rule('\\.{2,}', '', (m) => ` ${m} `),
  rule('[;@#$%&]', '', (m) => ` ${m} `),
  rule('[\\u2012-\\u2015]', '', (m) => ` ${m} `),
  rule(`([^.])(\\.)([\\])}>"']*)${S}*$`, '', (_m, g1, g2, g3) => `${g1} ${g2}${g3} `),
  rule('[?!]', '', (m) => ` ${m} `),
  rule("([^'])' ", '', (_m, g1) => `${g1} ' `),
  rule('\\*', '', (m) => ` ${m} `),
];

const PARENS_BRACKETS = rule('[\\][(){}<>]', '', (m) => ` ${m} `);
const DOUBLE_DASHES = rule('--', '', () => ' -- ');

const ENDING_QUOTES: Rule[] = [
  rule('([»”’])', '', (_m, g1) => ` ${g1} `),
  rule("''", '', () => " '' "),
  rule('"', '', () => " '' "),
  rule(`${S}+`, '', () => ' '),
  rule("([^' ])('[sS]|'[mM]|'[dD]|') ", '', (_m, g1, g2) => `${g1} ${g2} `),
  rule("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", '', (_m, g1, g2) => `${g1} ${g2} `),
];

const twoParts = (_m: string, g1: string, g2: string): string => ` ${g1} ${g2} `;
const CONTRACTIONS: Rule[] = [
  rule(`${NOT_W_BEFORE}(can)(not)${NOT_W_AFTER}`, 'i', twoParts),
  rule(`${NOT_W_BEFORE}(d)('ye)${NOT_W_AFTER}`, 'i', twoParts),
  rule(`${NOT_W_BEFORE}(g${I}m)(me)${NOT_W_AFTER}`, 'i', twoParts),
  rule(`${NOT_W_BEFORE}(gon)(na)${NOT_W_AFTER}`, 'i', twoParts),
  rule(`${NOT_W_BEFORE}(got)(ta)${NOT_W_AFTER}`, 'i', twoParts),
  rule(`${NOT_W_BEFORE}(lem)(me)${NOT_W_AFTER}`, 'i', twoParts),
  rule(`${NOT_W_BEFORE}(more)('n)${NOT_W_AFTER}`, 'i', twoParts),
  rule(`${NOT_W_BEFORE}(wan)(na)(?=${S})`, 'i', twoParts),
  rule(` ('t)(${I}s)${NOT_W_AFTER}`, 'i', twoParts),
  rule(` ('t)(was)${NOT_W_AFTER}`, 'i', twoParts),
];

function apply(text: string, [re, replace]: Rule): string {
  return text.replace(re, (...args: unknown[]) => {
    // Drop the trailing (offset, string[, groups]) arguments; unmatched groups become '' as in Python's sub.
    const end = args.findIndex((a) => typeof a === 'number');
    const groups = args.slice(0, end).map((g) => (g === undefined ? '' : (g as string)));
    return replace(...groups);
  });
}

/** NLTKWordTokenizer().tokenize(sentence) (convert_parentheses off). */
export function treebankTokenize(sentence: string): string[] {
  let text = sentence;
  for (const r of STARTING_QUOTES) text = apply(text, r);
  for (const r of PUNCTUATION) text = apply(text, r);
  text = apply(text, PARENS_BRACKETS);
  text = apply(text, DOUBLE_DASHES);
  text = ` ${text} `;
  for (const r of ENDING_QUOTES) text = apply(text, r);
  for (const r of CONTRACTIONS) text = apply(text, r);
  return pythonSplit(text);
}

/** nltk.word_tokenize(text) with English Punkt parameters (used for Filipino text too, as evaluate does). */
export function wordTokenize(text: string, params: PunktParameters = englishPunktParameters()): string[] {
  return punktSentences(text, params).flatMap(treebankTokenize);
}
