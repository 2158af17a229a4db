// Hand-derived cases in twelve scripts. Each expected value is worked out from the definitions in docs/metrics.md
// (#python-conventions, #chrf, #sentence-bleu, #multiloko); the derivation is the comment beside it. n-gram
// statistics are counted by hand and turned into scores by chrfFromCounts, this file's own transcription of chrF's
// score steps (docs/metrics.md#chrf).
import { describe, expect, test } from 'vitest';
import {
  chrfScore, editDistance, editSimilarity, exactMatch, normalizeAnswer, scoreExample, sentenceBleu, tokenF1,
} from '../../src/metrics/index.ts';

/** chrF score (docs/metrics.md#chrf): average P and R over effective orders (n_hyp > 0 and n_ref > 0), then one F-beta with beta = 2. */
function chrfFromCounts(orders: Array<[nHyp: number, nRef: number, nMatch: number]>): number {
  let pSum = 0;
  let rSum = 0;
  let count = 0;
  for (const [nHyp, nRef, nMatch] of orders) {
    if (nHyp > 0 && nRef > 0) {
      pSum += nMatch / nHyp;
      rSum += nMatch / nRef;
      count++;
    }
  }
  const p = count ? pSum / count : 0;
  const r = count ? rSum / count : 0;
  return p + r === 0 ? 0 : 100 * ((5 * p * r) / (4 * p + r));
}

const BLEU_TOLERANCE = 1e-12; // docs/metrics.md#exactness: libm log/exp may differ in the last bit

describe('Latin with diacritics', () => {
  test('normalisation', () => {
    // lower; ¿ (U+00BF) and ? are in the deletion set; no article
    expect(normalizeAnswer('¿Dónde está São Tomé?')).toBe('dónde está são tomé');
    // the standalone Spanish preposition "a" is blanked like the English article (official quirk); "la" stays
    expect(normalizeAnswer('Café a la crème')).toBe('café la crème');
    // ’ (U+2019) and - are deleted, joining the words; Î lowers to î
    expect(normalizeAnswer('L’Île-de-France')).toBe('lîledefrance');
    // capital sharp s U+1E9E lowers to ß; NBSP splits like a space
    expect(normalizeAnswer('\u1e9e\u00a0São')).toBe('ß são');
  });
  test('EM, edit metrics and chrF on precomposed vs combining forms', () => {
    // 'strasse' != 'straße' (no case folding, only lower())
    expect(exactMatch(normalizeAnswer('STRASSE'), [normalizeAnswer('Straße')])).toBe(0.0);
    // c a f é vs c a f e U+0301: substitute é→e, insert U+0301
    expect(editDistance('café', 'cafe\u0301')).toBe(2);
    // longest block 'caf' (3); nothing matches after it: 2·3/(4+5)
    expect(editSimilarity('café', 'cafe\u0301')).toBe((2.0 * 3) / 9);
    // orders 1-4: ca f é/ca f e → (4,4,3) (3,3,2) (2,2,1) (1,1,0); orders 5-6 empty on both sides
    expect(chrfScore('café', ['cafe'])).toBe(chrfFromCounts([[4, 4, 3], [3, 3, 2], [2, 2, 1], [1, 1, 0], [0, 0, 0], [0, 0, 0]]));
  });
});

describe('Cyrillic', () => {
  test('normalisation', () => {
    // « » — . deleted, runs of spaces collapse, lower-cased
    expect(normalizeAnswer('«Москва» — столица России.')).toBe('москва столица россии');
    // Ё lowers to ё (U+0451), not to е
    expect(normalizeAnswer('ЁЛКА')).toBe('ёлка');
  });
  test('F1, EM, edit distance, BLEU', () => {
    // common {москва, столица} = 2; P = 2/2, R = 2/3; F = (2·P·R)/(P+R)
    expect(tokenF1('москва столица', ['столица россии москва'])).toBe((2 * (2 / 2) * (2 / 3)) / (2 / 2 + 2 / 3));
    // ё vs е: one substitution; different strings so EM 0
    expect(editDistance('ёлка', 'елка')).toBe(1);
    expect(exactMatch('ёлка', ['елка'])).toBe(0.0);
    // 13a: 'Москва , Россия .' (c=4), ref 'Москва' (r=1); correct [1,0,0,0], totals [4,3,2,1]; bp 1;
    // p = [100·1/4, 100/(2·3), 100/(4·2), 100/(8·1)]; score = exp(Σ log p / 4)
    const expected = Math.exp((Math.log(25) + Math.log(100 / 6) + Math.log(100 / 8) + Math.log(100 / 8)) / 4);
    expect(Math.abs(sentenceBleu('Москва, Россия.', ['Москва']) - expected)).toBeLessThanOrEqual(BLEU_TOLERANCE);
  });
});

