// MultiLoKo headline figures: average ± 2 SE across languages, gap, min, max, mother tongue effect, locality effect.
//
// Definitions (facebookresearch/multiloko README, "Leaderboard" and "Metric cheat sheet"):
// - Average EM: mean across languages of the per-language EM; "± indicates 2 times standard error across languages".
// - Gap: best minus worst language. Min / Max: worst / best language.
// - Mother tongue effect (MTE): EM on locally sourced data in the local language − EM on the same data translated
//   into English, per language; averaged ± 2 SE.
// - Locality effect (LE): EM on locally sourced data − EM on the English-sourced data translated into that language.
// Both exist for human and for machine translations.
//
// Standard error: sample standard deviation (Bessel, n − 1) / √n — the standard error of a mean estimated from n
// languages (scipy.stats.sem's default). With 31 languages it is √(31/30) ≈ 1.017 times the n-denominator version.
//
// Pooling: the official eval.py computes average_/min_/max_/gap_<metric> over every language key in the prediction
// file, so a file that also holds translated subsets (`italian_translated_human_english`, ...) pools them into the
// "average across languages". Here the local average uses only the local keys; translated subsets enter only MTE
// and LE.
import { mean, standardError } from '../../../core/stats.ts';
import { parseSubsetKey } from '../data/subsetKey.ts';

/** A mean across languages with its spread. Values keep the caller's scale (eval.py's 0–1, or ×100). */
interface AverageWithSE {
  /** Number of values (languages). */
  n: number;
  mean: number;
  /** Sample standard deviation (n − 1 denominator) / √n; null when n < 2. */
  standardError: number | null;
  /** 2 × standardError, the README's "±"; null when n < 2. */
  twoSE: number | null;
  min: number;
  max: number;
  /** max − min. */
  gap: number;
}

/** AverageWithSE over named languages, with the languages at the extremes (the first one on ties). */
interface LanguageAverage extends AverageWithSE {
  minLanguage: string;
  maxLanguage: string;
}

/**
 * Mean ± 2 standard errors, min, max and gap of `values`. The mean is a left-to-right sum divided by n (the
 * same as Python 3.11's builtin `sum(...) / len(...)` in eval.py, so it equals the official average_em on the
 * same values). Throws on an empty list or a non-finite value.
 */
export function averageWithSE(values: readonly number[]): AverageWithSE {
  const n = values.length;
  if (n === 0) throw new Error('averageWithSE: no values (need at least one language)');
  values.forEach((value, index) => {
    if (!Number.isFinite(value)) throw new Error(`averageWithSE: value ${index} is not a finite number (${String(value)})`);
  });
  const average = mean(values);
  let min = values[0]!;
  let max = values[0]!;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  const se = standardError(values);
  return { n, mean: average, standardError: se, twoSE: se === null ? null : 2 * se, min, max, gap: max - min };
}

/** averageWithSE over a language → value record, in the record's key order, naming the worst and best language. */
export function averageOverLanguages(perLanguage: Readonly<Record<string, number>>): LanguageAverage {
  const entries = Object.entries(perLanguage);
  if (entries.length === 0) throw new Error('averageOverLanguages: no languages');
  const average = averageWithSE(entries.map(([, value]) => value));
  const minLanguage = entries.find(([, value]) => value === average.min)![0];
  const maxLanguage = entries.find(([, value]) => value === average.max)![0];
  return { ...average, minLanguage, maxLanguage };
}

/** A per-language difference and its average; `skipped` lists languages present on one side only. */
export interface LanguageEffect {
  /** Difference per language, in the order of the `local` record. */
  perLanguage: Record<string, number>;
  /** Average ± 2 SE of perLanguage; null when no language has both sides. */
  average: LanguageAverage | null;
  /** Languages (other than English, which by design has no counterpart) found on one side only. */
  skipped: string[];
}

/**
 * Mother tongue effect per language: local[lang] − translatedToEnglish[lang], where translatedToEnglish[lang]
 * is the EM on `lang`'s locally sourced questions translated into English (key `<lang>_translated_<human|machine>_english`).
 * Call once with the human and once with the machine translations. Positive: the model knows it better when asked
 * in the language the knowledge is local to.
 */
