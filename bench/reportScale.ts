// The HTML report of a full MultiLoKo dev run (151 subsets × 250 = 37,750 items) in Chromium: the file's size, the time
// to open it (load and the item search ready) and to answer a search. The results are made by the run's own roll-up
// (officialLayout, lokalItems) from generated item records — a few-shot prompt as fed, a question, a raw output and an
// extracted answer per item — so no real data is involved.
// Usage: npx tsx bench/reportScale.ts [items per subset, default 250]
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LokalItemRecord, LokalSubsetAggregate } from '../src/benchmarks/multiloko/run/records.ts';
import { lokalItems, officialLayout } from '../src/benchmarks/multiloko/results/rollup.ts';
import type { RolledSubset } from '../src/benchmarks/multiloko/run/rolledSubset.ts';
import { renderHtmlReport } from '../src/report/index.ts';
import type { MultiLoKoResultsJson } from '../src/benchmarks/multiloko/resultsSchema.ts';
import { CHROMIUM_ARGS, findChromium } from '../test/report/browser.ts';
import { kalahi, multiloko, reportSections } from '../src/benchmarks/index.ts';

/** MultiLoKo's 31 languages: each local, and (but English) translated to and from English by humans and machines. */
const LANGUAGES = ['english', ...Array.from({ length: 30 }, (_, i) => `language${String(i + 1).padStart(2, '0')}`)];

export function subsetKeys(): string[] {
  const keys = [...LANGUAGES];
  for (const language of LANGUAGES.slice(1)) {
    for (const kind of ['human', 'machine']) keys.push(`${language}_translated_${kind}_english`, `english_translated_${kind}_${language}`);
  }
  return keys;
}

/** A deterministic pseudo-word of 3–10 letters. */
function word(seed: number): string {
  const letters = 'abcdefghiklmnoprstuvz';
  let out = '';
  let x = (seed * 2654435761) >>> 0;
  const length = 3 + (x % 8);
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += letters[x % letters.length];
  }
  return out;
}
const sentence = (seed: number, words: number) => Array.from({ length: words }, (_, i) => word(seed * 31 + i)).join(' ');

/** The results of a run of `perSubset` items in each of the 151 subsets, as multiloko.json holds them. */
export function scaleResults(perSubset = 250): MultiLoKoResultsJson {
  const subsets: RolledSubset[] = subsetKeys().map((key, s) => {
    // The base prompt's five demonstrations are the same for every item of a subset (about 1,300 characters).
    const demonstrations = Array.from({ length: 5 }, (_, d) => `Question: ${sentence(s * 100 + d, 18)}?\nAnswer: ${sentence(s * 100 + d + 50, 3)}\n\n`).join('');
    const records = Array.from({ length: perSubset }, (_, i): LokalItemRecord => {
      const seed = s * 1000 + i;
      const question = `${sentence(seed, 16)}?`;
      const target = sentence(seed + 7, 2);
      const right = i % 3 !== 0;
      const answer = right ? target : sentence(seed + 9, 2);
      return {
        subset: key, id: `${key}-${i}`, index: i, itemKey: `${key}/${i}`, question,
        rawPrediction: `${answer}\n\n${sentence(seed + 11, 12)}`, answer, prediction: answer,
        prompt: { mode: 'base', language: key, fewshot: 'dataset', shots: 5, extracted: true },
        targets: [target], scores: { em: right ? 1 : 0, f1: right ? 1 : 0.2, bleu: right ? 100 : 5, chrf: right ? 100 : 18.5, edit_distance: right ? 0 : 9, edit_similarity: right ? 1 : 0.31, edit_distance_first: right ? 0 : 9 },
        latencyMs: 0, cached: false, missing: false, verdict: '',
        modelInput: { text: `${demonstrations}Question: ${question}\nAnswer:` },
      } as LokalItemRecord;
    });
    return { aggregate: { key } as LokalSubsetAggregate, records };
  });
  const official = officialLayout(subsets)!;
  return { ...official, summary: { model: 'replay:runs/scale.jsonl', split: 'dev' }, lokal: { items: lokalItems(subsets) } } as unknown as MultiLoKoResultsJson;
}

export interface ReportScale {
  items: number;
  bytes: number;
  renderMs: number;
  /** From navigation to the item search's count shown (the script has indexed every row). */
  openMs: number;
  /** From typing a search term to the count of its matches shown. */
  searchMs: number;
  matches: number;
}

/** Writes the report of `perSubset` × 151 items into `dir` and measures it in Chromium; undefined (with why) without one. */
export async function measureReportScale(dir: string, perSubset = 250): Promise<ReportScale | { reason: string }> {
  const found = await findChromium();
  if ('reason' in found) return found;
  const results = scaleResults(perSubset);
  const started = performance.now();
  const html = await renderHtmlReport({ benchmarks: { multiloko: results } }, await reportSections([multiloko, kalahi]));
  const renderMs = performance.now() - started;
  const file = path.join(dir, 'report.html');
  writeFileSync(file, html);
  const items = subsetKeys().length * perSubset;
  const browser = await found.chromium.launch({ executablePath: found.executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const opened = performance.now();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 120_000 });
    await page.waitForFunction((n: number) => (globalThis as any).document.querySelector('#multiloko-items')?.getAttribute('data-shown') === String(n), items, { timeout: 120_000 });
    const openMs = performance.now() - opened;
    // A question's distinctive words: one item matches.
    const term = sentence(7 * 1000 + 123, 16).split(' ').slice(2, 4).join(' ');
    const search = page.locator('#multiloko-items input[type=search]');
    const typed = performance.now();
    await search.fill(term);
    await page.waitForFunction((n: number) => (globalThis as any).document.querySelector('#multiloko-items')?.getAttribute('data-shown') !== String(n), items, { timeout: 120_000, polling: 20 });
    const searchMs = performance.now() - typed;
    const matches = Number((await page.locator('#multiloko-items').getAttribute('data-shown')) ?? NaN);
    return { items, bytes: statSync(file).size, renderMs, openMs, searchMs, matches };
  } finally {
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const perSubset = Number(process.argv[2] ?? 250);
  const dir = mkdtempSync(path.join(tmpdir(), 'lokal-report-scale-'));
  try {
    const m = await measureReportScale(dir, perSubset);
    if ('reason' in m) console.log(`skipped: ${m.reason}`);
    else console.log(`${m.items.toLocaleString('en-US')} items: report ${(m.bytes / 1e6).toFixed(1)} MB, rendered in ${(m.renderMs / 1000).toFixed(1)} s; Chromium opens it in ${(m.openMs / 1000).toFixed(2)} s, answers a search in ${(m.searchMs / 1000).toFixed(2)} s (${m.matches} match)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
