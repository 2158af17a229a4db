// Headline figures on a small fixture whose expected values are computed by hand in the comments.
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import {
  averageOverLanguages,
  averageWithSE,
  localityEffect,
  motherTongueEffect,
  multilokoHeadline,
} from '../../src/benchmarks/multiloko/metrics/multilokoEffects.ts';

// EM per eval.py key, in percent (the functions keep the caller's scale).
const EM: Record<string, number> = {
  english: 60,
  italian: 40,
  german: 30,
  japanese: 20,
  italian_translated_human_english: 30,
  german_translated_human_english: 35,
  japanese_translated_human_english: 10,
  italian_translated_machine_english: 25,
  german_translated_machine_english: 30,
  japanese_translated_machine_english: 8,
  english_translated_human_italian: 45,
  english_translated_human_german: 50,
  english_translated_human_japanese: 30,
  english_translated_machine_italian: 40,
  english_translated_machine_german: 45,
  english_translated_machine_japanese: 20,
};

describe('averageWithSE', () => {
  test('local EM of the fixture: 60, 40, 30, 20', () => {
    // mean = 150 / 4 = 37.5; deviations 22.5, 2.5, −7.5, −17.5; squares 506.25 + 6.25 + 56.25 + 306.25 = 875;
    // sample variance 875 / 3; SE = √(875/3) / √4 = √291.666… / 2 = 8.539125638299665; 2 SE = √(875/3) = 17.07825127659933.
    const a = averageWithSE([60, 40, 30, 20]);
    expect(a.n).toBe(4);
    expect(a.mean).toBe(37.5);
    expect(a.standardError).toBeCloseTo(8.539125638299665, 12);
    expect(a.twoSE).toBeCloseTo(17.07825127659933, 12);
    expect([a.min, a.max, a.gap]).toEqual([20, 60, 40]);
  });
  test('one language: no standard error; none or a non-finite value: an error', () => {
    expect(averageWithSE([0.25])).toEqual({ n: 1, mean: 0.25, standardError: null, twoSE: null, min: 0.25, max: 0.25, gap: 0 });
    expect(() => averageWithSE([])).toThrow(/no values/);
    expect(() => averageWithSE([0.1, Number.NaN])).toThrow(/value 1 is not a finite number/);
  });
  const python = spawnSync('python3', ['-c', 'import statistics'], { encoding: 'utf8' });
  test.skipIf(python.status !== 0)('SE = statistics.stdev / √n (Python stdlib, second method) on 31 values', () => {
    const values = Array.from({ length: 31 }, (_, i) => ((i * 37) % 101) / 250);
    const run = spawnSync('python3', ['-c', 'import json,math,statistics,sys; v=json.load(sys.stdin); print(json.dumps([statistics.stdev(v)/math.sqrt(len(v)), sum(v)/len(v)]))'], {
      input: JSON.stringify(values),
      encoding: 'utf8',
    });
    const [se, mean] = JSON.parse(run.stdout) as [number, number];
    const a = averageWithSE(values);
    expect(a.mean).toBe(mean); // same left-to-right sum as Python 3.11's builtin sum
    expect(a.standardError).toBeCloseTo(se, 14);
  });
});

describe('averageOverLanguages', () => {
  test('names the worst and best language (first on ties)', () => {
    const a = averageOverLanguages({ italian: 10, german: -5, japanese: 10 });
    expect([a.minLanguage, a.maxLanguage]).toEqual(['german', 'italian']);
  });
});