describe('Greek', () => {
  test('final sigma and punctuation', () => {
    // Σ after a letter at a word end → ς (U+03C2)
    expect(normalizeAnswer('ΟΔΟΣ ΑΘΗΝΑΣ')).toBe('οδο\u03c2 αθηνα\u03c2');
    // word-initial Σ → σ (U+03C3); a lone Σ has no preceding letter → σ
    expect(normalizeAnswer('ΣΟΦΙΑ')).toBe('\u03c3οφια');
    expect(normalizeAnswer('Σ')).toBe('\u03c3');
    // the Greek question mark U+037E is not in the deletion set; the ASCII ';' is
    expect(normalizeAnswer('Ναι\u037e')).toBe('ναι\u037e');
    expect(normalizeAnswer('Ναι;')).toBe('ναι');
  });
  test('edit distance', () => {
    // ο vs ό: one substitution
    expect(editDistance('οδος', 'οδός')).toBe(1);
  });
});

describe('Arabic', () => {
  test('normalisation', () => {
    // Arabic comma U+060C and question mark U+061F are kept; lower() changes nothing
    expect(normalizeAnswer('القاهرة، مصر؟')).toBe('القاهرة، مصر؟');
    // Arabic-Indic digits are word characters, so 'a١٩٦٩' has no standalone 'a'; the final 'the' is blanked
    expect(normalizeAnswer('a١٩٦٩ the')).toBe('a١٩٦٩');
  });
  test('edit metrics and chrF', () => {
    // مصر → مصري: one insertion
    expect(editDistance('مصر', 'مصري')).toBe(1);
    // block of 3: 2·3/(3+4)
    expect(editSimilarity('مصر', 'مصري')).toBe((2.0 * 3) / 7);
    // hyp 3 code points, ref 4: (3,4,3) (2,3,2) (1,2,1); order 4: no hyp 4-gram (0,1,0); 5-6 empty
    expect(chrfScore('مصر', ['مصري'])).toBe(chrfFromCounts([[3, 4, 3], [2, 3, 2], [1, 2, 1], [0, 1, 0], [0, 0, 0], [0, 0, 0]]));
  });
});

describe('Hebrew', () => {
  test('normalisation', () => {
    // maqaf U+05BE is not in the deletion set
    expect(normalizeAnswer('ירושלים\u05beהעיר')).toBe('ירושלים\u05beהעיר');
    // a point (Mn) is not a word character, so 'a' before it is standalone and blanked
    expect(normalizeAnswer('a\u05b8')).toBe('\u05b8');
  });
  test('edit metrics with and without niqqud', () => {
    const pointed = 'ש\u05c1\u05b8לו\u05b9ם'; // 7 code points
    // שלום is a subsequence of the pointed form: 3 insertions
    expect(editDistance('שלום', pointed)).toBe(3);
    // blocks: 'לו' (2), then 'ש' before it and 'ם' after it: M = 4 → 2·4/(4+7)
    expect(editSimilarity('שלום', pointed)).toBe((2.0 * 4) / 11);
  });
});

