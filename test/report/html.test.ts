// The HTML report as a string: escaping of hostile dataset and model strings, the sections, the numbers (checked
// against closed forms and table values computed here, not by the report's code), the baseline comparison, and that
// nothing in it loads anything.
import { drillRowsOf } from './drillRows.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { barChartSpec, escapeHtml, renderChart, renderHtmlReport, unsafeSvg } from '../../src/report/index.ts';
import type { KalahiResultsJson } from '../../src/benchmarks/kalahi/resultsSchema.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { HOSTILE, KALAHI_BLEU_ACC, KALAHI_MC1, KALAHI_MC2, flipItems, hostileKalahi, hostileMultiLoKo, SHARED_REPLAY_ITEMS, sharedMultilokoReplayRun } from './fixtures.ts';
import { wilsonClosedForm as wilson } from '../support/wilson.ts';
import { quasiWilsonByBisection } from '../support/quasiWilson.ts';
import { SECTIONS } from './sections.ts';
import { mcnemarByHand } from '../support/mcnemarByHand.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Student's t quantile from a table (scipy.stats.t.ppf(0.975, df)), for the quasi-Wilson intervals of bounded means. */
const T975: Record<number, number> = { 11: 2.200985160091639, 39: 2.022690920036761, 249: 1.9695368676403504 };
const quasiWilson = (values: number[], top = 1) => quasiWilsonByBisection(values, top, T975[values.length - 1]!);
interface Cell {
  value: number;
  low: number;
  high: number;
  text: string;
}
/** A figure cell of the report by its data-key. */
function cell(html: string, key: string): Cell {
  const re = new RegExp(`data-key="${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" data-value="([^"]+)" data-low="([^"]+)" data-high="([^"]+)">([\\s\\S]*?)</td>`, 'u');
  const m = re.exec(html);
  if (!m) throw new Error(`no cell ${key}`);
  return { value: Number(m[1]), low: Number(m[2]), high: Number(m[3]), text: m[4]!.replace(/<[^>]+>/gu, '').trim() };
}

/** Every tag outside the inline script and style: name and attributes, each attribute `name` or `name="value"` with no `<` or `"` inside. */
function tags(html: string): Array<{ name: string; attributes: Array<[string, string]> }> {
  // The drill-downs' rows wait in JSON data blocks: their markup is checked as the page's script inserts it.
  const rows = ['multiloko-items', 'kalahi-items'].filter((id) => html.includes(`id="${id}"`)).flatMap((id) => drillRowsOf(html, id).map((r) => r.html));
  const body = html.replace(/<script>[\s\S]*?<\/script>/gu, '<script></script>').replace(/<script type="application\/json" class="drill-rows">[\s\S]*?<\/script>/gu, '').replace(/<style>[\s\S]*?<\/style>/gu, '<style></style>') + rows.join('\n');
  const out: Array<{ name: string; attributes: Array<[string, string]> }> = [];
  for (const m of body.matchAll(/<(?!!doctype|\/)([a-zA-Z][\w:-]*)([^>]*)>/giu)) {
    const attributes: Array<[string, string]> = [];
    let rest = m[2]!.replace(/\/$/u, '');
    for (;;) {
      const a = /^\s+([\w:-]+)(?:="([^"<]*)")?/u.exec(rest);
      if (!a) break;
      attributes.push([a[1]!, a[2] ?? '']);
      rest = rest.slice(a[0].length);
    }
    if (rest.trim() !== '') throw new Error(`tag <${m[1]}> has unparseable attributes: ${JSON.stringify(rest)}`);
    out.push({ name: m[1]!.toLowerCase(), attributes });
  }
  return out;
}

const ALLOWED = new Set(['html', 'head', 'meta', 'title', 'style', 'script', 'body', 'header', 'h1', 'h2', 'h3', 'h4', 'p', 'nav', 'a', 'main', 'section', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'strong', 'em', 'code', 'figure', 'figcaption', 'div', 'input', 'select', 'option', 'details', 'summary', 'button', 'template', 'footer', 'svg', 'g', 'path', 'rect', 'line', 'text', 'title', 'clippath', 'defs']);