export function motherTongueEffect(perLanguageEM: {
  local: Readonly<Record<string, number>>;
  translatedToEnglish: Readonly<Record<string, number>>;
}): LanguageEffect {
  return pairedDifference(perLanguageEM.local, perLanguageEM.translatedToEnglish);
}

/**
 * Locality effect per language: local[lang] − translatedFromEnglish[lang], where translatedFromEnglish[lang]
 * is the EM on the English-sourced questions translated into `lang` (key `english_translated_<human|machine>_<lang>`).
 * Positive: English-sourced translated data underestimates the model on that language.
 */
export function localityEffect(perLanguageEM: {
  local: Readonly<Record<string, number>>;
  translatedFromEnglish: Readonly<Record<string, number>>;
}): LanguageEffect {
  return pairedDifference(perLanguageEM.local, perLanguageEM.translatedFromEnglish);
}

function pairedDifference(local: Readonly<Record<string, number>>, other: Readonly<Record<string, number>>): LanguageEffect {
  const perLanguage: Record<string, number> = {};
  const skipped: string[] = [];
  for (const [language, value] of Object.entries(local)) {
    if (Object.hasOwn(other, language)) perLanguage[language] = value - other[language]!;
    else if (language !== 'english') skipped.push(language);
  }
  for (const language of Object.keys(other)) {
    if (!Object.hasOwn(local, language) && language !== 'english') skipped.push(language);
  }
  const average = Object.keys(perLanguage).length === 0 ? null : averageOverLanguages(perLanguage);
  return { perLanguage, average, skipped };
}

/** The leaderboard figures of one run. */
interface MultilokoHeadline {
  /** Average EM ± 2 SE, gap, min, max over the local subsets only; null when there is none. */
  local: LanguageAverage | null;
  motherTongueEffect: { human: LanguageEffect; machine: LanguageEffect };
  localityEffect: { human: LanguageEffect; machine: LanguageEffect };
  /** Translated keys that fit neither effect (e.g. `italian_translated_human_german`); never pooled anywhere. */
  unusedKeys: string[];
}

/**
 * Headline figures from per-subset values keyed like eval.py's results (`{ italian: 0.32,
 * italian_translated_human_english: 0.28, english_translated_human_italian: 0.30, ... }`), usually EM.
 * Local subsets form the average; `<lang>_translated_<t>_english` feed MTE and `english_translated_<t>_<lang>`
 * feed LE, for t = human and machine.
 */
export function multilokoHeadline(valueByKey: Readonly<Record<string, number>>): MultilokoHeadline {
  const local: Record<string, number> = {};
  const toEnglish = { human: {} as Record<string, number>, machine: {} as Record<string, number> };
  const fromEnglish = { human: {} as Record<string, number>, machine: {} as Record<string, number> };
  const unusedKeys: string[] = [];
  for (const [key, value] of Object.entries(valueByKey)) {
    const subset = parseSubsetKey(key);
    if (subset.kind === 'local') local[subset.language] = value;
    else if (subset.questionLanguage === 'english' && subset.sourceLanguage !== 'english') {
      toEnglish[subset.translation][subset.sourceLanguage] = value;
    } else if (subset.sourceLanguage === 'english' && subset.questionLanguage !== 'english') {
      fromEnglish[subset.translation][subset.questionLanguage] = value;
    } else unusedKeys.push(key);
  }
  return {
    local: Object.keys(local).length === 0 ? null : averageOverLanguages(local),
    motherTongueEffect: {
      human: motherTongueEffect({ local, translatedToEnglish: toEnglish.human }),
      machine: motherTongueEffect({ local, translatedToEnglish: toEnglish.machine }),
    },
    localityEffect: {
      human: localityEffect({ local, translatedFromEnglish: fromEnglish.human }),
      machine: localityEffect({ local, translatedFromEnglish: fromEnglish.machine }),
    },
    unusedKeys,
  };
}
