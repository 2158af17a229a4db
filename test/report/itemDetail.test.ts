// What the model saw and said, in the report of a model run: a child evals run of the generated tiny model (chat
// prompts, a missed gate) writes report.html, and headless Chromium finds the run's verdict line at the top, an
// item's question, its raw output and, one click away, the prompt as fed — each taken from the run's own records.
// Kalahi's prompts: every answer with its log-probability and its normalised probability (worked out here by hand).
// Skips with the reason without chromium or playwright-core.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cleanText } from '../../src/report/escape.ts';
import { kalahiChoices } from '../../src/benchmarks/kalahi/results/section/reportView.ts';
import { renderHtmlReport } from '../../src/report/index.ts';
import type { KalahiResultsJson } from '../../src/benchmarks/kalahi/resultsSchema.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { MULTILOKO_EVAL, datasetSpec, runVitest, writeDataset } from '../vitest/helpers.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';
import { drillRowsOf } from './drillRows.ts';
import { SECTIONS } from './sections.ts';

const found = await findChromium();
const reason = 'reason' in found ? found.reason : undefined;
if (reason) console.warn(`report item detail tests skipped: ${reason}`);
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-item-detail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Kalahi prompt with three answers scored: byte-normalised scores 0.5, 0.3 and 0.2 (the irrelevant one preferred). */
function kalahiResults(): KalahiResultsJson {
  const reference = (kind: string, index: number, text: string, best: boolean, logprob: number, bytes: number) => ({ kind, index, text, best, logprob, tokens: 3, bytes, score: Math.exp(logprob / bytes) });
  const references = [reference('relevant', 0, 'Igalang ang mga nakatatanda', true, 10 * Math.log(0.3), 10), reference('relevant', 1, 'Magmano sa lola', false, 8 * Math.log(0.2), 8), reference('irrelevant', 0, 'Huwag pansinin sila', false, 5 * Math.log(0.5), 5)];
  return {
    benchmark: 'kalahi',
    variants: {
      full: {
        model: 'replay:x',
        tasks: ['mc'],
        records: [
          {
            suite: 'full', promptVariationId: 'pv-1', promptId: 'p-1', category: 'pamilya', topic: 'paggalang', row: 1,
            prompt: 'Paano ko ipapakita ang paggalang sa aking lola?',
            mc: {
              references,
              normalised: { mc1: 0, mc2: 0.5, mc2_normalised: 0.5, mc3: 0.5 },
              preferred: { kind: 'irrelevant', index: 0, text: 'Huwag pansinin sila', score: 0.5, best: false },
            },
          },
        ],
      },
    },
  } as unknown as KalahiResultsJson;
}