/** Anything that would load a resource: a src, a non-fragment href, url() to elsewhere, @import, or an http(s) URL in an attribute. */
function loads(html: string): string[] {
  const found: string[] = [];
  for (const t of tags(html)) {
    for (const [name, value] of t.attributes) {
      if (name === 'src' || name === 'srcset' || name === 'data' || name === 'action' || name === 'poster') found.push(`${t.name} ${name}=${value}`);
      if ((name === 'href' || name.endsWith(':href')) && !value.startsWith('#')) found.push(`${t.name} ${name}=${value}`);
      if (/url\(\s*(?!#)/iu.test(value)) found.push(`${t.name} ${name}=${value}`);
    }
  }
  if (/@import|url\(\s*(?!#)/iu.test(html.match(/<style>([\s\S]*?)<\/style>/u)?.[1] ?? '')) found.push('stylesheet loads');
  return found;
}

describe('escaping', () => {
  test('escapeHtml escapes markup and quotes and makes controls visible', () => {
    expect(escapeHtml('<a href="x">Tom & \'Jerry\'</a>`')).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;&#96;');
    expect(escapeHtml('a\u0000b\u0007c\u001bd\u007fe\u0085f\tg\nh')).toBe('a\u2400b\u2407c\u241bd\u2421e\uFFFDf\tg\nh');
    expect(escapeHtml('x\uD800y\uDC00z\uD83D\uDE00')).toBe('x\uFFFDy\uFFFDz\uD83D\uDE00');
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(12.5)).toBe('12.5');
  });

  test('a report of hostile strings keeps every one of them as text', async () => {
    const html = await renderHtmlReport({ benchmarks: { multiloko: hostileMultiLoKo(), kalahi: hostileKalahi() }, baseline: { benchmarks: { multiloko: hostileMultiLoKo(), kalahi: hostileKalahi() } } }, SECTIONS);
    // Only the report's own script element; no injected element or handler.
    // One script runs; the others are the drill-downs' JSON data blocks, which hold no `<script` of the data.
    expect(html.match(/<script/giu)).toHaveLength(1 + html.match(/<script type="application\/json" class="drill-rows">/gu)!.length);
    expect(html.match(/<script(?! type="application\/json" class="drill-rows">)/giu)).toHaveLength(1);
    expect(html).not.toMatch(/<img|<\/textarea|<!--/iu);
    const all = tags(html);
    for (const t of all) {
      expect(ALLOWED.has(t.name), `element <${t.name}>`).toBe(true);
      for (const [name] of t.attributes) expect(name.startsWith('on'), `handler ${name} on <${t.name}>`).toBe(false);
    }
    // The strings are there, as text.
    expect(html).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&#39; onmouseover=&#39;alert(2)&#39; x=&#39;');
    expect(html).toContain('Tom &amp; Jerry &amp;amp; &amp;lt;b&amp;gt;');
    expect(html).toContain('&lt;/textarea&gt;&lt;/style&gt;&lt;/script&gt;&lt;!--');
    // Controls shown as symbols, the lone surrogate replaced; none reach the file raw.
    expect(html).toContain('bell\u2407 esc\u241b[31m nul\u2400 del\u2421 c1\uFFFD end');
    expect(html).toContain('half \uFFFD pair');
    expect(html).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u);
    expect(html).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u);
    // A hostile URL is text, never a resource.
    expect(loads(html)).toEqual([]);
  });

  test('chart SVG: hostile labels are escaped, and an SVG that links or runs anything is refused', async () => {
    const svg = await renderChart(barChartSpec([{ row: HOSTILE.script, value: 40, low: 30, high: 50 }, { row: HOSTILE.controls, value: 20 }], { title: HOSTILE.attribute, axis: 'EM', description: HOSTILE.single }));
    expect(unsafeSvg(svg)).toBeUndefined();
    expect(svg).not.toContain('<script');
    expect(svg).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/u);
    expect(unsafeSvg('<svg><image href="http://x/y.png"/></svg>')).toBe('element <image>');
    expect(unsafeSvg('<svg><rect onload="alert(1)"/></svg>')).toBe('attribute onload');
    expect(unsafeSvg('<svg><rect fill="url(http://x/#a)"/></svg>')).toMatch(/^fill=/u);
    expect(unsafeSvg('<svg><rect fill="url(#a)"/></svg>')).toBeUndefined();
    expect(unsafeSvg('<svg><text><b>x</b></text></svg>')).toBe('element <b>');
  });
});

describe('a replay run', () => {
  let results: MultiLoKoResultsJson;
  let html: string;
  const N = SHARED_REPLAY_ITEMS;

  beforeAll(async () => {
    ({ results } = await sharedMultilokoReplayRun());
    html = await renderHtmlReport({ benchmarks: { multiloko: results, kalahi: hostileKalahi() } }, SECTIONS);
  }, 120_000);

  const items = (key: string) => Object.values(results[key] as Record<string, unknown>).filter((v): v is Record<string, any> => typeof v === 'object' && v !== null);

  test('sections: leaderboard, chart, per-language table, subsets, gates, items, Kalahi tables', () => {
    for (const id of ['multiloko-leaderboard', 'chart-multiloko-em', 'multiloko-languages', 'chart-multiloko-effects', 'multiloko-subsets', 'multiloko-gates', 'multiloko-items', 'chart-kalahi', 'kalahi-full-mc', 'kalahi-full-generation', 'kalahi-gates', 'kalahi-items']) {
      expect(html, id).toContain(`id="${id}"`);
    }
    // One item row per record, each with its subset and verdict for the filters.
    const rows = drillRowsOf(html, 'multiloko-items').map((r) => /^<tr data-subset="([^"]+)" data-verdict="(correct|wrong|missing)"/u.exec(r.html)!);
    expect(rows).toHaveLength(6 * N);
    expect(drillRowsOf(html, 'kalahi-items').filter((r) => r.html.startsWith('<tr data-subset="full" data-category=') && r.filters.subset === 'full')).toHaveLength(12);
    expect(rows.filter((r) => r[2] === 'missing')).toHaveLength(6);
    // The run's gates with their outcomes: italian.em>=0.9 missed, em>=0.2 and gap<=0.5 met.
    const gates = /<table class="gates" id="multiloko-gates">([\s\S]*?)<\/table>/u.exec(html)![1]!;
    expect(gates).toMatch(/<tr id="multiloko-gates-\d+" data-pass="false"><td class="fail">✗ missed<\/td><td><code>italian\.em&gt;=0\.9<\/code>/u);
    expect(gates).toMatch(/<tr id="multiloko-gates-\d+" data-pass="true"><td class="pass">✓ met<\/td><td><code>em&gt;=0\.2<\/code>/u);
    expect(gates.match(/<tr id="multiloko-gates-\d+" data-pass/gu)).toHaveLength(3);
    expect(html).toContain('Some gates missed: the run exits 1.');
    expect(html).not.toContain('id="multiloko-comparison"');
  });

  test('EM per language and its Wilson interval equal the closed form over the per-item EMs', () => {
    for (const language of ['english', 'french', 'italian']) {
      const ems = items(language).map((r) => r.em as number);
      const k = ems.filter((e) => e === 1).length;
      const c = cell(html, `em.${language}`);
      const [low, high] = wilson(k, ems.length);
      expect(c.value).toBe(k / ems.length);
      expect(c.value).toBeCloseTo((results[language] as { em: number }).em, 14);
      expect(c.low).toBeCloseTo(low, 12);
      expect(c.high).toBeCloseTo(high, 12);
      expect(c.text).toBe(`${((100 * k) / ems.length).toFixed(2)} [${(100 * low).toFixed(1)}, ${(100 * high).toFixed(1)}]`);
      expect(html).toContain(`data-key="em.${language}"`);
    }
  });

  test('F1 and chrF quasi-Wilson intervals, MTE and LE equal independent computations', () => {
    const f1 = items('italian').map((r) => r.f1 as number);
    const [low, high] = quasiWilson(f1);
    const c = cell(html, 'subset.f1.italian');
    expect(c.low).toBeCloseTo(low, 6);
    expect(c.high).toBeCloseTo(high, 6);
    const summary = results.summary!.headline as Record<string, any>;
    expect(cell(html, 'mte.human.italian').value).toBeCloseTo(summary.mte.human.per_language.italian, 12);
    expect(cell(html, 'mte.machine.italian').value).toBeCloseTo(summary.mte.machine.per_language.italian, 12);
    expect(cell(html, 'le.human.italian').value).toBeCloseTo(summary.le.human.per_language.italian, 12);
    expect(html).toMatch(/data-key="le.machine.italian">–/u);
  });

  test('the leaderboard row is the summary headline, EM × 100 ± 2 SE', () => {
    const h = results.summary!.headline as Record<string, any>;
    const row = /<table class="leaderboard"[\s\S]*?<\/table>/u.exec(html)![0];
    expect(row).toContain(`data-value="${h.em}">${(100 * h.em).toFixed(2)} ± ${(100 * h.em_2se).toFixed(1)}</td>`);
    expect(row).toContain(`>${(100 * h.em_gap).toFixed(2)}</td>`);
    expect(row).toContain(`${(100 * h.em_min).toFixed(2)} <span class="ci">${h.em_min_language}</span>`);
    expect(row).toContain(`${(100 * h.em_max).toFixed(2)} <span class="ci">${h.em_max_language}</span>`);
    expect(row).toContain(`${(100 * h.mte.human.average).toFixed(2)} ± –`);
  });

  test('Kalahi: MC1 Wilson, MC2 quasi-Wilson and BLEU acc Wilson equal independent computations; categories split', () => {
    const k = KALAHI_MC1.filter((v) => v === 1).length;
    const mc1 = cell(html, 'kalahi.full.all.mc1');
    expect(mc1.value).toBe(k / 12);
    expect(mc1.low).toBeCloseTo(wilson(k, 12)[0], 12);
    expect(mc1.high).toBeCloseTo(wilson(k, 12)[1], 12);
    const mc2 = cell(html, 'kalahi.full.all.mc2');
    expect(mc2.value).toBeCloseTo(KALAHI_MC2.reduce((a, b) => a + b, 0) / 12, 14);
    expect(mc2.low).toBeCloseTo(quasiWilson(KALAHI_MC2)[0], 9);
    expect(mc2.high).toBeCloseTo(quasiWilson(KALAHI_MC2)[1], 9);
    const bleu = cell(html, 'kalahi.full.all.bleu');
    const kb = KALAHI_BLEU_ACC.filter((v) => v === 1).length;
    expect(bleu.value).toBe(kb / 12);
    expect(bleu.low).toBeCloseTo(wilson(kb, 12)[0], 12);
    const ethics = cell(html, 'kalahi.full.ethics.mc1');
    expect(ethics.value).toBe(KALAHI_MC1.slice(0, 6).filter((v) => v === 1).length / 6);
    expect(html).toMatch(/data-key="kalahi\.full\.all\.bleurt">–/u);
    expect(html).toContain('Not computed: bleurt (&lt;/textarea&gt;');
  });

  test('charts are inline SVG with one bar per language, and the page loads nothing', async () => {
    const clean = await renderHtmlReport({ benchmarks: { multiloko: results } }, SECTIONS);
    const chart = /<figure class="chart" id="chart-multiloko-em">([\s\S]*?)<figcaption>/u.exec(html)![1]!;
    expect(chart).toMatch(/^<svg /u);
    expect(unsafeSvg(chart)).toBeUndefined();
    const bars = /<g class="mark-rect role-mark[^"]*"[^>]*>([\s\S]*?)<\/g>/u.exec(chart)![1]!;
    expect(bars.match(/<path /gu)).toHaveLength(3);
    // No URL at all in a report of clean strings: not in a resource, not even as an SVG namespace declaration.
    expect(clean).not.toMatch(/https?:\/\//u);
    expect(loads(clean)).toEqual([]);
    expect(loads(html)).toEqual([]);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;/u);
  });

  test('against a baseline with known flips: differences, McNemar, flipped items and change filters', async () => {
    const italian = items('italian');
    const ids = Object.keys(results.italian as object).filter((id) => typeof (results.italian as any)[id] === 'object');
    const right = ids.filter((id) => (results.italian as any)[id].em === 1).slice(0, 3);
    const wrong = ids.filter((id) => (results.italian as any)[id].em === 0).slice(0, 7);
    // In the baseline, `right` were wrong (so they are wrong → right now) and `wrong` were right (right → wrong now).
    const baseline = flipItems(results, [...right, ...wrong].map((id) => ({ subset: 'italian', id })));
    const report = await renderHtmlReport({ benchmarks: { multiloko: results }, baseline: { benchmarks: { multiloko: baseline } } }, SECTIONS);
    expect(report).toContain('id="multiloko-comparison"');
    const row = /<tr class="[^"]*" data-key="italian" data-diff="([^"]+)" data-p="([^"]+)" data-p-adjusted="([^"]+)">([\s\S]*?)<\/tr>/u.exec(report)!;
    expect(Number(row[1])).toBeCloseTo((right.length - wrong.length) / italian.length, 14);
    expect(Number(row[2])).toBeCloseTo(mcnemarByHand(wrong.length, right.length), 12);
    // Holm over six subsets: only italian differs, every other p is 1.
    expect(Number(row[3])).toBeCloseTo(Math.min(1, 6 * mcnemarByHand(wrong.length, right.length)), 12);
    expect(row[4]).toContain(`<td class="num">${wrong.length}</td><td class="num">${right.length}</td>`);
    const flipped = /<details class="flipped" data-subset="italian · local"><summary>italian · local: (\d+) right → wrong, (\d+) wrong → right<\/summary>([\s\S]*?)<\/details>/u.exec(report)!;
    expect([Number(flipped[1]), Number(flipped[2])]).toEqual([wrong.length, right.length]);
    for (const id of [...right, ...wrong]) expect(flipped[3]).toContain(`<td class="id">${id}</td>`);
    const changes = drillRowsOf(report, 'multiloko-items').map((r) => r.filters.change);
    expect(changes.filter((c) => c === 'worse')).toHaveLength(wrong.length);
    expect(changes.filter((c) => c === 'better')).toHaveLength(right.length);
    // The EM chart shows both runs.
    const chart = /<figure class="chart" id="chart-multiloko-em">([\s\S]*?)<figcaption>/u.exec(report)![1]!;
    expect(chart).toContain('baseline');
    const bars = /<g class="mark-rect role-mark[^"]*"[^>]*>([\s\S]*?)<\/g>/u.exec(chart)![1]!;
    expect(bars.match(/<path /gu)).toHaveLength(6);
  });

  test('a subset missing from the baseline is named, not compared; a lokal score file (no summary) still gets a leaderboard', async () => {
    const { french: _french, summary: _summary, ...scoreFile } = results;
    const report = await renderHtmlReport({ benchmarks: { multiloko: results }, baseline: { benchmarks: { multiloko: scoreFile as MultiLoKoResultsJson } } }, SECTIONS);
    expect(report).toContain('Only in this run: french.');
    expect(report).not.toMatch(/data-key="french" data-diff/u);
    const alone = await renderHtmlReport({ benchmarks: { multiloko: scoreFile as MultiLoKoResultsJson } }, SECTIONS);
    const local = ['english', 'italian'].map((k) => (results[k] as { em: number }).em);
    expect(alone).toContain(`data-key="headline.em" data-value="${(local[0]! + local[1]!) / 2}"`);
    expect(alone).toContain('the file has no summary');
  });
});

