// A large run's drill-down rows are written gzip-compressed (base64) past COMPRESSED_ROWS_ABOVE characters of JSON:
// decoded with zlib here every item of the run is one row holding its question (a small report keeps plain JSON), and
// Chromium inflates them with DecompressionStream, lists every item and finds one by its question.
// The browser part skips with the reason without chromium or playwright-core.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { COMPRESSED_ROWS_ABOVE } from '../../src/report/html.ts';
import { renderHtmlReport } from '../../src/report/index.ts';
import { scaleResults } from '../../bench/reportScale.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';
import { drillRowsOf } from './drillRows.ts';
import { SECTIONS } from './sections.ts';

const found = await findChromium();
const reason = 'reason' in found ? found.reason : undefined;
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-compressed-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// 151 subsets × 40 items: about 6 MB of rows' JSON, past the 4 MiB threshold; 151 × 2 stays below it.
const large = scaleResults(40);
const page = await renderHtmlReport({ benchmarks: { multiloko: large } }, SECTIONS);
const small = await renderHtmlReport({ benchmarks: { multiloko: scaleResults(2) } }, SECTIONS);

describe('compressed drill-down rows', () => {
  test('past the threshold the rows are gzip in base64; decoded, every item is one row holding its question', () => {
    expect(page).toContain('<script type="application/octet-stream" class="drill-rows" data-encoding="gzip-base64">');
    expect(small).toContain('<script type="application/json" class="drill-rows">');
    const rows = drillRowsOf(page, 'multiloko-items');
    expect(rows).toHaveLength(151 * 40);
    expect(JSON.stringify(rows.map((r) => [r.filters, r.html])).length).toBeGreaterThan(COMPRESSED_ROWS_ABOVE);
    // Every item of the run is one row (by its id), with its own question in it.
    const items = (large as unknown as { lokal: { items: Record<string, Record<string, { question: string }>> } }).lokal.items;
    const byId = new Map(rows.map((r) => [/<td class="id">([^<]*)<\/td>/u.exec(r.html)?.[1], r.html]));
    const all = Object.values(items).flatMap((subset) => Object.entries(subset));
    expect(all).toHaveLength(151 * 40);
    expect(all.filter(([id, item]) => !byId.get(id)?.includes(item.question)).map(([id]) => id)).toEqual([]);
    // A question is searchable text only once decoded: the page itself does not hold it.
    const question = (large as unknown as { lokal: { items: Record<string, Record<string, { question: string }>> } }).lokal.items.english!['english-7']!.question;
    expect(page).not.toContain(question);
    expect(rows.some((r) => r.html.includes(question))).toBe(true);
  });

  describe.skipIf(reason !== undefined)(reason ? `in Chromium (skipped: ${reason})` : 'in Chromium', () => {
    test('the page inflates the rows, counts every item, and a search for a question lists its one row', async () => {
      const file = path.join(dir, 'report.html');
      writeFileSync(file, page);
      const browser = await (found as { chromium: { launch(o: object): Promise<any> } }).chromium.launch({ executablePath: (found as { executablePath: string }).executablePath, args: CHROMIUM_ARGS });
      try {
        const tab = await browser.newPage();
        const errors: string[] = [];
        tab.on('pageerror', (e: Error) => errors.push(e.message));
        await tab.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        const section = tab.locator('#multiloko-items');
        await expect.poll(() => section.getAttribute('data-shown'), { timeout: 30_000 }).toBe(String(151 * 40));
        // 500 listed at a time, "List more" for the rest.
        expect(await section.locator('tbody tr').count()).toBe(500);
        const question = (large as unknown as { lokal: { items: Record<string, Record<string, { question: string }>> } }).lokal.items.english!['english-7']!.question;
        await section.locator('input[type=search]').fill(question);
        await expect.poll(() => section.getAttribute('data-shown'), { timeout: 30_000 }).toBe('1');
        expect(await section.locator('tbody tr td.id').textContent()).toBe('english-7');
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    }, 120_000);
  });
});
