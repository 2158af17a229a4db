// No setting may destroy a file that is not the run's own output: LOKAL_REPORT naming the predictions file, a results
// file or a dataset file (directly or through a symlink), or a folder, stops a child Vitest run at start naming the
// setting, and the file is left byte for byte; `lokal score -o`, `lokal kalahi score -o` and `lokal compare -o` equal
// to an input are refused before any work. A report path that names nothing of the run still works (the control).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { REPO_ROOT, runVitest } from './helpers.ts';
import { requireSeparateOutputs } from '../../src/run/runFiles.ts';
import { BENCHMARKS } from '../../src/benchmarks/index.ts';
import { resolveSettingsTree } from '../../src/core/settings.ts';
import { capitals } from '../toy/toyBenchmark.ts';
import { lokalBin } from '../support/installedPackage.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-output-clash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CONFIG = 'test/toy/vitest.config.ts';
const REPLIES = { 1: 'Rome', 2: 'Paris', 3: 'Madrid', 4: 'Tokyo', 5: 'Kathmandu' };
const PREVIOUS = `${JSON.stringify({ benchmark: 'toy', note: 'a complete earlier run' })}\n`;

let n = 0;
function setUp(): { base: string; output: string; predictions: string; predictionsText: string } {
  const base = path.join(dir, `run${n++}`);
  const output = path.join(base, 'out');
  mkdirSync(output, { recursive: true });
  writeFileSync(path.join(output, 'toy.json'), PREVIOUS);
  const predictions = path.join(base, 'replies.jsonl');
  const predictionsText = Object.entries(REPLIES).map(([id, prediction]) => JSON.stringify({ language: 'toy', id: Number(id), prediction })).join('\n') + '\n';
  writeFileSync(predictions, predictionsText);
  return { base, output, predictions, predictionsText };
}

/** The reporter's start-of-run check of the toy config's run (test/toy/vitest.config.ts: the built-in benchmarks and capitals) with toyRun's settings. */
function startCheck(output: string, predictions: string, env: Record<string, string>): void {
  const benchmarks = [...BENCHMARKS.filter((b) => b.name !== capitals.name), capitals];
  const settings = { LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: output, LOKAL_CACHE: 'off', ...env };
  const tree = resolveSettingsTree(benchmarks.map((b) => b.settings), {}, { cwd: REPO_ROOT, env: settings });
  requireSeparateOutputs(tree, benchmarks, REPO_ROOT, settings);
}

async function toyRun(output: string, predictions: string, env: Record<string, string>) {
  const run = await runVitest(['run', '--config', CONFIG], { LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: output, LOKAL_CACHE: 'off', ...env });
  return { ...run, show: `${run.stdout}\n${run.stderr}` };
}

describe('LOKAL_REPORT naming a file of the run', () => {
  test('the predictions file: refused at start naming the setting, the file untouched, no test ran', { timeout: 120_000 }, async () => {
    const { output, predictions, predictionsText } = setUp();
    const run = await toyRun(output, predictions, { LOKAL_REPORT: predictions });
    expect(run.code, run.show).toBe(1);
    expect(run.show).toContain(`LOKAL_REPORT (setting "report"): ${predictions} is the predictions file of LOKAL_MODEL: writing the HTML report there would replace it`);
    expect(run.show).not.toMatch(/Tests +\d+ passed/u);
    expect(readFileSync(predictions, 'utf8')).toBe(predictionsText);
    expect(readFileSync(path.join(output, 'toy.json'), 'utf8')).toBe(PREVIOUS);
  });

  // The three cases below go through the same start-of-run check (requireSeparateOutputs, called by the reporter
  // before any worker starts) as the child run above, which shows that a refusal stops the run with exit 1 before
  // anything is written; so they call that check in process with the settings the child run would read.
  test("a results file of the run, through a symlink: refused, the results file untouched", () => {
    const { base, output, predictions } = setUp();
    const link = path.join(base, 'report-link.html');
    symlinkSync(path.join(output, 'toy.json'), link);
    expect(() => startCheck(output, predictions, { LOKAL_REPORT: link })).toThrow(`LOKAL_REPORT (setting "report"): ${link} is also the Capitals (toy) results file: the run would write both to one file`);
    expect(readFileSync(path.join(output, 'toy.json'), 'utf8')).toBe(PREVIOUS);
  });

  test('a dataset file inside LOKAL_MULTILOKO: refused, the dataset file untouched', () => {
    const { base, output, predictions } = setUp();
    const data = path.join(base, 'multiloko');
    cpSync(path.join(REPO_ROOT, 'data/fixtures/multiloko'), data, { recursive: true });
    const datasetFile = path.join(data, 'italian', 'dev.jsonl');
    const before = readFileSync(datasetFile, 'utf8');
    expect(() => startCheck(output, predictions, { LOKAL_MULTILOKO: data, LOKAL_REPORT: datasetFile })).toThrow(`LOKAL_REPORT (setting "report"): ${datasetFile} is a file of the MultiLoKo data (${data}): writing the HTML report there would replace it`);
    expect(readFileSync(datasetFile, 'utf8')).toBe(before);
  });

  test('a folder: refused at start naming the setting; nothing written beside the folder', () => {
    const { base, output, predictions } = setUp();
    const folder = path.join(base, 'reports');
    mkdirSync(folder);
    expect(() => startCheck(output, predictions, { LOKAL_REPORT: folder })).toThrow(`LOKAL_REPORT (setting "report"): ${folder}: is a folder; give a file name (such as ${path.join(folder, 'report.html')}) or off`);
    expect(readdirSync(base).sort()).toEqual(['out', 'replies.jsonl', 'reports']);
    expect(readdirSync(folder)).toEqual([]);
  });

  test('control: a report path that is nothing of the run is accepted and the run passes', { timeout: 120_000 }, async () => {
    const { base, output, predictions } = setUp();
    const run = await toyRun(output, predictions, { LOKAL_REPORT: path.join(base, 'elsewhere', 'report.html') });
    expect(run.code, run.show).toBe(0);
    expect(JSON.parse(readFileSync(path.join(output, 'toy.json'), 'utf8')).continents.asia.records).toHaveLength(2);
  });
});