describe('Kalahi answers with their probabilities', () => {
  test('each answer: log p as recorded, probability = score / Σ scores, the chosen and the best answer marked', async () => {
    const results = kalahiResults();
    const choices = kalahiChoices(results.variants!.full!.records![0]!.mc);
    // Scores 0.3, 0.2, 0.5 sum to 1: the probabilities are the scores themselves.
    expect(choices.map((c) => Number(c.probability!.toFixed(12)))).toEqual([0.3, 0.2, 0.5]);
    expect(choices.map((c) => c.chosen)).toEqual([false, false, true]);
    expect(choices.map((c) => c.best)).toEqual([true, false, false]);
    const page = await renderHtmlReport({ benchmarks: { kalahi: results } }, SECTIONS);
    const [row] = drillRowsOf(page, 'kalahi-items');
    expect(row!.html).toContain('<td>Paano ko ipapakita ang paggalang sa aking lola?</td>');
    expect(row!.html).toContain('<tr data-kind="irrelevant" data-chosen="true"><td>Huwag pansinin sila</td><td><span class="label">irrelevant · chosen</span></td><td class="num">-3.466</td><td class="num">0.5000</td><td class="num" data-probability="0.5');
    expect(row!.html).toContain('<tr data-kind="relevant" data-best="true"><td>Igalang ang mga nakatatanda</td><td><span class="label">relevant · best</span></td><td class="num">-12.040</td>');
    expect(row!.html).toContain('<span class="label">best answer</span> Igalang ang mga nakatatanda');
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

describe.skipIf(reason !== undefined)(reason ? `item detail in headless Chromium (skipped: ${reason})` : 'item detail in headless Chromium', () => {
  let browser: Any;
  let out: string;
  let results: Record<string, Any>;

  beforeAll(async () => {
    if ('reason' in found) return;
    const model = path.join(dir, 'tiny-model');
    writeTinyModel(model, { layers: 1, hidden: 32, vocab: 320, seed: 3 });
    const spec = datasetSpec(3).map((s) => ({ ...s, items: s.items.map((i) => ({ ...i, output_type: 'name' })) }));
    const data = writeDataset(dir, spec);
    out = path.join(dir, 'out');
    const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], {
      LOKAL_MULTILOKO: data, LOKAL_MODEL: `transformers:${model}`, LOKAL_PROMPT: 'chat', LOKAL_CACHE: 'off', LOKAL_OUTPUT: out, LOKAL_THRESHOLDS: 'em>=0.9', LOKAL_REDACT: 'off', LOKAL_MAX_NEW_TOKENS: '8',
    });
    expect(run.code, `${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`).toBe(1);
    results = JSON.parse(readFileSync(path.join(out, 'multiloko.json'), 'utf8'));
    browser = await found.chromium.launch({ executablePath: found.executablePath, args: CHROMIUM_ARGS });
  }, 300_000);
  afterAll(async () => browser?.close());

  test('the verdict line at the top; an item’s question, raw output and prompt as fed, from the run’s records', async () => {
    // The item, from what the run recorded: its question and raw output in the lokal section, its prompt in model_input.
    const id = '001_it.txt';
    const detail = results.lokal.items.italian[id];
    const record = results.italian[id];
    expect(detail.question).toBe('it question 1: which answer is it?\n(second line)');
    expect(typeof detail.raw_prediction).toBe('string');
    const prompt: string = record.model_input.text ?? record.model_input.messages.map((m: Any) => `${m.role}: ${m.content}`).join('\n\n');
    expect(prompt).toContain(detail.question);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e: Error) => errors.push(e.message));
    await page.goto(pathToFileURL(path.join(out, 'report.html')).href, { waitUntil: 'load' });
    // The verdict line is the header's first paragraph after the title and meta, and names the missed gate.
    const verdict = page.locator('header > p.verdict');
    expect(await verdict.getAttribute('data-verdict')).toBe('missed');
    expect(await verdict.textContent()).toMatch(/^✗ 1 of 1 gate missed: /u);
    const top = await verdict.boundingBox();
    expect(top.y).toBeLessThan(200);

    const section = page.locator('#multiloko-items');
    // Italian's own questions (`en-it question 1: …` holds the same words), then the question's text.
    await section.locator('select[data-filter=subset]').selectOption('italian');
    await section.locator('input[type=search]').fill('it question 1:');
    await expect.poll(() => section.locator('tbody tr').count()).toBe(1);
    const row = section.locator('tbody tr');
    expect(await row.locator('td.id').textContent()).toBe(id);
    const cells = await row.locator('td').allInnerTexts();
    expect(cells).toContain(detail.question);
    const output = await row.locator('td').nth(4).textContent();
    // As the page shows text: a model's stray control bytes made visible (escape.ts).
    expect(output).toContain(`raw output ${cleanText(detail.raw_prediction)}`);
    expect(output).toContain(`normalised ${record.prediction === '' ? '(empty)' : cleanText(record.prediction)}`);
    // The prompt is one click away: hidden until its <details> opens, then shown as fed.
    const promptText = row.locator('details.prompt .prompt-text');
    expect(await promptText.isVisible()).toBe(false);
    await row.locator('details.prompt > summary').click();
    await expect.poll(() => promptText.isVisible()).toBe(true);
    expect(await promptText.textContent()).toBe(cleanText(prompt));
    expect(errors).toEqual([]);
    await page.close();
  });
});
