// Makes the README's screenshot of the report (docs/report.png): a 250-item replay run against a baseline with a few
// items flipped, rendered, opened in headless Chromium. Run: npx tsx test/report/screenshot.ts [out.png]
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderHtmlReport } from '../../src/report/index.ts';
import { CHROMIUM_ARGS, findChromium } from './browser.ts';
import { flipItems, haveKalahiData, kalahiReplayRun, multilokoReplayRun } from './fixtures.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';
import { SECTIONS } from './sections.ts';

const out = path.resolve(process.argv[2] ?? path.join(REPO_ROOT, 'docs', 'report.png'));
const found = await findChromium();
if ('reason' in found) {
  console.error(`screenshot: ${found.reason}`);
  process.exit(1);
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-report-shot-'));
try {
  const results = await multilokoReplayRun(path.join(dir, 'multiloko'), 250, 'em>=0.45,gap<=0.10,italian.em>=0.5');
  const kalahi = haveKalahiData ? await kalahiReplayRun(path.join(dir, 'kalahi'), 20) : undefined;
  const ids = Object.keys(results.italian as object).filter((id) => typeof (results.italian as Record<string, unknown>)[id] === 'object');
  const baseline = flipItems(results, ids.slice(0, 14).map((id) => ({ subset: 'italian', id })));
  // Short model names instead of the temporary folder's paths, for a readable picture.
  results.summary!.model = 'replay:predictions.jsonl';
  baseline.summary!.model = 'replay:baseline-predictions.jsonl';
  for (const v of Object.values(kalahi?.variants ?? {})) v.model = 'replay:kalahi-replies.jsonl';
  const file = path.join(dir, 'report.html');
  writeFileSync(file, await renderHtmlReport({ benchmarks: { multiloko: results, ...(kalahi ? { kalahi } : {}) }, baseline: { benchmarks: { multiloko: baseline } } }, SECTIONS));
  const browser = await found.chromium.launch({ executablePath: found.executablePath, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1100, height: 1000 }, deviceScaleFactor: 1 });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1100, height: 1000 } });
  await browser.close();
  console.log(`wrote ${path.relative(process.cwd(), out)} (${Math.round(statSync(out).size / 1024)} KB)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
