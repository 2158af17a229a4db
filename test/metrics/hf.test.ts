// Hugging Face evaluate's bleu, tokenizer_13a, chrf and rouge_score against the vectors of test/fixtures/metric-vectors.json.
import { describe, expect, test } from 'vitest';
import { chrfScore } from '../../src/metrics/index.ts';
import { BleuZeroDivisionError, hfBleu, hfTokenize13a } from '../../src/metrics/hfBleu.ts';
import { hfChrf } from '../../src/metrics/hfChrf.ts';
import { rougeScores, rougeScoresMulti, rougeTokenize } from '../../src/metrics/rouge.ts';
import { TOL_UNIT, vectors } from '../fixtures/vectors.ts';

describe('HF bleu / tokenizer_13a / chrf / rouge: metric-vectors.json', () => {
  for (const v of [...vectors('hf'), ...vectors('rouge_score')]) {
    if (v.metric === 'hf.meteor') continue; // meteor.test.ts
    test(`${v.metric} ${v.variant}: ${JSON.stringify(v.hypothesis)} ${v.note}`, () => {
      const inputs = v.inputs as { predictions: string[]; references: string[][] } | undefined;
      switch (v.metric) {
        case 'hf.bleu': {
          const run = (): number => (inputs ? hfBleu(inputs.predictions, inputs.references) : hfBleu([v.hypothesis], v.references)).bleu;
          if (v.expected === 'ZeroDivisionError') expect(run).toThrow(BleuZeroDivisionError);
          else expect(Math.abs(run() - (v.expected as number))).toBeLessThanOrEqual(TOL_UNIT);
          break;
        }
        case 'hf.tokenizer_13a':
          expect(hfTokenize13a(v.hypothesis).join(' ')).toBe(v.expected);
          break;
        case 'hf.chrf': {
          // bit-exact (docs/metrics.md#exactness); one pair through the shared chrfScore, the corpus vector through hfChrf
          const got = inputs ? hfChrf(inputs.predictions, inputs.references) : chrfScore(v.hypothesis, v.references);
          expect(got).toBe(v.expected);
          if (!inputs) expect(hfChrf([v.hypothesis], [v.references])).toBe(v.expected);
          break;
        }
        case 'hf.rouge': {
          const scores = rougeScores(v.hypothesis, v.references[0]!);
          expect(scores[v.variant as keyof typeof scores]).toBe(v.expected); // bit-exact
          break;
        }
        case 'rouge_score.tokenize':
          expect(rougeTokenize(v.hypothesis).join(' ')).toBe(v.expected);
          break;
        default:
          throw new Error(`unhandled vector ${v.metric}`);
      }
    });
  }
});

describe('HF chrF corpus helper', () => {
  test('multi-reference: the first reference with the strictly best score, either order (bit-exact)', () => {
    // same value as sacrebleu sentence_chrf with the better reference alone (test/fixtures/vectors.ts)
    expect(hfChrf(['The cat sat on the mat.'], [['A dog.', 'The cat is on the mat.']])).toBe(67.17273492330233);
    expect(hfChrf(['The cat sat on the mat.'], [['The cat is on the mat.', 'A dog.']])).toBe(67.17273492330233);
    expect(() => hfChrf(['a', 'b'], [['a'], ['b', 'c']])).toThrow(/same, non-zero number of references/);
  });
});

