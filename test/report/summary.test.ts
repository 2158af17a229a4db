// The text of Vitest UI's summary annotation and its chart, on hand-made results whose figures are known by hand.
import { describe, expect, test } from 'vitest';
import { kalahiView } from '../../src/report/kalahi.ts';
import { kalahiSummaryText } from '../../src/benchmarks/kalahi/uiSummary.ts';
import { multilokoSummary, multilokoSummaryText } from '../../src/benchmarks/multiloko/uiSummary.ts';
import { multilokoView } from '../../src/report/multiloko.ts';
import { KALAHI_MC1, hostileKalahi } from './fixtures.ts';
import { wilsonClosedForm as wilson } from '../support/wilson.ts';


const items = (right: number, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i}`, { em: i < right ? 1 : 0, prediction: 'p', targets: ['t'] }]));

describe('summary annotation', () => {
  test('MultiLoKo: the leaderboard, each language with its Wilson interval, the gates', async () => {
    const results = { italian: items(3, 4), french: items(1, 4), summary: { model: 'm', gates: [{ gate: 'em>=0.9', figure: 'average EM', value: 0.5, op: '>=', bound: 0.9, pass: false, message: 'average EM = 0.5000, must be ≥ 0.9000' }] } };
    const text = multilokoSummaryText(multilokoView(results));
    const [itLow, itHigh] = wilson(3, 4);
    const [frLow, frHigh] = wilson(1, 4);
    expect(text.split('\n')).toEqual([
      'MultiLoKo · m',
      // mean 50, SD of (75, 25) is 35.355…, 2 SE = 2 · 35.355 / √2 = 50.0
      'Leaderboard (EM × 100 over 2 local languages): average EM 50.00 ± 50.0 · gap 50.00 · MTE – ± – · min 25.00 (french) · max 75.00 (italian).',
      // languages in the results file's order
      `EM × 100 per language [95% Wilson]: italian 75.00 [${(100 * itLow).toFixed(1)}, ${(100 * itHigh).toFixed(1)}] · french 25.00 [${(100 * frLow).toFixed(1)}, ${(100 * frHigh).toFixed(1)}].`,
      'Gates: 0/1 met · missed: average EM = 0.5000, must be ≥ 0.9000',
    ]);
    const summary = await multilokoSummary(results);
    expect(summary.text).toBe(text);
    expect(summary.attachment!.contentType).toBe('image/svg+xml');
    expect(summary.attachment!.body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(summary.attachment!.body.match(/<path/gu)!.length).toBeGreaterThan(2);
  });

  test('Kalahi: MC1 per variant with its Wilson interval', () => {
    const text = kalahiSummaryText(kalahiView(hostileKalahi()));
    const right = KALAHI_MC1.filter((v) => v === 1).length;
    const [low, high] = wilson(right, KALAHI_MC1.length);
    expect(text).toContain(`12 prompts [95% intervals]: MC1 ${(right / 12).toFixed(3)} [${low.toFixed(2)}, ${high.toFixed(2)}]`);
    expect(text).toContain('Gates: 0/1 met');
  });
});