describe('Devanagari', () => {
  test('normalisation', () => {
    // danda U+0964 is kept
    expect(normalizeAnswer('नई दिल्ली।')).toBe('नई दिल्ली।');
    // vowel sign U+093F (Mc) is no word character: 'the' before it is blanked
    expect(normalizeAnswer('the\u093f')).toBe('\u093f');
    // Devanagari digits are word characters: 'the१९४७' stays
    expect(normalizeAnswer('the१९४७')).toBe('the१९४७');
  });
  test('edit metrics', () => {
    // द ि ल ् ल ी vs द े ह ल ी: LCS द ल ी = 3, so at least 6−3 = 3; ि→े, ल→ह, delete ् achieves 3
    expect(editDistance('दिल्ली', 'देहली')).toBe(3);
    // longest block 'ली' (2); left part द ि ल ् vs द े ह gives 'द' (1); M = 3 → 2·3/(6+5)
    expect(editSimilarity('दिल्ली', 'देहली')).toBe((2.0 * 3) / 11);
  });
});

describe('Bengali', () => {
  test('normalisation keeps Bengali digits and the danda', () => {
    expect(normalizeAnswer('১৯৭১ সালে।')).toBe('১৯৭১ সালে।');
  });
  test('F1 and BLEU', () => {
    // same = 1; P = 1/2, R = 1/1
    expect(tokenF1('ঢাকা বাংলাদেশ', ['ঢাকা'])).toBe((2 * (1 / 2) * 1) / (1 / 2 + 1));
    // c=2, r=1, bp 1; p1 = 100·1/2; order 2 unmatched: f=2, p2 = 100/(2·1); N = 2
    const expected = Math.exp((Math.log(50) + Math.log(50)) / 2);
    expect(Math.abs(sentenceBleu('ঢাকা বাংলাদেশ', ['ঢাকা']) - expected)).toBeLessThanOrEqual(BLEU_TOLERANCE);
  });
});

describe('Thai', () => {
  test('chrF of a prefix', () => {
    // ก ร ุ ง เ ท พ (7, all distinct) is a prefix of the 13 code points: order n has 8−n hyp n-grams, all matched,
    // and 14−n reference n-grams
    const orders = [1, 2, 3, 4, 5, 6].map((n): [number, number, number] => [8 - n, 14 - n, 8 - n]);
    expect(chrfScore('กรุงเทพ', ['กรุงเทพมหานคร'])).toBe(chrfFromCounts(orders));
  });
  test('BLEU, edit distance, article boundary', () => {
    // one token each (no spaces), different: no unigram match
    expect(sentenceBleu('กรุงเทพ', ['กรุงเทพมหานคร'])).toBe(0.0);
    // six insertions
    expect(editDistance('กรุงเทพ', 'กรุงเทพมหานคร')).toBe(6);
    // U+0E38 (Mn) is no word character
    expect(normalizeAnswer('a\u0e38')).toBe('\u0e38');
  });
});

describe('Khmer', () => {
  const phnomPenh = '\u1797\u17d2\u1793\u17c6\u1796\u17c1\u1789'; // ភ្នំពេញ, 7 code points
  test('the khan is kept, so EM fails', () => {
    // khan U+17D4 is not in the deletion set
    expect(normalizeAnswer(`${phnomPenh}\u17d4`)).toBe(`${phnomPenh}\u17d4`);
    expect(exactMatch(`${phnomPenh}\u17d4`, [phnomPenh])).toBe(0.0);
    // one deletion; one block of 7: 2·7/(8+7)
    expect(editDistance(`${phnomPenh}\u17d4`, phnomPenh)).toBe(1);
    expect(editSimilarity(`${phnomPenh}\u17d4`, phnomPenh)).toBe((2.0 * 7) / 15);
  });
});