describe('HF BLEU: hand-derived', () => {
  test('Filipino with a hyphenated word and a comma', () => {
    // 13a keeps "Mag-aral" whole (hyphen not after a digit) and splits "," and the final ".":
    // hyp [Mag-aral ka ng mabuti , anak .] vs ref [Mag-aral ka nang mabuti , anak .], 7 tokens each
    // matches 6/7, 4/6, 2/5, 1/4; bp 1 → exp(Σ 0.25·log p) = 0.488923022434901 (Python fold, glibc)
    const r = hfBleu(['Mag-aral ka ng mabuti, anak.'], ['Mag-aral ka nang mabuti, anak.']);
    expect(r.precisions).toEqual([6 / 7, 4 / 6, 2 / 5, 1 / 4]);
    expect(r.translation_length).toBe(7);
    expect(r.reference_length).toBe(7);
    expect(Math.abs(r.bleu - 0.488923022434901)).toBeLessThanOrEqual(TOL_UNIT);
  });

  test('ñ is kept inside tokens; identical 4+ token texts score 1', () => {
    // [Ang niño ay nag-aaral nang mabuti .] = 7 tokens, all n-grams match → geo exp(0) = 1, bp 1
    expect(hfTokenize13a('Ang niño ay nag-aaral nang mabuti.')).toEqual(['Ang', 'niño', 'ay', 'nag-aaral', 'nang', 'mabuti', '.']);
    expect(hfBleu(['Ang niño ay nag-aaral nang mabuti.'], ['Ang niño ay nag-aaral nang mabuti.']).bleu).toBe(1);
  });

  test('digit hyphen, entities and <skipped> follow 13a; no rstrip', () => {
    // "2-3" → "2 - 3" (hyphen after digit); &amp; → & then split as punctuation
    expect(hfTokenize13a('Edad 2-3 &amp; 4')).toEqual(['Edad', '2', '-', '3', '&', '4']);
    // '<skipped>' disappears, so a reply of only that has no tokens → ZeroDivisionError
    expect(() => hfBleu(['<skipped>'], ['a b c d'])).toThrow(BleuZeroDivisionError);
    expect(hfTokenize13a('wakas-\n')).toEqual(['wakas']);
  });

  test('brevity penalty uses exp(1 − 1/ratio)', () => {
    // hyp 4 tokens all matching inside a 6-token ref: p = [1,1,1,1], ratio 4/6 → bp = exp(1 − 1.5) = exp(−0.5)
    const r = hfBleu(['a b c d'], ['a b c d e f']);
    expect(r.length_ratio).toBe(4 / 6);
    expect(Math.abs(r.bleu - 0.6065306597126334)).toBeLessThanOrEqual(TOL_UNIT); // Python math.exp(-0.5)
  });
});

describe('ROUGE: hand-derived', () => {
  test('non-ASCII letters split words; hyphens separate', () => {
    // "Mag-aral si Niño!" → lower, non-[a-z0-9] runs → space: mag aral si ni o
    expect(rougeTokenize('Mag-aral si Niño!')).toEqual(['mag', 'aral', 'si', 'ni', 'o']);
  });

  test('rouge1 F from counts', () => {
    // p = [ang bata ay masaya], r = [ang batang masaya]: overlap 2; P 2/4, R 2/3 → F = 0.5714285714285715
    expect(rougeScores('Ang bata ay masaya', 'ang batang masaya').rouge1).toBe(0.5714285714285715);
  });

  test('rougeLsum: the LCS index-set tie-break decides hits', () => {
    // ref lines [a b], [a]; pred line [b a]. LCS([a b],[b a]) backtracks to index {0} ('a') since T[2][1] = T[1][2];
    // hit 'a' (pred a: 1→0); line [a] then finds no pred 'a' left → hits 1; P 1/2, R 1/3 → F = 0.4
    expect(rougeScores('b a', 'a b\na').rougeLsum).toBe(0.4);
    // plain rougeL ignores lines: LCS([a b a],[b a]) = 2; P 2/2, R 2/3 → F = 0.8
    expect(rougeScores('b a', 'a b\na').rougeL).toBe(0.8);
  });

  test('multi-reference: per type the best F', () => {
    // rouge1: 'ang aso' vs 'ang pusa' 0.5, vs 'ang aso' 1.0 → 1.0
    expect(rougeScoresMulti('ang aso', ['ang pusa', 'ang aso']).rouge1).toBe(1);
  });
});
