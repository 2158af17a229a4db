// What the reporter writes after the results files: report.html (default place, LOKAL_REPORT moves it or turns it off)
// and the Markdown appended to GITHUB_STEP_SUMMARY — checked on real replay runs through Vitest, the figures against
// values computed here from the results file's item records.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { stepSummaryMarkdown } from '../../src/report/markdown.ts';
import { markdownCell } from '../../src/report/markdownCell.ts';
import { reportPath, writeRunOutputs } from '../../src/run/runOutputs.ts';
import { flipItems, lastRun, multilokoReplayRun } from './fixtures.ts';
import { SECTIONS } from './sections.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-run-outputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LOCAL = ['english', 'french', 'italian'];
type Records = Record<string, { em: number }>;
const records = (results: MultiLoKoResultsJson, subset: string) => Object.entries(results[subset] as Records).filter(([, r]) => typeof r === 'object' && r !== null && 'em' in r);
const meanEm = (results: MultiLoKoResultsJson, subset: string) => {
  const rs = records(results, subset);
  return rs.reduce((s, [, r]) => s + r.em, 0) / rs.length;
};

describe('report.html and the step summary after a replay run', () => {
  let first: MultiLoKoResultsJson;
  let firstLog: string;
  let flipped: string[];
  const summaryFile = path.join(dir, 'step-summary.md');
  const moved = path.join(dir, 'elsewhere', 'run.html');

  beforeAll(async () => {
    first = await multilokoReplayRun(path.join(dir, 'a'), 20, 'em>=0.2');
    firstLog = lastRun!.stdout;
    // The baseline: the same run with every right Italian answer made wrong, so this run gains exactly those items.
    flipped = records(first, 'italian').filter(([, r]) => r.em === 1).map(([id]) => id);
    const baseline = path.join(dir, 'baseline.json');
    writeFileSync(baseline, JSON.stringify(flipItems(first, flipped.map((id) => ({ subset: 'italian', id })))));
    writeFileSync(summaryFile, '# an earlier step\n');
    await multilokoReplayRun(path.join(dir, 'b'), 20, 'em>=0.2', { LOKAL_BASELINE: baseline, LOKAL_REPORT: moved, GITHUB_STEP_SUMMARY: summaryFile });
  }, 180_000);

  test('the report is written beside the results by default, and its path printed', () => {
    const file = path.join(dir, 'a', 'out', 'report.html');
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('id="chart-multiloko-em"');
    expect(text).toMatch(/<svg[^>]*>[\s\S]*class="mark-rect/u);
    expect(firstLog).toMatch(/lokal: report \S*report\.html/u);
  });

  test('LOKAL_REPORT moves it (folders made), and the report shows the baseline', () => {
    expect(existsSync(path.join(dir, 'b', 'out', 'report.html'))).toBe(false);
    const text = readFileSync(moved, 'utf8');
    expect(text).toContain('compared with a baseline run');
    // Every flipped item is listed under wrong → right for Italian.
    for (const id of flipped) expect(text).toContain(`<td class="id">${id}</td>`);
  });

  test('the step summary is appended: leaderboard, EM per language, gates and the significant changes', () => {
    const text = readFileSync(summaryFile, 'utf8');
    expect(text.startsWith('# an earlier step\n## vitest-lokal results')).toBe(true);
    const ems = LOCAL.map((l) => meanEm(first, l));
    const average = ems.reduce((s, v) => s + v, 0) / ems.length;
    const sd = Math.sqrt(ems.reduce((s, v) => s + (v - average) ** 2, 0) / (ems.length - 1));
    expect(text).toContain(`| ${(100 * average).toFixed(2)} ± ${((200 * sd) / Math.sqrt(3)).toFixed(1)} | ${(100 * (Math.max(...ems) - Math.min(...ems))).toFixed(2)} |`);
    for (const l of LOCAL) expect(text).toMatch(new RegExp(`\\| ${l} \\| 20 \\| ${(100 * meanEm(first, l)).toFixed(2)} \\[`, 'u'));
    expect(text).toContain('| ✅ met | em&gt;=0.2 |');
    // Italian gained k items and lost none: McNemar's exact p = 2·0.5^k, for Italian and for the local subsets pooled
    // (60 independent items); the gate's family also holds every subset pooled (a question and its translations one
    // cluster, by bootstrap) and the five unchanged subsets (p = 1). Holm by hand over those eight.
    const k = flipped.length;
    expect(k).toBeGreaterThan(6);
    const p = 2 * 0.5 ** k;
    const gate = JSON.parse(readFileSync(path.join(dir, 'b', 'out', 'multiloko.json'), 'utf8')).summary.baseline.tests as Array<{ key: string; p: number; p_adjusted: number }>;
    const pAll = gate.find((t) => t.key === 'pooled:all')!.p;
    const raw = [p, p, pAll, 1, 1, 1, 1, 1];
    const order = raw.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
    const adjusted: number[] = [];
    let running = 0;
    order.forEach(([v, i], rank) => ((running = Math.max(running, Math.min(1, (8 - rank) * v))), (adjusted[i] = running)));
    expect(gate.find((t) => t.key === 'italian')!.p_adjusted).toBeCloseTo(adjusted[0]!, 12);
    const significantRows = adjusted.filter((v) => v < 0.05).length;
    expect(text).toContain(`${significantRows} of 8 paired comparisons differ significantly`);
    expect(text).toContain(`| italian · local EM | 20 | 0.00 | ${(100 * meanEm(first, 'italian')).toFixed(2)} | +${(100 * meanEm(first, 'italian')).toFixed(2)} [`);
    // The report's comparison and the gate give the same adjusted p for Italian and for the local pool.
    expect(text).toContain(`| McNemar exact | ${adjusted[0]!.toFixed(4)} | 0 | ${k} |`);
    expect(text).toContain(`| McNemar exact | ${adjusted[1]!.toFixed(4)} | 0 | ${k} |`);
  });
});

describe('run outputs without a run', () => {
  test('LOKAL_REPORT=off writes no report; a path is resolved against the root', async () => {
    expect(reportPath('off', '/r', 'results')).toBeUndefined();
    expect(reportPath('OFF', '/r', 'results')).toBeUndefined();
    expect(reportPath(undefined, '/r', 'out')).toBe(path.resolve('/r/out/report.html'));
    expect(reportPath('x/y.html', '/r', 'out')).toBe(path.resolve('/r/x/y.html'));
    const root = mkdtempSync(path.join(dir, 'off-'));
    const lines: string[] = [];
    const results = new Map([['multiloko', JSON.stringify({ italian: { a: { em: 1, prediction: 'x', targets: ['x'] } } })]]);
    const written = await writeRunOutputs({ results, root, output: 'results', report: 'off', baseline: undefined, stepSummary: undefined, log: (l) => lines.push(l) });
    expect(written).toEqual({});
    expect(existsSync(path.join(root, 'results', 'report.html'))).toBe(false);
    // Unknown benchmarks have no report section: nothing is written for them.
    expect(await writeRunOutputs({ results: new Map([['other', '{}']]), root, output: 'results', report: undefined, baseline: undefined, stepSummary: undefined, log: (l) => lines.push(l) })).toEqual({});
    expect(lines).toEqual([]);
  });

  test('an unreadable baseline is named and the report is written without it', async () => {
    const root = mkdtempSync(path.join(dir, 'nobase-'));
    const lines: string[] = [];
    const results = new Map([['multiloko', JSON.stringify({ italian: { a: { em: 1, prediction: 'x', targets: ['x'] } } })]]);
    const written = await writeRunOutputs({ results, root, output: 'results', report: undefined, baseline: 'missing.json', stepSummary: undefined, log: (l) => lines.push(l) });
    expect(written.report).toBe(path.join(root, 'results', 'report.html'));
    expect(lines[0]).toMatch(/no baseline: .*missing\.json could not be read \(ENOENT/u);
  });

  test('Markdown cells keep hostile strings as text on one line', () => {
    expect(markdownCell('a|b\nc <script>x</script> *y* `z` [l](u) \\')).toBe('a\\|b c &lt;script&gt;x&lt;/script&gt; \\*y\\* \\`z\\` \\[l\\](u) \\\\');
    const md = stepSummaryMarkdown({ benchmarks: { multiloko: { summary: { model: 'm|<b>' }, italian: { 'id|1': { em: 0, prediction: '', targets: [] } } } } }, SECTIONS);
    expect(md).toContain('### MultiLoKo · m\\|&lt;b&gt;');
    expect(md).not.toContain('<b>');
    // Every table row has as many unescaped pipes as its header.
    for (const block of md.split('\n\n').filter((b) => b.startsWith('|'))) {
      const counts = block.split('\n').filter(Boolean).map((row) => row.replace(/\\\|/gu, '').split('|').length);
      expect(new Set(counts).size).toBe(1);
    }
  });
});
