// Bidirectional controls in the report and the step summary: a raw U+202E (RIGHT-TO-LEFT OVERRIDE) or any embedding,
// isolate or direction mark in a dataset or model string reorders what the reader sees ("Trojan Source",
// CVE-2021-42574). Both show it as its escape (`\u202e`), as the terminal does; the rest of the text stays as it is.
import { describe, expect, test } from 'vitest';
import { cleanText, escapeHtml } from '../../src/report/escape.ts';
import { renderHtmlReport } from '../../src/report/html.ts';
import { stepSummaryMarkdown } from '../../src/report/markdown.ts';
import { markdownCell } from '../../src/report/markdownCell.ts';
import type { KalahiResultsJson } from '../../src/benchmarks/kalahi/resultsSchema.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { SECTIONS } from './sections.ts';

const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const RAW_BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
// "Roma" shown as "amoR" by the override: what a reader would take for the model's answer.
const SPOOF = 'Ro\u202Ema';

function multiloko(): MultiLoKoResultsJson {
  const items: Record<string, unknown> = {};
  for (let i = 0; i < 4; i++) items[`q${i}${SPOOF}`] = { em: i % 2, targets: [`${SPOOF} ${i}`], prediction: `${SPOOF} pred`, question: `Capitale\u2067 ${i}?`, raw_prediction: `raw ${SPOOF}` };
  return { [`italian`]: { ...items, em: 0.5 }, summary: { model: `replay:${SPOOF}`, gates: [{ gate: `italian.em>=0.9${SPOOF}`, figure: SPOOF, value: 0.5, op: '>=', bound: 0.9, pass: false, message: `missed ${SPOOF}` }] } };
}

function kalahi(): KalahiResultsJson {
  const records = [0, 1].map((i) => ({
    suite: 'full', promptVariationId: `v${i}`, promptId: `p${i}`, category: `ethics${SPOOF}`, topic: SPOOF, prompt: `prompt ${SPOOF}`,
    mc: { normalised: { mc1: i, mc2: 0.5, mc2_normalised: 0.5, mc3: 0.5 }, preferred: { kind: 'relevant', index: 0, text: SPOOF, best: i === 1 }, references: [{ kind: 'relevant', index: 0, text: SPOOF, best: true, logprob: -1, score: 0.5 }] },
    generation: { response: `reply ${SPOOF}`, status: 'scored', metrics: {} },
  }));
  return { benchmark: 'kalahi', variants: { full: { model: `openai:${SPOOF}`, tasks: ['mc', 'generation'], records } } } as KalahiResultsJson;
}

describe('bidirectional controls', () => {
  test('escapeHtml, cleanText and markdownCell write each one as its escape and keep the text around it', () => {
    for (const c of BIDI) {
      const escape = `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      expect(escapeHtml(`a${c}b`)).toBe(`a${escape}b`);
      expect(cleanText(`a${c}b`)).toBe(`a${escape}b`);
      // The escape's backslash is escaped for Markdown, so GitHub shows `\u202e`.
      expect(markdownCell(`a${c}b`)).toBe(`a\\${escape}b`);
    }
    expect(escapeHtml('עברית · العربية · 日本語')).toBe('עברית · العربية · 日本語');
  });

  test('the report and the step summary hold no raw bidirectional control, and show where one was', async () => {
    const input = { benchmarks: { multiloko: multiloko(), kalahi: kalahi() }, baseline: { benchmarks: { multiloko: multiloko(), kalahi: kalahi() } } };
    const page = await renderHtmlReport(input, SECTIONS);
    expect(page).not.toMatch(RAW_BIDI);
    expect(page).toContain('Ro\\u202ema');
    // A category filter still finds its rows: the option's value and the rows' data hold the same escaped text.
    expect(page).toContain('<option value="ethicsRo\\u202ema">');
    expect(page).toContain('"category":"ethicsRo\\\\u202ema"');
    const summary = stepSummaryMarkdown(input, SECTIONS);
    expect(summary).not.toMatch(RAW_BIDI);
    expect(summary).toContain('Ro\\\\u202ema');
  });
});
