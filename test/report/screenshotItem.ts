// Makes the docs' screenshot of one item in the report (docs/report-item.png): a chat-mode run of an OpenAI-compatible
// server (the toy one, answering from a table) on a few hand-written Italian questions, the report opened in headless
// Chromium, one item found by the search box and its prompt opened. Run: npx tsx test/report/screenshotItem.ts [out.png]
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startFakeOpenAIServer } from '../support/fakeOpenAIServer.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';
import { MULTILOKO_EVAL, REPO_ROOT, runVitest, writeDataset } from '../vitest/helpers.ts';

/** Questions written for the picture (not MultiLoKo's, which stay out of the repository), with the toy's replies. */
const ITEMS = [
  { question: 'Quale pasta fresca si serve tradizionalmente con il ragù a Bologna?', targets: ['tagliatelle'], reply: 'Tagliatelle.' },
  { question: 'In quale città si corre il Palio dell’Assunta il 16 agosto?', targets: ['Siena'], reply: 'Siena' },
  { question: 'Come si chiama il vento freddo da nord-est che soffia su Trieste?', targets: ['bora'], reply: 'Il maestrale.' },
  { question: 'Quale formaggio DOP si produce con latte di bufala in Campania?', targets: ['mozzarella di bufala campana', 'mozzarella di bufala'], reply: 'Mozzarella di bufala campana' },
];

const out = path.resolve(process.argv[2] ?? path.join(REPO_ROOT, 'docs', 'report-item.png'));
const found = await findChromium();
if ('reason' in found) {
  console.error(`screenshot: ${found.reason}`);
  process.exit(1);
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-item-shot-'));
const server = await startFakeOpenAIServer({ answer: (prompt) => ITEMS.find((item) => prompt.includes(item.question))?.reply ?? 'Non lo so.' });
try {
  const items = ITEMS.map((item, i) => ({ id: `${String(i + 1).padStart(3, '0')}_it.txt`, question: item.question, targets: item.targets, output_type: 'name' }));
  const location = writeDataset(dir, [{ key: 'italian', folder: 'italian', fileName: 'dev.jsonl', items }]);
  const output = path.join(dir, 'out');
  const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], {
    LOKAL_MULTILOKO: location, LOKAL_MODEL: 'openai:toy', OPENAI_BASE_URL: server.url, LOKAL_PROMPT: 'chat', LOKAL_CACHE: 'off', LOKAL_OUTPUT: output, LOKAL_REDACT: 'off', LOKAL_THRESHOLDS: 'em>=0.5',
  });
  if (run.code !== 0) throw new Error(`the run failed (exit ${run.code})\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`);
  const browser = await found.chromium.launch({ executablePath: found.executablePath, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(pathToFileURL(path.join(output, 'report.html')).href, { waitUntil: 'load' });
  const section = page.locator('#multiloko-items');
  await section.locator('input[type=search]').fill('Trieste');
  const row = section.locator('tbody tr').first();
  await row.locator('details.prompt > summary').click();
  mkdirSync(path.dirname(out), { recursive: true });
  await section.screenshot({ path: out });
  await browser.close();
  console.log(`wrote ${path.relative(process.cwd(), out)} (${Math.round(statSync(out).size / 1024)} KB)`);
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
