// nltk 3.10.3 PorterStemmer in NLTK_EXTENSIONS mode (docs/metrics.md#meteor), on code points.

// NLTK_EXTENSIONS irregular forms (nltk/stem/porter.py): surface form -> stem.
const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['sky', 'sky'], ['skies', 'sky'], ['dying', 'die'], ['lying', 'lie'], ['tying', 'tie'], ['news', 'news'],
  ['innings', 'inning'], ['inning', 'inning'], ['outings', 'outing'], ['outing', 'outing'],
  ['cannings', 'canning'], ['canning', 'canning'], ['howe', 'howe'], ['proceed', 'proceed'],
  ['exceed', 'exceed'], ['succeed', 'succeed'],
]);

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

type Word = string[]; // code points

/** Consonant flags: a 'y' is a consonant at the start or after a vowel-acting letter (Porter's rule). */
function consonantFlags(w: Word): boolean[] {
  const flags: boolean[] = [];
  for (let i = 0; i < w.length; i++) {
    const ch = w[i]!;
    if (VOWELS.has(ch)) flags.push(false);
    else if (ch === 'y') flags.push(i === 0 ? true : !flags[i - 1]);
    else flags.push(true);
  }
  return flags;
}

function isConsonant(w: Word, i: number): boolean {
  return consonantFlags(w.slice(0, i + 1))[i]!;
}

/** m: the number of vowel→consonant transitions. */
function measure(stem: Word): number {
  const flags = consonantFlags(stem);
  let m = 0;
  for (let i = 1; i < flags.length; i++) if (!flags[i - 1] && flags[i]) m++;
  return m;
}

const positiveMeasure = (stem: Word): boolean => measure(stem) > 0;

function containsVowel(stem: Word): boolean {
  return consonantFlags(stem).some((c) => !c);
}

function endsDoubleConsonant(w: Word): boolean {
  return w.length >= 2 && w[w.length - 1] === w[w.length - 2] && isConsonant(w, w.length - 1);
}

function endsCVC(w: Word): boolean {
  const n = w.length;
  return (
    (n >= 3 &&
      isConsonant(w, n - 3) &&
      !isConsonant(w, n - 2) &&
      isConsonant(w, n - 1) &&
      !['w', 'x', 'y'].includes(w[n - 1]!)) ||
    (n === 2 && !isConsonant(w, 0) && isConsonant(w, 1))
  );
}

function endsWith(w: Word, suffix: string): boolean {
  const s = [...suffix];
  if (s.length > w.length) return false;
  for (let i = 0; i < s.length; i++) if (w[w.length - s.length + i] !== s[i]) return false;
  return true;
}

function withoutSuffix(w: Word, suffix: string): Word {
  const len = [...suffix].length;
  return len === 0 ? w.slice() : w.slice(0, w.length - len);
}

type Rule = [suffix: string, replacement: string, condition: ((stem: Word) => boolean) | null];

/** nltk's _apply_rule_list: the first rule whose suffix matches decides (its condition failing stops the list). */
function applyRules(w: Word, rules: Rule[]): Word {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === '*d' && endsDoubleConsonant(w)) {
      const stem = w.slice(0, w.length - 2);
      return condition === null || condition(stem) ? [...stem, ...replacement] : w;
    }
    // A literal '*d' ending also reaches this branch, as in nltk.
    if (endsWith(w, suffix)) {
      const stem = withoutSuffix(w, suffix);
      return condition === null || condition(stem) ? [...stem, ...replacement] : w;
    }
  }
  return w;
}

function step1a(w: Word): Word {
  if (endsWith(w, 'ies') && w.length === 4) return [...withoutSuffix(w, 'ies'), 'i', 'e'];
  return applyRules(w, [
    ['sses', 'ss', null],
    ['ies', 'i', null],
    ['ss', 'ss', null],
    ['s', '', null],
  ]);
}

