// The report shows the run's fingerprint and, against a baseline, each field that differs: score-changing ones marked
// as refused, the model as what a comparison is for.
import { describe, expect, test } from 'vitest';
import type { Fingerprint } from '../../src/core/fingerprint.ts';
import { renderHtmlReport } from '../../src/report/html.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { SECTIONS } from './sections.ts';

function run(model: string, over: Partial<Fingerprint>): MultiLoKoResultsJson {
  const fingerprint: Fingerprint = {
    version: 1, benchmark: 'multiloko', data: { italian: 'a'.repeat(64) }, prompt: 'base', template: { italian: 'c'.repeat(64) }, shots: 5, fewshot: 'official',
    extraction: true, scorer: 'v1', decoding: { max_new_tokens: 64, temperature: 0, stops: 'question token, blank line' }, protocol: null, model: { provider: 'transformers', model }, ...over,
  };
  const items = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`q${i}`, { em: i % 2, prediction: 'p', targets: ['t'] }]));
  return { italian: { ...items, em: 0.5 }, summary: { model, fingerprint } } as MultiLoKoResultsJson;
}

describe('fingerprint in the report', () => {
  test('every field is shown; against a baseline the differing fields are listed, the score-changing ones marked', async () => {
    const page = await renderHtmlReport({ benchmarks: { multiloko: run('m2', { prompt: 'chat' }) }, baseline: { benchmarks: { multiloko: run('m1', {}) } } }, SECTIONS);
    const block = page.slice(page.indexOf('id="multiloko-fingerprint"'), page.indexOf('</details>', page.indexOf('id="multiloko-fingerprint"')));
    // Every field of the fingerprint but version and benchmark (the section's own name), in the order written here,
    // as typed by hand from the run above: a field left out, added or shown otherwise fails.
    const rows = [...block.matchAll(/<tr data-field="([^"]+)"><th>\1<\/th><td><code>(.*?)<\/code><\/td><\/tr>/gu)].map((r) => [r[1], r[2]]);
    expect(rows).toEqual([
      // A 64-character hash is cut at FIELD_PREVIEW_CHARACTERS (60) with its length.
      ['data', `italian: ${'a'.repeat(60)}… (64 characters)`],
      ['prompt', 'chat'],
      ['template', `italian: ${'c'.repeat(60)}… (64 characters)`],
      ['shots', '5'],
      ['fewshot', 'official'],
      ['extraction', 'true'],
      ['scorer', 'v1'],
      ['decoding', 'max_new_tokens: 64 · temperature: 0 · stops: question token, blank line'],
      ['protocol', '– (not known for this run)'],
      ['model', 'provider: transformers · model: m2'],
    ]);
    expect(block.match(/<tr /gu)).toHaveLength(rows.length);
    expect(block).toContain('2 differences from the baseline');
    expect(block).toMatch(/<li class="fail" data-field="prompt"><code>prompt base→chat<\/code> \(changes the scores/u);
    expect(block).toMatch(/<li class="" data-field="model"><code>model\.model m1→m2<\/code> \(the model/u);
  });

  test('a results file without one says so', async () => {
    const page = await renderHtmlReport({ benchmarks: { multiloko: { italian: { q0: { em: 1, prediction: 'p', targets: ['p'] }, em: 1 } } as MultiLoKoResultsJson } }, SECTIONS);
    expect(page).toContain('carries no fingerprint');
  });
});
