// The text of Vitest UI's summary annotation and its chart, on hand-made results whose figures are known by hand.
import { describe, expect, test } from 'vitest';
import { kalahiView } from '../../src/benchmarks/kalahi/results/section/reportView.ts';
import { kalahiStepSummary } from '../../src/benchmarks/kalahi/results/section/reportMarkdown.ts';
import { kalahiSummaryText } from '../../src/benchmarks/kalahi/results/section/uiSummary.ts';
import { multilokoSummary, multilokoSummaryText } from '../../src/benchmarks/multiloko/results/section/uiSummary.ts';
import { multilokoView } from '../../src/benchmarks/multiloko/results/section/reportView.ts';
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

  test('MultiLoKo: F1 words beside F1 per language, and the local-vs-English rows with McNemar p as the terminal prints it', async () => {
    const scored = (em: number[], f1: number[], words: number[]) => Object.fromEntries(em.map((e, i) => [`q${i}`, { em: e, f1: f1[i], f1_words: words[i], prediction: 'p', targets: ['t'] }]));
    const pair = (counts: [number, number, number, number], p: number) => ({
      english: 'e', local: 'l', paired: counts.reduce((a, b) => a + b), both_right: counts[0], english_only: counts[1], local_only: counts[2], both_wrong: counts[3],
      mcnemar_p: p, english_only_ids: [], local_only_ids: [], unpaired: { english: 0, local: 0 },
    });
    // McNemar by hand: 12 against 2 → 2 · (1 + 14 + 91) / 2^14 = 0.01294…; 30 against 0 → 2 / 2^30 = 1.86…e-9
    const vsEnglish = {
      italian: { to_english: { human: pair([20, 12, 2, 6], 212 / 16384), machine: pair([1, 1, 1, 1], 1) } },
      french: { from_english: { machine: pair([5, 30, 0, 5], 2 / 2 ** 30) } },
      german: { to_english: { human: { paired: 3 } } },
    };
    const results = {
      italian: scored([1, 1, 0, 0], [1, 0.5, 0, 0.25], [1, 1, 0.5, 0]),
      french: scored([0, 0, 0, 1], [0, 0, 0, 1], [0, 0.5, 0, 1]),
      summary: { model: 'm', gates: [], local_vs_english: vsEnglish },
    };
    const lines = (await multilokoSummary(results as never)).text.split('\n');
    // italian F1 (1 + 0.5 + 0 + 0.25) / 4 = 43.75, words (1 + 1 + 0.5) / 4 = 62.50; french 1/4 = 25.00 and 1.5/4 = 37.50
    expect(lines).toContain('F1 / F1 words × 100 per language: italian 43.75 / 62.50 · french 25.00 / 37.50.');
    // the human translation of the language's own questions first; german's pair lacks counts: no row
    expect(lines).toContain(
      'Local vs English (EM, questions paired by id: right in both / only English / only local / neither, McNemar p): italian (own, human) 20/12/2/6, p 0.0129 · french (English, machine) 5/30/0/5, p 1.9e-9.',
    );
    expect(lines.at(-1)).toBe('Gates: none set.');
    // older files: no f1_words, no pairs, no lines
    const older = multilokoSummaryText(multilokoView({ italian: items(3, 4), summary: { model: 'm' } }), {});
    expect(older).not.toMatch(/F1 words|Local vs English/u);
  });

  test('Kalahi: MC1 per variant with its Wilson interval', () => {
    const text = kalahiSummaryText(kalahiView(hostileKalahi()));
    const right = KALAHI_MC1.filter((v) => v === 1).length;
    const [low, high] = wilson(right, KALAHI_MC1.length);
    expect(text).toContain(`12 prompts [95% intervals]: MC1 ${(right / 12).toFixed(3)} [${low.toFixed(2)}, ${high.toFixed(2)}]`);
    expect(text).toContain('Gates: 0/1 met');
  });

  test('Kalahi step summary: Prompts and every figure column right-aligned, Variant and Model not', () => {
    const lines = kalahiStepSummary(hostileKalahi(), undefined, { confidence: 0.95, alpha: 0.05 });
    const header = lines.find((l) => l.startsWith('| Variant |'))!;
    const cells = header.split(' | ').length;
    // Variant, Model, then Prompts and the figures: one '---:' for each of those.
    const separator = lines[lines.indexOf(header) + 1]!;
    expect(separator).toBe(`| --- | --- | ${Array.from({ length: cells - 2 }, () => '---:').join(' | ')} |`);
  });
});
