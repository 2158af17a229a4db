// Vitest UI finds the wrong answers: a replay run of a small generated subset under `vitest --ui --watch` (a child on a
// free port), the UI opened in headless Chromium, and its Fail filter (with Only Tests) ticked. The item tests it lists
// are the wrong answers worked out here from the replay answers and the targets (docs/metrics.md#exact-match), not from
// the run's own records. Without a filter, the `summary` test is listed first. Skips with the reason without chromium
// or playwright-core.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { datasetSpec, predictionsFor, writeDataset, writeJsonl } from '../vitest/helpers.ts';
import { startVitestUi } from '../support/vitestUiChild.ts';
import { exactMatchByDefinition } from '../support/multilokoEm.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';

const found = await findChromium();
const reason = 'reason' in found ? found.reason : undefined;
if (reason) console.warn(`Vitest UI Fail filter test skipped: ${reason}`);
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-vitest-ui-fail-'));

const spec = datasetSpec(4);
const rows = predictionsFor(spec, { dropLast: true });
const answers = new Map(rows.map((r) => [`${r.language}/${String(r.id)}`, r.prediction]));
/** Every item by the start of its test name (`<id> · `; the generated ids differ across subsets), with its EM. */
const items = spec.flatMap((s) => s.items.map((item) => ({ subset: s.key, prefix: `${String(item.id)} · `, em: exactMatchByDefinition(answers.get(`${s.key}/${String(item.id)}`), item.targets) })));
const wrong = items.filter((i) => i.em === 0);

describe.skipIf(reason !== undefined)(reason ? `Vitest UI Fail filter (skipped: ${reason})` : 'Vitest UI Fail filter', () => {
  let child: ChildProcess | undefined;
  let url = '';

  beforeAll(async () => {
    const data = writeDataset(dir, spec);
    const predictions = path.join(dir, 'predictions.jsonl');
    writeJsonl(predictions, rows);
    ({ child, url } = await startVitestUi({ LOKAL_MULTILOKO: data, LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: path.join(dir, 'out'), LOKAL_REPORT: 'off' }));
  }, 180_000);

  afterAll(() => {
    child?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  test('the subset has right and wrong answers (else the filter could not be told from no filter)', () => {
    expect(wrong.length).toBeGreaterThan(3);
    expect(wrong.length).toBeLessThan(items.length - 3);
  });

  test('Fail + Only Tests lists exactly the wrong answers; unfiltered, summary is the first test; a failed item shows its verdict', async () => {
    const browser = await (found as { chromium: any; executablePath: string }).chromium.launch({ executablePath: (found as { executablePath: string }).executablePath, args: CHROMIUM_ARGS });
    try {
      // Tall enough for every row: the explorer's list is virtual (only rows in view exist).
      const context = await browser.newContext({ viewport: { width: 1400, height: 2400 } });
      // The UI asks Google for a web font: nothing but the local server is let through.
      await context.route('**/*', (route: any) => (/^(http:\/\/(127\.0\.0\.1|localhost)[:/]|data:)/u.test(route.request().url()) ? route.continue() : route.abort()));
      const page = await context.newPage();
      await page.goto(url);
      const explorerRows = page.locator('[data-testid=explorer-item]');
      // The rows on screen, top to bottom: the scroller keeps unused rows in the page, parked 9999px above it.
      type Row = { getAttribute(name: string): string | null; getBoundingClientRect(): { top: number; bottom: number } };
      const labels = async (): Promise<string[]> =>
        explorerRows.evaluateAll((nodes: Row[]) =>
          nodes
            .map((n) => ({ label: n.getAttribute('aria-label') ?? '', box: n.getBoundingClientRect() }))
            .filter((r) => r.box.bottom > 0)
            .sort((a, b) => a.box.top - b.box.top)
            .map((r) => r.label),
        );
      const itemOf = (label: string) => items.find((i) => label.startsWith(i.prefix));

      // Every test listed (file, summary, 6 groups with their items and gate), the summary above every group.
      await expect.poll(async () => (await labels()).length, { timeout: 30_000 }).toBe(1 + 1 + spec.length * (4 + 1 + 1));
      const all = await labels();
      expect(all[1]).toBe('summary');

      await page.locator('label.checkbox', { hasText: /^\s*Fail\s*$/u }).click();
      await page.locator('label.checkbox', { hasText: /^\s*Only Tests\s*$/u }).click();
      await expect.poll(async () => (await labels()).length, { timeout: 20_000 }).toBeLessThan(all.length);
      const listed = await labels();
      const listedItems = listed.map(itemOf).filter((i) => i !== undefined);
      expect(listedItems.map((i) => `${i.subset}/${i.prefix}`).sort()).toEqual(wrong.map((i) => `${i.subset}/${i.prefix}`).sort());
      // Besides them only the file and the groups holding them, no gate or summary test.
      const groupsWithWrong = new Set(wrong.map((i) => i.subset));
      expect(listed.filter((l) => itemOf(l) === undefined)).toHaveLength(1 + groupsWithWrong.size);
      expect(listed).not.toContain('summary');
      expect(listed).not.toContain('gate');

      // The first listed wrong answer's error is its verdict line (EM 0, what it said or that it had no prediction).
      await page.locator('[data-testid=explorer-item]:visible', { hasText: wrong[0]!.prefix }).first().click();
      await expect.poll(() => page.locator('body').innerText(), { timeout: 20_000 }).toMatch(/Error: [✗∅] EM 0 · F1 [\d.]+ · chrF [\d.]+ · (said "[^"]*"|no prediction \(scored as empty\)) · targets /u);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
