// The report of a 250-item replay run, opened from disk in headless Chromium: charts rendered, item search and
// filters work, no console errors, and no request leaves the file. Skips with the reason without chromium or
// playwright-core.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderHtmlReport } from '../../src/report/index.ts';
import type { KalahiResultsJson } from '../../src/benchmarks/kalahi/resultsSchema.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';
import { HOSTILE, flipItems, haveKalahiData, hostileKalahi, hostileMultiLoKo, kalahiReplayRun, sharedMultilokoReplayRun } from './fixtures.ts';
import { SECTIONS } from './sections.ts';

const found = await findChromium();
const reason = 'reason' in found ? found.reason : undefined;
// The skip's reason also goes to the log, where the default reporter shows no suite names of skipped files.
if (reason) console.warn(`report browser tests skipped: ${reason}`);
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-report-chromium-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Page = any;

describe.skipIf(reason !== undefined)(reason ? `report in headless Chromium (skipped: ${reason})` : 'report in headless Chromium', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let browser: any;
  let results: MultiLoKoResultsJson;
  let replayOutput: string;
  let kalahi: KalahiResultsJson | undefined;
  let report: string;
  const italianIds: string[] = [];

  beforeAll(async () => {
    if ('reason' in found) return;
    ({ results, output: replayOutput } = await sharedMultilokoReplayRun());
    kalahi = haveKalahiData ? await kalahiReplayRun(path.join(dir, 'kalahi'), 20) : undefined;
    for (const [id, r] of Object.entries(results.italian as Record<string, unknown>)) if (typeof r === 'object') italianIds.push(id);
    // A baseline with a few items flipped, so the comparison and the change filter are on the page too.
    const baseline = flipItems(results, italianIds.slice(0, 6).map((id) => ({ subset: 'italian', id })));
    report = path.join(dir, 'report.html');
    writeFileSync(report, await renderHtmlReport({ benchmarks: { multiloko: results, ...(kalahi ? { kalahi } : {}) }, baseline: { benchmarks: { multiloko: baseline } } }, SECTIONS));
    browser = await found.chromium.launch({ executablePath: found.executablePath, args: CHROMIUM_ARGS });
  }, 240_000);
  afterAll(async () => browser?.close());

  /** Opens a file with every request recorded and every non-file one failed, console errors and dialogs collected. */
  async function open(file: string): Promise<{ page: Page; requests: string[]; outside: string[]; errors: string[]; dialogs: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const outside: string[] = [];
    const errors: string[] = [];
    const dialogs: string[] = [];
    await context.route('**/*', (route: any) => {
      const url: string = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      outside.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    page.on('request', (r: any) => requests.push(r.url()));
    page.on('console', (m: any) => (m.type() === 'error' || m.type() === 'warning') && errors.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e: Error) => errors.push(`pageerror: ${e.message}`));
    page.on('dialog', (d: any) => {
      dialogs.push(d.message());
      return d.dismiss();
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    return { page, requests, outside, errors, dialogs };
  }

  const visibleRows = (page: Page, section: string) => page.locator(`#${section} tbody tr:not([hidden])`).count();

  test('charts rendered, search and filters work, no console errors, no request leaves the file', async () => {
    const { page, requests, outside, errors } = await open(report);

    // The EM chart: an SVG with a bar per language and run (3 local languages, this run and the baseline), laid out.
    const chart = page.locator('#chart-multiloko-em svg');
    expect(await chart.count()).toBe(1);
    expect(await page.locator('#chart-multiloko-em svg g.mark-rect path').count()).toBe(6);
    const box = await chart.boundingBox();
    expect(box.width).toBeGreaterThan(300);
    expect(box.height).toBeGreaterThan(50);
    expect(await page.locator('#chart-multiloko-effects svg g.mark-rect path').count()).toBe(3);
    if (kalahi) expect(await page.locator('#chart-kalahi svg g.mark-rect path').count()).toBeGreaterThan(0);

    // Search: all rows, then one id, then nothing, then all again.
    const total = 6 * 250;
    expect(await visibleRows(page, 'multiloko-items')).toBe(total);
    await expect.poll(() => page.locator('#multiloko-items .count').textContent()).toBe(`${total} of ${total} shown`);
    const search = page.locator('#multiloko-items input[type=search]');
    await search.fill(italianIds[17]!);
    await expect.poll(() => visibleRows(page, 'multiloko-items')).toBe(1);
    expect(await page.locator('#multiloko-items tbody tr:not([hidden]) td.id').textContent()).toBe(italianIds[17]);
    await search.fill('no item says this');
    await expect.poll(() => visibleRows(page, 'multiloko-items')).toBe(0);
    await search.fill('');
    await expect.poll(() => visibleRows(page, 'multiloko-items')).toBe(total);

    // Filters: italian's missing item; then the six items flipped against the baseline.
    await page.locator('#multiloko-items select[data-filter=subset]').selectOption('italian');
    await page.locator('#multiloko-items select[data-filter=verdict]').selectOption('missing');
    await expect.poll(() => visibleRows(page, 'multiloko-items')).toBe(1);
    await page.locator('#multiloko-items select[data-filter=verdict]').selectOption('');
    await expect.poll(() => visibleRows(page, 'multiloko-items')).toBe(250);
    const flipped = italianIds.slice(0, 6).map((id) => (results.italian as Record<string, { em: number }>)[id]!.em);
    await page.locator('#multiloko-items select[data-filter=change]').selectOption('worse');
    await expect.poll(() => visibleRows(page, 'multiloko-items')).toBe(flipped.filter((em) => em === 0).length);
    await page.locator('#multiloko-items select[data-filter=change]').selectOption('better');
    await expect.poll(() => visibleRows(page, 'multiloko-items')).toBe(flipped.filter((em) => em === 1).length);

    if (kalahi) {
      const prompts = kalahi.variants!.full!.records!.length;
      expect(await visibleRows(page, 'kalahi-items')).toBe(prompts);
      await page.locator('#kalahi-items input[type=search]').fill(String(kalahi.variants!.full!.records![3]!.promptVariationId));
      await expect.poll(() => visibleRows(page, 'kalahi-items')).toBe(1);
    }

    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    expect(requests.length).toBeGreaterThan(0);
    for (const url of requests) expect(url.startsWith('file://'), url).toBe(true);
    await page.context().close();
  });

  test('the report.html the reporter wrote after the 250-item run: chart, search, no console error, nothing loaded', async () => {
    const { page, requests, outside, errors } = await open(path.join(replayOutput, 'report.html'));
    // One bar per local language (english, french, italian), with a rule per interval, laid out.
    expect(await page.locator('#chart-multiloko-em svg g.mark-rect path').count()).toBe(3);
    expect(await page.locator('#chart-multiloko-em svg g.mark-rule.role-mark line').count()).toBe(3);
    expect((await page.locator('#chart-multiloko-em svg').boundingBox()).width).toBeGreaterThan(300);
    const italianEm = Object.values(results.italian as Record<string, { em?: number }>).filter((r) => typeof r === 'object' && r.em !== undefined);
    const label = (100 * italianEm.reduce((n, r) => n + r.em!, 0) / italianEm.length).toFixed(1);
    expect(await page.locator('#chart-multiloko-em svg g.mark-text.role-mark text').allTextContents()).toContain(label);
    const total = 6 * 250;
    await expect.poll(() => visibleRows(page, 'multiloko-items')).toBe(total);
    await page.locator('#multiloko-items input[type=search]').pressSequentially(italianIds[42]!);
    await expect.poll(() => visibleRows(page, 'multiloko-items')).toBe(1);
    expect(await page.locator('#multiloko-items .count').textContent()).toBe(`1 of ${total} shown`);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    for (const url of requests) expect(url.startsWith('file://') || url.startsWith('data:'), url).toBe(true);
    await page.context().close();
  });

  test('hostile strings stay text in the browser: no dialog, no extra script or element, the strings readable', async () => {
    const file = path.join(dir, 'hostile.html');
    writeFileSync(file, await renderHtmlReport({ benchmarks: { multiloko: hostileMultiLoKo(), kalahi: hostileKalahi() } }, SECTIONS));
    const { page, outside, errors, dialogs } = await open(file);
    await page.mouse.move(400, 400);
    // One script runs; the others are the drill-downs' rows as JSON data blocks, which a browser never runs.
    expect(await page.evaluate(() => Array.from((globalThis as any).document.scripts as ArrayLike<{ type: string }>).map((s) => s.type))).toEqual(['application/json', 'application/json', '']);
    expect(await page.locator('img, iframe, object, embed, textarea').count()).toBe(0);
    const texts: string[] = await page.locator('#multiloko-items td.id').allTextContents();
    expect(texts).toContain(`${HOSTILE.script}#0`);
    expect(texts).toContain(`${HOSTILE.attribute}#1`);
    expect(await page.title()).toContain(HOSTILE.attribute);
    expect(await page.locator('#multiloko .meta strong').first().textContent()).toContain(HOSTILE.attribute);
    await page.locator('#multiloko-items input[type=search]').fill('onerror=alert(1)');
    await expect.poll(() => visibleRows(page, 'multiloko-items')).toBeGreaterThan(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await page.context().close();
  });
});