describe('Kalahi against a baseline', () => {
  test('MC1 by McNemar on the flipped prompts, MC2 by the paired differences, flips listed per variant', async () => {
    const current = hostileKalahi();
    const baseline = JSON.parse(JSON.stringify(current)) as KalahiResultsJson;
    const records = baseline.variants!.full!.records!;
    // Baseline: prompts 0 and 3 were wrong (now right), prompt 1 was right (now wrong); MC2 was lower by i/100.
    for (const i of [0, 1, 3]) records[i]!.mc!.normalised!.mc1 = 1 - records[i]!.mc!.normalised!.mc1!;
    records.forEach((r, i) => (r.mc!.normalised!.mc2 = KALAHI_MC2[i]! - i / 100));
    const html = await renderHtmlReport({ benchmarks: { kalahi: current }, baseline: { benchmarks: { kalahi: baseline } } }, SECTIONS);
    const row = (key: string) => new RegExp(`data-key="${key}" data-diff="([^"]+)" data-p="([^"]+)" data-p-adjusted="([^"]+)">([\\s\\S]*?)</tr>`, 'u').exec(html)!;
    const mc1 = row('full.MC1');
    expect(Number(mc1[1])).toBeCloseTo(1 / 12, 14);
    expect(Number(mc1[2])).toBeCloseTo(mcnemarByHand(1, 2), 12);
    expect(mc1[4]).toContain('<td class="num">1</td><td class="num">2</td>');
    const mc2 = row('full.MC2');
    const d = KALAHI_MC2.map((_, i) => i / 100);
    expect(Number(mc2[1])).toBeCloseTo(d.reduce((a, b) => a + b, 0) / 12, 12);
    expect(mc2[4]).toContain('paired bootstrap');
    // No prompt's BLEU acc changed: p = 1; the MDE is the gate's McNemar floor: the fewest one-way flips k that are
    // significant at α/m over the 12 prompts. The records score two generation metrics (BLEU and chrF, see
    // kalahiRecord), so the acc family has m = 2 rows: 2·0.5^k < 0.05/2 first holds at k = 7 (2·0.5^6 = 0.031 ≥ 0.025,
    // 2·0.5^7 = 0.016 < 0.025), so the MDE is 7/12 = 0.5833.
    const bleu = row('full.BLEU acc');
    expect(Number(bleu[2])).toBe(1);
    expect(html.match(/data-key="full\.[^"]+ acc"/gu)).toEqual(['data-key="full.BLEU acc"', 'data-key="full.ChrF acc"']);
    expect(bleu[4]).toMatch(/<td class="num">0\.5833<\/td>\s*<td class="num">0<\/td><td class="num">0<\/td>/u);
    const flipped = /<details class="flipped" data-subset="full"><summary>full: (\d+) right → wrong, (\d+) wrong → right<\/summary>/u.exec(html)!;
    expect([Number(flipped[1]), Number(flipped[2])]).toEqual([1, 2]);
  });
});