function step1b(w: Word): Word {
  if (endsWith(w, 'ied')) {
    return w.length === 4 ? [...withoutSuffix(w, 'ied'), 'i', 'e'] : [...withoutSuffix(w, 'ied'), 'i'];
  }
  if (endsWith(w, 'eed')) {
    const stem = withoutSuffix(w, 'eed');
    return measure(stem) > 0 ? [...stem, 'e', 'e'] : w;
  }
  let intermediate: Word | null = null;
  for (const suffix of ['ed', 'ing']) {
    if (endsWith(w, suffix)) {
      const candidate = withoutSuffix(w, suffix);
      if (containsVowel(candidate)) {
        intermediate = candidate;
        break;
      }
    }
  }
  if (intermediate === null) return w;
  const stem1 = intermediate;
  const last = stem1[stem1.length - 1]!;
  return applyRules(stem1, [
    ['at', 'ate', null],
    ['bl', 'ble', null],
    ['iz', 'ize', null],
    ['*d', last, () => !['l', 's', 'z'].includes(last)],
    ['', 'e', (stem) => measure(stem) === 1 && endsCVC(stem)],
  ]);
}

function step1c(w: Word): Word {
  return applyRules(w, [['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(w: Word): Word {
  if (endsWith(w, 'alli') && positiveMeasure(withoutSuffix(w, 'alli'))) {
    return step2([...withoutSuffix(w, 'alli'), 'a', 'l']);
  }
  return applyRules(w, [
    ['ational', 'ate', positiveMeasure],
    ['tional', 'tion', positiveMeasure],
    ['enci', 'ence', positiveMeasure],
    ['anci', 'ance', positiveMeasure],
    ['izer', 'ize', positiveMeasure],
    ['bli', 'ble', positiveMeasure],
    ['alli', 'al', positiveMeasure],
    ['entli', 'ent', positiveMeasure],
    ['eli', 'e', positiveMeasure],
    ['ousli', 'ous', positiveMeasure],
    ['ization', 'ize', positiveMeasure],
    ['ation', 'ate', positiveMeasure],
    ['ator', 'ate', positiveMeasure],
    ['alism', 'al', positiveMeasure],
    ['iveness', 'ive', positiveMeasure],
    ['fulness', 'ful', positiveMeasure],
    ['ousness', 'ous', positiveMeasure],
    ['aliti', 'al', positiveMeasure],
    ['iviti', 'ive', positiveMeasure],
    ['biliti', 'ble', positiveMeasure],
    ['fulli', 'ful', positiveMeasure],
    // The 'l' of 'logi' stays with the stem for the measure, so 'geo'/'theo' behave like 'archaeo'.
    ['logi', 'log', () => positiveMeasure(w.slice(0, w.length - 3))],
  ]);
}

function step3(w: Word): Word {
  return applyRules(w, [
    ['icate', 'ic', positiveMeasure],
    ['ative', '', positiveMeasure],
    ['alize', 'al', positiveMeasure],
    ['iciti', 'ic', positiveMeasure],
    ['ical', 'ic', positiveMeasure],
    ['ful', '', positiveMeasure],
    ['ness', '', positiveMeasure],
  ]);
}

function step4(w: Word): Word {
  const gt1 = (stem: Word): boolean => measure(stem) > 1;
  return applyRules(w, [
    ['al', '', gt1],
    ['ance', '', gt1],
    ['ence', '', gt1],
    ['er', '', gt1],
    ['ic', '', gt1],
    ['able', '', gt1],
    ['ible', '', gt1],
    ['ant', '', gt1],
    ['ement', '', gt1],
    ['ment', '', gt1],
    ['ent', '', gt1],
    ['ion', '', (stem) => measure(stem) > 1 && (stem[stem.length - 1] === 's' || stem[stem.length - 1] === 't')],
    ['ou', '', gt1],
    ['ism', '', gt1],
    ['ate', '', gt1],
    ['iti', '', gt1],
    ['ous', '', gt1],
    ['ive', '', gt1],
    ['ize', '', gt1],
  ]);
}

function step5a(w: Word): Word {
  if (endsWith(w, 'e')) {
    const stem = withoutSuffix(w, 'e');
    if (measure(stem) > 1) return stem;
    if (measure(stem) === 1 && !endsCVC(stem)) return stem;
  }
  return w;
}

function step5b(w: Word): Word {
  return applyRules(w, [['ll', 'l', () => measure(w.slice(0, w.length - 1)) > 1]]);
}

/** nltk PorterStemmer().stem(word): lower-cases; words of ≤ 2 code points (before lower-casing) are returned lower-cased. */
export function porterStem(word: string): string {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR.get(lower);
  if (irregular !== undefined) return irregular;
  if ([...word].length <= 2) return lower;
  let w: Word = [...lower];
  w = step1a(w);
  w = step1b(w);
  w = step1c(w);
  w = step2(w);
  w = step3(w);
  w = step4(w);
  w = step5a(w);
  w = step5b(w);
  return w.join('');
}
