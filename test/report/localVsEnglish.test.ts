// A replay run's local-vs-English tables, in multiloko.json's summary and in the report: counts from a plain count
// over the two subsets' records, McNemar's p summed term by term, each count opening the list of its items; and
// f1_words beside F1 in the subset table. The dataset is the e2e one with each translation keeping its source's ids,
// as MultiLoKo's translated files do.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderHtmlReport } from '../../src/report/index.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { MULTILOKO_EVAL, datasetSpec, predictionsFor, runVitest, writeDataset, writeJsonl } from '../vitest/helpers.ts';
import { SECTIONS } from './sections.ts';
import { mcnemarByHand } from '../support/mcnemarByHand.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-vs-english-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the eval on 40 items per subset; translations take their source's ids, the machine one lacks its last item. */
async function pairedRun(): Promise<MultiLoKoResultsJson> {
  const spec = datasetSpec(40);
  const byKey = new Map(spec.map((s) => [s.key, s]));
  const source = (key: string) => (key.startsWith('english_') ? byKey.get('english')! : byKey.get(key.split('_translated_')[0]!)!);
  for (const s of spec) {
    if (!s.key.includes('_translated_')) continue;
    s.items = s.items.map((item, i) => ({ ...item, id: source(s.key).items[i]!.id }));
    if (s.key === 'italian_translated_machine_english') s.items.pop();
  }
  const location = writeDataset(dir, spec);
  const predictions = path.join(dir, 'predictions.jsonl');
  writeJsonl(predictions, predictionsFor(spec, { dropLast: true }));
  const output = path.join(dir, 'out');
  const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], { LOKAL_MULTILOKO: location, LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: output });
  if (run.code !== 0) throw new Error(`exit ${run.code}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`);
  return JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8')) as MultiLoKoResultsJson;
}

describe('local vs English in a replay run', () => {
  let results: MultiLoKoResultsJson;
  let html: string;
  beforeAll(async () => {
    results = await pairedRun();
    html = await renderHtmlReport({ benchmarks: { multiloko: results } }, SECTIONS);
  }, 120_000);

  /** id → EM of a subset's item records (the keys that hold an object). */
  const ems = (key: string) =>
    new Map(Object.entries(results[key] as Record<string, unknown>).filter(([, v]) => typeof v === 'object' && v !== null).map(([id, v]) => [id, (v as { em: number }).em]));

  const PAIRS = [
    { language: 'italian', direction: 'to_english', kind: 'human', english: 'italian_translated_human_english', local: 'italian' },
    { language: 'italian', direction: 'to_english', kind: 'machine', english: 'italian_translated_machine_english', local: 'italian' },
    { language: 'italian', direction: 'from_english', kind: 'human', english: 'english', local: 'english_translated_human_italian' },
  ] as const;

  test('the run has the pairs its subsets make, and no other; the machine translation lacks one item', () => {
    expect((results.summary!.local_vs_english as any).italian.to_english.machine.unpaired).toEqual({ english: 0, local: 1 });
    const block = results.summary!.local_vs_english as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(block)).toEqual(['italian']);
    expect(Object.keys(block.italian!).sort()).toEqual(['from_english', 'to_english']);
    expect(Object.keys(block.italian!.to_english!).sort()).toEqual(['human', 'machine']);
    expect(Object.keys(block.italian!.from_english!)).toEqual(['human']);
  });

  for (const p of PAIRS) {
    test(`${p.local} vs ${p.english}: counts, McNemar p and the items behind each count`, () => {
      const english = ems(p.english);
      const local = ems(p.local);
      const both = [...local.keys()].filter((id) => english.has(id));
      const ids = (e: number, l: number) => both.filter((id) => (english.get(id) === 1 ? 1 : 0) === e && (local.get(id) === 1 ? 1 : 0) === l);
      const counts = { both_right: ids(1, 1).length, english_only: ids(1, 0).length, local_only: ids(0, 1).length, both_wrong: ids(0, 0).length };
      expect(counts.english_only + counts.local_only).toBeGreaterThan(0);
      const block = (results.summary!.local_vs_english as any)[p.language][p.direction][p.kind];
      expect(block).toMatchObject({ english: p.english, local: p.local, paired: both.length, ...counts, english_only_ids: ids(1, 0), local_only_ids: ids(0, 1) });
      expect(block.unpaired).toEqual({ english: english.size - both.length, local: local.size - both.length });
      expect(block.mcnemar_p).toBeCloseTo(mcnemarByHand(counts.english_only, counts.local_only), 12);

      // The report: the same counts, each opening its items' ids.
      const key = `vs_english.${p.language}.${p.direction.replace('_', '-')}.${p.kind}`;
      expect(html).toContain(`data-key="${key}.paired">${both.length}</td>`);
      for (const [cell, list] of [['both_right', ids(1, 1)], ['english_only', ids(1, 0)], ['local_only', ids(0, 1)], ['both_wrong', ids(0, 0)]] as const) {
        const m = new RegExp(`data-key="${key}.${cell}" data-value="(\\d+)">([\\s\\S]*?)</td>`, 'u').exec(html);
        expect(m, cell).not.toBeNull();
        expect(Number(m![1])).toBe(list.length);
        const listed = [...m![2]!.matchAll(/<li><code>([^<]*)<\/code>([^<]*)<\/li>/gu)];
        expect(listed.map((x) => x[1]), cell).toEqual(list);
        // Where the languages disagree each id comes with its question as the language's subset asks it.
        const oneSided = cell === 'english_only' || cell === 'local_only';
        for (const [, , question] of listed) expect(question!.startsWith(' · '), cell).toBe(oneSided);
      }
      const pCell = new RegExp(`data-key="${key}.p" data-value="([^"]+)"`, 'u').exec(html)!;
      expect(Number(pCell[1])).toBeCloseTo(block.mcnemar_p, 14);
    });
  }

  test('f1_words: in every item record, its mean per subset, and beside F1 in the report', () => {
    for (const key of ['italian', 'english', 'italian_translated_human_english']) {
      const items = Object.values(results[key] as Record<string, unknown>).filter((v): v is { f1_words: number } => typeof v === 'object' && v !== null);
      expect(items.every((i) => typeof i.f1_words === 'number')).toBe(true);
      let sum = 0;
      for (const i of items) sum += i.f1_words;
      expect((results[key] as Record<string, number>).f1_words).toBe(sum / items.length);
      const subset = (results.summary!.subsets as Array<{ key: string; means: Record<string, number> }>).find((s) => s.key === key)!;
      expect(subset.means.f1_words).toBe(sum / items.length);
      expect(html).toMatch(new RegExp(`data-key="subset\\.f1_words\\.${key}" data-value="${sum / items.length}"`, 'u'));
    }
    expect(html).toContain('<th class="num">F1 words [95% quasi-Wilson]</th>');
  });
});
