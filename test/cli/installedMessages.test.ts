// Messages of the installed package name files a user has and commands a user can run: the `lokal` bin of the built
// package in a user's project (test/support/installedPackage.ts), run from the project's folder.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { lokalBin, userEnvironment } from '../support/installedPackage.ts';

const LOKAL_BIN = await lokalBin();
// <project>/node_modules/vitest-lokal/bin/lokal.js
const PROJECT = path.resolve(LOKAL_BIN, '../../../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-installed-messages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lokal(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [LOKAL_BIN, ...args], { cwd: PROJECT, encoding: 'utf8', env: { ...userEnvironment(), ...env } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The package paths a message names, each of which must exist from the project's folder. */
const namedPaths = (text: string) => [...text.matchAll(/node_modules\/vitest-lokal\/[^\s),;]+/gu)].map((m) => m[0]);

describe('messages of the installed package', () => {
  test('lokal doctor without a model and without the default one: every provider, a page the user has, no checkout script', () => {
    const emptyCache = path.join(dir, 'empty-model-cache');
    mkdirSync(emptyCache);
    const run = lokal(['doctor'], { LOKAL_OFFLINE: '1', LOKAL_MODEL_CACHE: emptyCache });
    expect(run.code, run.stderr).toBe(2);
    for (const provider of ['replay:<predictions', 'openai:<model> with OPENAI_BASE_URL', 'transformers:<folder>', 'llama:<file.gguf>', 'LOKAL_MODEL_DIR']) expect(run.stderr, provider).toContain(provider);
    expect(run.stderr).toContain('(providers: node_modules/vitest-lokal/docs/models.md)');
    expect(run.stderr).not.toContain('make:tiny-model');
    for (const file of namedPaths(run.stderr)) expect(existsSync(path.join(PROJECT, file)), file).toBe(true);
  });

  test('a misspelt variable points at the settings page in node_modules', () => {
    const run = lokal(['doctor'], { LOKAL_THRESHOLD: 'em>=0.3' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('LOKAL_THRESHOLD: unknown variable; did you mean LOKAL_THRESHOLDS? (the table of LOKAL_* variables is in node_modules/vitest-lokal/docs/settings.md)');
    for (const file of namedPaths(run.stderr)) expect(existsSync(path.join(PROJECT, file)), file).toBe(true);
  });

  test("a learned metric's model folder without its files points at MODELS.md in node_modules", () => {
    const csv = path.join(dir, 'filipino.csv');
    writeFileSync(csv, 'prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers\n0101000100,01010001,ethics,career,"Anong gagawin ko?",Mag-aral,Mag-aral;Magtanong,Tumigil;Maglaro\n');
    const responses = path.join(dir, 'responses.jsonl');
    writeFileSync(responses, `${JSON.stringify({ prompt_variation_id: '0101000100', response: 'Mag-aral' })}\n`);
    const notAModel = path.join(dir, 'not-a-model');
    mkdirSync(notAModel);
    const run = lokal(['kalahi', 'score', '-i', csv, '-r', responses, '-o', path.join(dir, 'out.json')], { LOKAL_BLEURT_MODEL: notAModel, LOKAL_BERTSCORE_MODEL: 'off', LOKAL_OFFLINE: '1' });
    const text = `${run.stdout}\n${run.stderr}`;
    expect(text).toContain(`${notAModel} has no config.json: expected a transformers.js model folder (see node_modules/vitest-lokal/src/models/encoders/MODELS.md)`);
    expect(namedPaths(text).length).toBeGreaterThan(0);
    for (const file of namedPaths(text)) expect(existsSync(path.join(PROJECT, file)), file).toBe(true);
  });
});