// The built package's bin, as users run it (test/support/installedPackage.ts).
const bin = await lokalBin();
function lokal(args: string[]) {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, LOKAL_BERTSCORE_MODEL: 'off', LOKAL_BLEURT_MODEL: 'off' } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('a command whose -o is one of its inputs', () => {
  const fixture = path.join(REPO_ROOT, 'data/fixtures/multiloko');
  const predictionsText = `${JSON.stringify({ language: 'italian', id: 'x', prediction: 'Roma' })}\n`;

  test('lokal score -o equal to -p: refused before scoring, the predictions untouched', () => {
    const { base } = setUp();
    const predictions = path.join(base, 'p.jsonl');
    writeFileSync(predictions, predictionsText);
    const run = lokal(['score', '-d', fixture, '-s', 'dev', '-p', predictions, '-o', predictions]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`lokal score: --output ${predictions} is the predictions file (-p): writing the output there would replace it; give another file name`);
    expect(readFileSync(predictions, 'utf8')).toBe(predictionsText);
  });

  test('lokal score -o equal to a dataset file under -d: refused, the dataset file untouched', () => {
    const { base } = setUp();
    const data = path.join(base, 'multiloko');
    cpSync(fixture, data, { recursive: true });
    const predictions = path.join(base, 'p.jsonl');
    writeFileSync(predictions, predictionsText);
    const datasetFile = path.join(data, 'italian', 'dev.jsonl');
    const before = readFileSync(datasetFile, 'utf8');
    const run = lokal(['score', '-d', data, '-s', 'dev', '-p', predictions, '-o', datasetFile]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`${datasetFile} is a file of the dataset (-d) (${data})`);
    expect(readFileSync(datasetFile, 'utf8')).toBe(before);
  });

  test('lokal kalahi score -o equal to -r: refused, the responses untouched', () => {
    const { base } = setUp();
    const csv = path.join(base, 'filipino.csv');
    writeFileSync(csv, 'prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers\n0101000100,01010001,ethics,career,"Ano?",Mag-aral,Mag-aral;Magtanong,Tumigil\n');
    const responses = path.join(base, 'r.jsonl');
    const text = `${JSON.stringify({ prompt_variation_id: '0101000100', response: 'Mag-aral' })}\n`;
    writeFileSync(responses, text);
    const run = lokal(['kalahi', 'score', '-i', csv, '-r', responses, '-o', responses]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`--output ${responses} is the responses file (-r)`);
    expect(readFileSync(responses, 'utf8')).toBe(text);
  });

  test('lokal compare -o equal to a run given as a file, or to the results file in a run given as a folder: refused', () => {
    const { base } = setUp();
    const a = path.join(base, 'a.json');
    const folder = path.join(base, 'b');
    mkdirSync(folder);
    const results = JSON.stringify({ italian: { x: { em: 1, f1: 1 } }, em: 1, f1: 1 });
    writeFileSync(a, results);
    writeFileSync(path.join(folder, 'multiloko.json'), results);
    const onFile = lokal(['compare', a, folder, '-o', a]);
    expect(onFile.code, onFile.stderr).toBe(2);
    expect(onFile.stderr).toContain(`--output ${a} is a run being compared`);
    expect(readFileSync(a, 'utf8')).toBe(results);
    const inFolder = lokal(['compare', a, folder, '-o', path.join(folder, 'multiloko.json')]);
    expect(inFolder.code, inFolder.stderr).toBe(2);
    expect(inFolder.stderr).toContain(`is a run being compared (${folder})`);
    expect(readFileSync(path.join(folder, 'multiloko.json'), 'utf8')).toBe(results);
    expect(existsSync(path.join(base, 'compare.html'))).toBe(false);
  });
});
