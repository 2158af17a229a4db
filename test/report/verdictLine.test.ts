// The report's first line is the run's verdict: incomplete (naming the groups), N gates missed (each a link to its
// row), all gates met, or none set — checked in the HTML and, where Chromium is available, at the top of the page.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { renderHtmlReport } from '../../src/report/html.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';
import { SECTIONS } from './sections.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-verdict-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const gate = (figure: string, pass: boolean) => ({ gate: 'em>=0.5', figure, value: pass ? 0.6 : 0.4, op: '>=', bound: 0.5, pass, message: `${figure} …` });
function results(gates: ReturnType<typeof gate>[], extra: Record<string, unknown> = {}): MultiLoKoResultsJson {
  const items = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`q${i}`, { em: i % 2, prediction: 'p', targets: ['t'] }]));
  return { italian: { ...items, em: 0.5 }, summary: { model: 'm', gates, gates_passed: gates.every((g) => g.pass) }, ...extra } as MultiLoKoResultsJson;
}
const verdict = (page: string) => /<p class="verdict[^"]*" id="verdict" data-verdict="([a-z]+)">([\s\S]*?)<\/p>/u.exec(page)!;

describe('verdict line', () => {
  test('missed gates: counted and each linked to its row in the gates table', async () => {
    const page = await renderHtmlReport({ benchmarks: { multiloko: results([gate('italian · local EM', true), gate('average EM', false), gate('gap', false)]) } }, SECTIONS);
    const [, kind, text] = verdict(page);
    expect(kind).toBe('missed');
    expect(text).toBe('✗ 2 of 3 gates missed: <a href="#multiloko-gates-1">average EM</a>, <a href="#multiloko-gates-2">gap</a>.');
    expect(page).toContain('<tr id="multiloko-gates-1" data-pass="false">');
    // It is the first thing under the title.
    expect(page.indexOf('id="verdict"')).toBeLessThan(page.indexOf('<nav>'));
  });

  test('all met; none set; incomplete names the groups that did not finish', async () => {
    expect(verdict(await renderHtmlReport({ benchmarks: { multiloko: results([gate('a', true), gate('b', true)]) } }, SECTIONS))[2]).toBe('✓ All 2 gates met.');
    expect(verdict(await renderHtmlReport({ benchmarks: { multiloko: results([]) } }, SECTIONS))[1]).toBe('none');
    const incomplete = verdict(await renderHtmlReport({ benchmarks: { multiloko: results([gate('a', true)], { complete: false, missing_subsets: ['french', 'japanese'] }) } }, SECTIONS));
    expect(incomplete[1]).toBe('incomplete');
    expect(incomplete[2]).toBe('✗ Incomplete: MultiLoKo french, MultiLoKo japanese did not finish, so the run fails.');
  });

  test('in Chromium: the verdict is the first line of the page and its link scrolls to the failing gate', async (context) => {
    const found = await findChromium();
    if ('reason' in found) return context.skip(found.reason);
    const file = path.join(dir, 'report.html');
    writeFileSync(file, await renderHtmlReport({ benchmarks: { multiloko: results([gate('italian · local EM', true), gate('average EM', false)]) } }, SECTIONS));
    const browser = await found.chromium.launch({ executablePath: found.executablePath, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      await page.goto(pathToFileURL(file).href);
      const line = page.locator('#verdict');
      expect(await line.innerText()).toBe('✗ 1 of 2 gates missed: average EM.');
      const box = await line.boundingBox();
      expect(box.y).toBeLessThan(200);
      await page.click('#verdict a');
      expect(await page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).toBe('#multiloko-gates-1');
      const row = await page.locator('#multiloko-gates-1').boundingBox();
      expect(row.y).toBeGreaterThanOrEqual(0);
      expect(row.y).toBeLessThan(800);
    } finally {
      await browser.close();
    }
  });
});