describe('mother tongue effect', () => {
  const local = { english: 60, italian: 40, german: 30, japanese: 20 };
  test('human translations', () => {
    // italian 40 − 30 = 10, german 30 − 35 = −5, japanese 20 − 10 = 10; mean 15/3 = 5;
    // deviations 5, −10, 5 → squares 150; variance 150/2 = 75; SE = √(75/3) = √25 = 5; 2 SE = 10.
    const e = motherTongueEffect({
      local,
      translatedToEnglish: { italian: 30, german: 35, japanese: 10 },
    });
    expect(e.perLanguage).toEqual({ italian: 10, german: -5, japanese: 10 });
    expect(e.average!.mean).toBe(5);
    expect(e.average!.standardError).toBeCloseTo(5, 12);
    expect(e.average!.twoSE).toBeCloseTo(10, 12);
    expect([e.average!.min, e.average!.max, e.average!.gap]).toEqual([-5, 10, 15]);
    expect(e.skipped).toEqual([]); // English has no translation into English by design
  });
  test('machine translations', () => {
    // italian 40 − 25 = 15, german 30 − 30 = 0, japanese 20 − 8 = 12; mean 27/3 = 9;
    // deviations 6, −9, 3 → squares 36 + 81 + 9 = 126; variance 63; SE = √(63/3) = √21 = 4.58257569495584; 2 SE = 9.16515138991168.
    const e = motherTongueEffect({ local, translatedToEnglish: { italian: 25, german: 30, japanese: 8 } });
    expect(e.perLanguage).toEqual({ italian: 15, german: 0, japanese: 12 });
    expect(e.average!.mean).toBe(9);
    expect(e.average!.standardError).toBeCloseTo(4.58257569495584, 12);
    expect(e.average!.twoSE).toBeCloseTo(9.16515138991168, 12);
  });
  test('languages on one side only are skipped and listed', () => {
    const e = motherTongueEffect({ local: { italian: 40, french: 50 }, translatedToEnglish: { italian: 30, thai: 5 } });
    expect(e.perLanguage).toEqual({ italian: 10 });
    expect(e.skipped).toEqual(['french', 'thai']);
    expect(e.average!.twoSE).toBeNull();
    expect(motherTongueEffect({ local: { english: 60 }, translatedToEnglish: {} }).average).toBeNull();
  });
});

describe('locality effect', () => {
  test('human and machine translations of the English-sourced questions', () => {
    const local = { english: 60, italian: 40, german: 30, japanese: 20 };
    // human: italian 40 − 45 = −5, german 30 − 50 = −20, japanese 20 − 30 = −10; mean −35/3 = −11.666…;
    // Σx² − n·mean² = 525 − 1225/3 = 350/3; variance 175/3; SE = √(175/9) = √175 / 3 = 4.409585518440984.
    const human = localityEffect({ local, translatedFromEnglish: { italian: 45, german: 50, japanese: 30 } });
    expect(human.perLanguage).toEqual({ italian: -5, german: -20, japanese: -10 });
    expect(human.average!.mean).toBeCloseTo(-35 / 3, 12);
    expect(human.average!.standardError).toBeCloseTo(4.409585518440984, 12);
    expect(human.average!.twoSE).toBeCloseTo(8.819171036881969, 12);
    // machine: italian 0, german −15, japanese 0; mean −5; deviations 5, −10, 5 → 150; variance 75; SE 5.
    const machine = localityEffect({ local, translatedFromEnglish: { italian: 40, german: 45, japanese: 20 } });
    expect(machine.perLanguage).toEqual({ italian: 0, german: -15, japanese: 0 });
    expect(machine.average!.mean).toBe(-5);
    expect(machine.average!.standardError).toBeCloseTo(5, 12);
  });
});

describe('multilokoHeadline from eval.py keys', () => {
  test('routes every key to its figure; translated subsets never enter the local average', () => {
    const h = multilokoHeadline({ ...EM, italian_translated_human_german: 12 });
    // Local: the four local keys only, 150/4 = 37.5 (eval.py's average_em pools all 17 keys: (150 + 75 + 63 + 125 + 105 + 12)/17 = 530/17 ≈ 31.18).
    expect(h.local!.n).toBe(4);
    expect(h.local!.mean).toBe(37.5);
    expect([h.local!.minLanguage, h.local!.maxLanguage, h.local!.gap]).toEqual(['japanese', 'english', 40]);
    expect(h.motherTongueEffect.human.perLanguage).toEqual({ italian: 10, german: -5, japanese: 10 });
    expect(h.motherTongueEffect.machine.perLanguage).toEqual({ italian: 15, german: 0, japanese: 12 });
    expect(h.localityEffect.human.perLanguage).toEqual({ italian: -5, german: -20, japanese: -10 });
    expect(h.localityEffect.machine.perLanguage).toEqual({ italian: 0, german: -15, japanese: 0 });
    expect(h.motherTongueEffect.human.average!.twoSE).toBeCloseTo(10, 12);
    expect(h.unusedKeys).toEqual(['italian_translated_human_german']);
  });
  test('a run with only the Italian local subset', () => {
    const h = multilokoHeadline({ italian: 0.32 });
    expect(h.local!.mean).toBe(0.32);
    expect(h.local!.twoSE).toBeNull();
    expect(h.motherTongueEffect.human).toEqual({ perLanguage: {}, average: null, skipped: ['italian'] });
  });
});