describe('CJK', () => {
  test('normalisation', () => {
    // full-width parentheses U+FF08/U+FF09 are deleted
    expect(normalizeAnswer('北京市（中国）')).toBe('北京市中国');
    // U+3000 is Python whitespace
    expect(normalizeAnswer('東京\u3000都')).toBe('東京 都');
    // 『 』 (U+300E/F) and … (U+2026) are deleted
    expect(normalizeAnswer('『三国志』…')).toBe('三国志');
  });
  test('astral characters count as one code point', () => {
    // 𠮷 (U+20BB7) vs 吉: one substitution (UTF-16 units would give 2)
    expect(editDistance('𠮷野家', '吉野家')).toBe(1);
    // block '野家' (2): 2·2/(3+3)
    expect(editSimilarity('𠮷野家', '吉野家')).toBe((2.0 * 2) / 6);
    // (3,3,2) (2,2,1) (1,1,0), orders 4-6 empty
    expect(chrfScore('𠮷野家', ['吉野家'])).toBe(chrfFromCounts([[3, 3, 2], [2, 2, 1], [1, 1, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]));
    // 😀😀 vs 😀😁: one substitution
    expect(editDistance('😀😀', '😀😁')).toBe(1);
  });
  test('BLEU treats an unspaced phrase as one token', () => {
    expect(sentenceBleu('東京都', ['東京'])).toBe(0.0);
  });
});

describe('Hangul', () => {
  test('chrF ignores whitespace, F1 does not', () => {
    // whitespace deleted before character n-grams: identical n-gram multisets
    expect(chrfScore('서울 특별시', ['서울특별시'])).toBe(100.0);
    // tokens {서울, 특별시} vs {서울특별시}: nothing in common → int 0
    expect(tokenF1('서울 특별시', ['서울특별시'])).toBe(0);
  });
  test('precomposed syllable vs conjoining jamo', () => {
    // 한 (1 code point) vs ᄒ ᅡ ᆫ (3): one substitution and two insertions
    expect(editDistance('한', '\u1112\u1161\u11ab')).toBe(3);
    // no common element: 2·0/4
    expect(editSimilarity('한', '\u1112\u1161\u11ab')).toBe(0.0);
    // Hangul letters are word characters: 'the서울' keeps its 'the'
    expect(normalizeAnswer('the서울 the 서울')).toBe('the서울 서울');
  });
});

describe('Vietnamese', () => {
  test('normalisation', () => {
    // Đ→đ, À→à, Ẵ→ẵ
    expect(normalizeAnswer('ĐÀ NẴNG')).toBe('đà nẵng');
    // comma deleted, standalone 'a' blanked
    expect(normalizeAnswer('Việt Nam, a country')).toBe('việt nam country');
  });
  test('combining marks are separate code points', () => {
    const decomposed = 'ha\u0300 no\u0323\u0302i'; // 9 code points
    // LCS h,space,n,i = 4, so at least 9−4 = 5; à→a + insert ̀, ộ→o + insert ̣ ̂ achieves 5
    expect(editDistance('hà nội', decomposed)).toBe(5);
    expect(exactMatch('hà nội', [decomposed])).toBe(0.0);
  });
  test('BLEU', () => {
    // c=4, r=2; correct [2,1,0,0], totals [4,3,2,1]; p = [50, 100/3, 100/(2·2), 100/(4·1)]
    const expected = Math.exp((Math.log(50) + Math.log(100 / 3) + Math.log(25) + Math.log(25)) / 4);
    expect(Math.abs(sentenceBleu('thủ đô hà nội', ['hà nội']) - expected)).toBeLessThanOrEqual(BLEU_TOLERANCE);
  });
});

describe('end to end (normalise, then all metrics)', () => {
  test('Italian answer with article and punctuation', () => {
    const { scores, prediction, targets } = scoreExample('Il Colosseo.', ['Colosseo', 'il Colosseo']);
    // 'il colosseo' equals the second normalised target
    expect(prediction).toBe('il colosseo');
    expect(targets).toEqual(['colosseo', 'il colosseo']);
    expect(scores.em).toBe(1.0);
    expect(scores.f1).toBe(1.0); // identical to target 2: P = R = 1 → 2·1·1/2
    expect(scores.edit_distance).toBe(0); // to target 2
    expect(scores.edit_distance_first).toBe(3); // 'il colosseo' → 'colosseo': delete 'i', 'l', ' '
    expect(scores.edit_similarity).toBe(1.0);
    expect(scores.chrf).toBe(100.0);
    // identical token lists of length 2: p1 = p2 = 100, N = 2 → exp((log 100 + log 100)/2)
    expect(Math.abs(scores.bleu - Math.exp((Math.log(100) + Math.log(100)) / 2))).toBeLessThanOrEqual(BLEU_TOLERANCE);
  });
});
