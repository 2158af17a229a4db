// Kalahi with LOKAL_REDACT=on: a child evals run (generated tiny model, both tasks, first 3 prompts of the full
// variant, learned metrics off, strict) writes and prints none of those prompts' texts, topics or answers.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadKalahi } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { REPO_ROOT, runVitest } from '../vitest/helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

const DATA = path.resolve(REPO_ROOT, '../shared/data/kalahi');
const haveData = existsSync(path.join(DATA, 'filipino.csv'));
const dir = mkdtempSync(path.join(tmpdir(), 'lokal-kalahi-redaction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const file = path.join(root, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

describe.skipIf(!haveData)(titleUnless('Kalahi redaction', path.join(DATA, 'filipino.csv')), () => {
  test('no prompt, topic, best, relevant or irrelevant answer of the data in any file the run writes or in its output', async () => {
    const model = path.join(dir, 'tiny');
    writeTinyModel(model, { seed: 3 });
    const rows = (await loadKalahi(DATA, 'full')).rows.slice(0, 3);
    const out = path.join(dir, 'out');
    const run = await runVitest(
      ['run', '--project', 'evals', 'evals/kalahi.eval.ts', '--reporter=default', '--reporter=./reporters/lokal-reporter.ts', '--reporter=json', `--outputFile.json=${path.join(out, 'vitest.json')}`, '--reporter=junit', `--outputFile.junit=${path.join(out, 'junit.xml')}`],
      { LOKAL_MODEL: `transformers:${model}`, LOKAL_KALAHI: DATA, LOKAL_CACHE: 'off', LOKAL_LIMIT: '3', LOKAL_OUTPUT: out, LOKAL_BERTSCORE_MODEL: 'off', LOKAL_BLEURT_MODEL: 'off', LOKAL_STRICT: '1', LOKAL_REDACT: 'on' },
    );
    const texts = new Map([['stdout', run.stdout], ['stderr', run.stderr], ...filesUnder(out).map((f) => [f, readFileSync(f, 'utf8')] as [string, string])]);
    expect([...texts.keys()].map((f) => path.basename(f))).toEqual(expect.arrayContaining(['kalahi.json', 'report.html', 'junit.xml', 'vitest.json']));
    // Texts long enough that a hit can only be the data (short answers such as "Oo" occur in ordinary words).
    const needles = rows.flatMap((r) => [r.prompt, r.topic, r.bestAnswer, ...r.relevantAnswers, ...r.irrelevantAnswers]).map((t) => t.trim()).filter((t) => t.length >= 12);
    expect(needles.length).toBeGreaterThan(6);
    const leaks = [...texts].flatMap(([where, text]) => needles.filter((n) => text.includes(n) || text.includes(JSON.stringify(n).slice(1, -1))).map((n) => `${path.basename(where)}: ${n}`));
    expect(leaks).toEqual([]);
    expect(run.stdout).toContain('lokal: Kalahi redacted (LOKAL_REDACT=on)');
    const results = JSON.parse(texts.get(path.join(out, 'kalahi.json'))!);
    expect(results.variants.full.records[0].mc.references[0].text).toMatch(/^sha256:[0-9a-f]{12}$/u);
  }, 240_000);
});
