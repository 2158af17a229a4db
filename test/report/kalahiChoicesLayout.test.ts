// Kalahi's "answers scored" table, nested in the narrow reply column of the drill-down, opened in headless Chromium at
// a laptop's width: its numbers stay on one line and its answers wrap between words only (the drill-down's cells break
// anywhere, which split "-12.345" and "Mapagkakatiwalaan" mid-way). Skips with the reason without chromium.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { renderHtmlReport } from '../../src/report/index.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';
import { hostileKalahi } from './fixtures.ts';
import { SECTIONS } from './sections.ts';

const found = await findChromium();
const reason = 'reason' in found ? found.reason : undefined;
if (reason) console.warn(`report browser tests skipped: ${reason}`);
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-choices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ANSWERS = [
  'Ang pinakamahusay na paraan ay ang pagiging mapagkakatiwalaan at tapat sa lahat ng pagkakataon',
  'Walang tiyak na sagot dito, depende sa sitwasyon at sa mga taong kasangkot',
  'Mapagkakatiwalaan',
];

describe.skipIf(reason !== undefined)('the answers scored table in headless Chromium', () => {
  test('numbers on one line, answers broken only between words, at 1024 px', { timeout: 120_000 }, async () => {
    if ('reason' in found) return;
    const kalahi = hostileKalahi();
    const variant = Object.values(kalahi.variants!)[0]!;
    const record = variant.records![0]! as unknown as { mc: Record<string, unknown> };
    record.mc.references = ANSWERS.map((text, index) => ({ kind: index === 0 ? 'relevant' : 'irrelevant', index, text, best: index === 0, logprob: -12.345678 * (index + 1), score: 0.000123456 * (index + 1) }));
    const file = path.join(dir, 'report.html');
    writeFileSync(file, await renderHtmlReport({ benchmarks: { kalahi } }, SECTIONS));
    const browser = await found.chromium.launch({ executablePath: found.executablePath, args: CHROMIUM_ARGS });
    try {
      const page = await (await browser.newContext({ viewport: { width: 1024, height: 800 } })).newPage();
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      const table = page.locator('#kalahi-items details.choices').first();
      await table.locator('summary').click();
      // Per cell: each line's text (characters grouped by the top of their box).
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const lines: Array<{ num: boolean; lines: string[] }> = await table.locator('table.choices td').evaluateAll((cells: any[]) =>
        cells.map((cell) => {
          const doc = cell.ownerDocument;
          const walker = doc.createTreeWalker(cell, 4);
          const byTop = new Map<number, string>();
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let i = 0; i < node.data.length; i++) {
              const range = doc.createRange();
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              const rect = range.getClientRects()[0];
              if (!rect) continue;
              const top = Math.round(rect.top);
              byTop.set(top, (byTop.get(top) ?? '') + node.data[i]);
            }
          }
          return { num: cell.classList.contains('num'), lines: [...byTop.entries()].sort((a, b) => a[0] - b[0]).map(([, text]) => text) };
        }),
      );
      const numbers = lines.filter((c) => c.num);
      expect(numbers.length).toBe(ANSWERS.length * 3);
      for (const cell of numbers) expect(cell.lines, JSON.stringify(cell)).toHaveLength(1);
      const answers = lines.filter((c) => !c.num && ANSWERS.some((a) => c.lines.join('').includes(a.slice(0, 10))));
      expect(answers).toHaveLength(ANSWERS.length);
      for (const cell of answers) {
        // Every line is whole words: the words of the answer, each on one line.
        const words = cell.lines.flatMap((line) => line.trim().split(/\s+/u));
        const answer = ANSWERS.find((a) => cell.lines.join('').includes(a.slice(0, 10)))!;
        expect(words, JSON.stringify(cell.lines)).toEqual(answer.split(' '));
      }
    } finally {
      await browser.close();
    }
  });
});
