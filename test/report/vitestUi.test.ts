// Vitest UI shows each benchmark's roll-up: a small replay run under `vitest --ui`, the UI opened in headless
// Chromium, the summary test found through the UI's search, and its annotation read — the per-language EM with its
// Wilson interval (computed here from the results file's item records) on screen, and the chart image loaded.
// Skips with the reason without chromium or playwright-core.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { datasetSpec, predictionsFor, writeDataset, writeJsonl } from '../vitest/helpers.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';
import { wilsonClosedForm as wilson } from '../support/wilson.ts';
import { startVitestUi } from '../support/vitestUiChild.ts';

const found = await findChromium();
const reason = 'reason' in found ? found.reason : undefined;
if (reason) console.warn(`Vitest UI browser test skipped: ${reason}`);
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-vitest-ui-'));




describe.skipIf(reason !== undefined)(reason ? `Vitest UI summary (skipped: ${reason})` : 'Vitest UI summary', () => {
  let child: ChildProcess | undefined;
  let url = '';

  beforeAll(async () => {
    const spec = datasetSpec(12);
    const data = writeDataset(dir, spec);
    const predictions = path.join(dir, 'predictions.jsonl');
    writeJsonl(predictions, predictionsFor(spec, { dropLast: true }));
    ({ child, url } = await startVitestUi({ LOKAL_MULTILOKO: data, LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: path.join(dir, 'out'), LOKAL_REPORT: 'off', LOKAL_THRESHOLDS: 'em>=0.1' }));
  }, 180_000);

  afterAll(() => {
    child?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  test('the summary test shows the leaderboard and each language’s EM, and the chart as an image', async () => {
    const results = JSON.parse(readFileSync(path.join(dir, 'out', 'multiloko.json'), 'utf8')) as Record<string, Record<string, { em?: number }>>;
    const browser = await (found as { chromium: any; executablePath: string }).chromium.launch({ executablePath: (found as { executablePath: string }).executablePath, args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      // The UI asks Google for a web font: nothing but the local server is let through.
      await context.route('**/*', (route: any) => (/^(http:\/\/(127\.0\.0\.1|localhost)[:/]|data:)/u.test(route.request().url()) ? route.continue() : route.abort()));
      const page = await context.newPage();
      await page.goto(url);
      // The explorer's list is virtual (only rows in view exist): the UI's own search brings the summary test up.
      await page.getByPlaceholder('Search...', { exact: false }).fill('summary');
      await page.getByText('summary', { exact: true }).click();
      const note = page.locator('[role=note]').filter({ hasText: 'Leaderboard' });
      await expect.poll(() => note.count(), { timeout: 20_000 }).toBe(1);
      const text: string = await note.innerText();

      const summary = JSON.parse(readFileSync(path.join(dir, 'out', 'multiloko.json'), 'utf8')).summary as { model: string };
      expect(text).toContain(`MultiLoKo · ${summary.model}`);
      const ems: number[] = [];
      for (const language of ['english', 'french', 'italian']) {
        const items = Object.values(results[language]!).filter((r) => typeof r === 'object' && r !== null && typeof r.em === 'number');
        expect(items).toHaveLength(12);
        const right = items.filter((r) => r.em === 1).length;
        const [low, high] = wilson(right, items.length);
        ems.push(right / items.length);
        expect(text).toContain(`${language} ${((100 * right) / items.length).toFixed(2)} [${(100 * low).toFixed(1)}, ${(100 * high).toFixed(1)}]`);
      }
      expect(text).toContain(`average EM ${((100 * ems.reduce((s, v) => s + v, 0)) / 3).toFixed(2)} ± `);
      expect(text).toContain('Gates: 1/1 met.');

      const image = note.locator('img');
      expect(await image.count()).toBe(1);
      expect(await image.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/u);
      await expect.poll(() => image.evaluate((i: { complete: boolean; naturalWidth: number }) => (i.complete ? i.naturalWidth : 0))).toBeGreaterThan(300);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
