// chrF on runaway predictions: the streaming counter (memory bounded by the references) gives exactly the interned
// counter's statistics, a prediction over the cap is scored on its first 1,000,000 code points and flagged, and a
// 10-million-code-point prediction costs well under a second of counting instead of tens of seconds and gigabytes.
import { describe, expect, test } from 'vitest';
import { chrfNgrams, chrfStatistics } from '../../src/metrics/index.ts';
import {
  CHRF_MAX_HYPOTHESIS_CODE_POINTS,
  chrfCharStatistics,
  chrfCharStatisticsStreaming,
  chrfScore,
  chrfSentence,
  truncateCodePoints,
} from '../../src/metrics/chrfScore.ts';
import { scoreExample } from '../../src/metrics/scoreExample.ts';
import { scoreMultiLoKoPredictions } from '../../src/benchmarks/multiloko/metrics/score.ts';
import type { MultiLoKoDataset } from '../../src/benchmarks/multiloko/index.ts';
import { randomText, seeded } from './randomStrings.ts';

const random = seeded(4242);

/** A long random hypothesis over a small alphabet, so its n-grams repeat and match the references often. */
function longText(length: number, alphabet = 'abcdeé 😀ü\u3000'): string {
  const chars = Array.from(alphabet);
  let out = '';
  for (let i = 0; i < length; i++) out += chars[Math.floor(random() * chars.length)]!;
  return out;
}

describe('the streaming counter equals the interned one', () => {
  test('on random multilingual strings (short hypotheses)', () => {
    for (let i = 0; i < 400; i++) {
      const hyp = randomText(random, Math.floor(random() * 14));
      const refs = Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomText(random, Math.floor(random() * 14)));
      expect(chrfCharStatisticsStreaming(hyp, refs)).toEqual(chrfCharStatistics(hyp, refs));
    }
  });

  test('on long hypotheses (the path chrfCharStatistics takes for them) against substring counting', () => {
    for (const length of [40_000, 70_001]) {
      const hyp = longText(length);
      const refs = ['abcé', longText(30), 'ü😀 ab', ''];
      const h = chrfNgrams(hyp);
      expect(chrfCharStatistics(hyp, refs)).toEqual(refs.map((r) => chrfStatistics(h, chrfNgrams(r))));
    }
  });
});

describe('the length cap', () => {
  test('truncateCodePoints counts code points, never splitting a surrogate pair', () => {
    expect(truncateCodePoints('ab😀c', 3)).toBe('ab😀');
    expect(truncateCodePoints('ab😀c', 4)).toBeUndefined();
    expect(truncateCodePoints('😀😀😀', 2)).toBe('😀😀');
    expect(truncateCodePoints('abc', 10)).toBeUndefined();
  });

  test('a prediction over the cap is scored on its first 1,000,000 code points and flagged', () => {
    expect(CHRF_MAX_HYPOTHESIS_CODE_POINTS).toBe(1_000_000);
    const hyp = longText(CHRF_MAX_HYPOTHESIS_CODE_POINTS + 5);
    const refs = ['abc dé', 'ü😀'];
    const capped = chrfSentence(hyp, refs);
    expect(capped.truncated).toBe(true);
    const head = truncateCodePoints(hyp, CHRF_MAX_HYPOTHESIS_CODE_POINTS)!;
    expect(capped.score).toBe(chrfScore(head, refs, { maxHypothesisCodePoints: Infinity }));
    expect(chrfScore(hyp, refs)).toBe(capped.score);
    expect(chrfSentence(head, refs).truncated).toBe(false);
    expect(chrfSentence('Roma', ['Roma']).truncated).toBe(false);
    expect(chrfSentence('a'.repeat(20), ['a'], { maxHypothesisCodePoints: 10, wordOrder: 2 })).toMatchObject({ truncated: true });
  });

  test('a 10-million-code-point prediction costs little', { timeout: 60_000 }, () => {
    const units = new Uint16Array(10_000_000);
    for (let i = 0; i < units.length; i++) units[i] = 0x4e00 + Math.floor(random() * 20_000);
    const hyp = new TextDecoder('utf-16le').decode(units);
    const started = performance.now();
    chrfScore(hyp, ['罗马', '意大利首都']);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(chrfSentence(hyp, ['罗马']).truncated).toBe(true);
  });

  test('MultiLoKo scoring carries the flag only for a truncated prediction; normal records are unchanged', () => {
    const normal = scoreExample('Roma', ['Roma']);
    expect(normal).not.toHaveProperty('truncated');
    expect(normal.scores.chrf).toBe(100);
    const long = scoreExample('roma '.repeat(250_000), ['Roma']);
    expect(long.truncated).toBe(true);
    const dataset: MultiLoKoDataset = {
      split: 'dev',
      location: 'mem',
      fewshot: {},
      subsets: [{ key: 'italian', folder: 'italian', file: 'italian/dev.jsonl', sourceLanguage: 'italian', questionLanguage: 'italian', translated: false, items: [{ id: 'a', targets: ['Roma'] }, { id: 'b', targets: ['Po'] }] }],
    };
    const output = scoreMultiLoKoPredictions(dataset, [
      { language: 'italian', id: 'a', prediction: 'Roma', line: 1 },
      { language: 'italian', id: 'b', prediction: 'po '.repeat(400_000), line: 2 },
    ]);
    const [italian] = output.languages;
    expect(italian!.examples.map((e) => (e.record as { truncated?: true }).truncated)).toEqual([undefined, true]);
  });
});
