// `lokal <command> --help` for every command and subcommand (exit 0, that command's usage on stdout, nothing run),
// and a reader that closes the pipe early (`lokal score … | head -1`) ends the command quietly, without an EPIPE stack.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { COMMAND_NAMES, COMMAND_USAGE } from '../../src/cli/index.ts';
import { datasetSpec, predictionsFor, writeDataset, writeJsonl } from '../vitest/helpers.ts';
import { lokalBin } from '../support/installedPackage.ts';

// The built package's bin, as users run it (test/support/installedPackage.ts).
const bin = await lokalBin();
const dir = mkdtempSync(path.join(tmpdir(), 'lokal-help-pipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lokal(args: string[]) {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('lokal <command> --help', () => {
  // Each command line and the first line of its usage: the options the command's own parser knows.
  const cases: Array<[string[], RegExp]> = [
    [['score'], /^usage: lokal score -d <dataset dir\|\.enc archive> -s <split> -p <predictions \.jsonl\|\.csv> \[-o <out\.json>\]\n/u],
    [['kalahi'], /^usage: lokal kalahi score -i <kalahi csv> -r <responses\.jsonl> \[-o <out\.json>\] \[--chrfpp\]\n/u],
    [['kalahi', 'score'], /^usage: lokal kalahi score -i <kalahi csv> -r <responses\.jsonl> \[-o <out\.json>\] \[--chrfpp\]\n/u],
    [['data'], /^usage: lokal data fetch \[--dir data\] \[--only multiloko\|kalahi\]\n/u],
    [['data', 'fetch'], /^usage: lokal data fetch \[--dir data\] \[--only multiloko\|kalahi\]\n/u],
    [['compare'], /^usage: lokal compare \[name=\]<results\.json\|results folder> /u],
    [['doctor'], /^usage: lokal doctor \[--model <provider string>\]\n/u],
    [['init'], /^usage: lokal init \[--ci github\] \[--shards <n>\] \[--items-per-second <r>\]\n/u],
    [['plan'], /^usage: lokal plan \[--shards <n>\] \[--items-per-second <r>\] \[--tokenizer <folder>\]\n/u],
  ];
  for (const [words, usage] of cases) {
    for (const flag of ['--help', '-h']) {
      test(`lokal ${words.join(' ')} ${flag}`, () => {
        const run = lokal([...words, flag]);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(usage);
      });
    }
  }

  test('every command has its usage, and each is in the list above', () => {
    const named = new Set(cases.map(([words]) => words[0]));
    for (const name of COMMAND_NAMES) {
      expect(named.has(name), `lokal ${name} --help is tested`).toBe(true);
      expect(Object.keys(COMMAND_USAGE).some((key) => key.split(' ')[0] === name), `usage of ${name}`).toBe(true);
    }
  });

  test('--help wins over missing or other arguments, and the command does not run', () => {
    // Without --help these fail (required options missing; a folder that does not exist).
    expect(lokal(['kalahi', 'score', '-i', 'nowhere.csv']).code).toBe(2);
    const help = lokal(['kalahi', 'score', '-i', 'nowhere.csv', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: lokal kalahi score /u);
    const score = lokal(['score', '-d', path.join(dir, 'nowhere'), '--help']);
    expect([score.code, score.stderr]).toEqual([0, '']);
    expect(score.stdout).toMatch(/^usage: lokal score /u);
  });

  test('lokal --help points to the per-command help', () => {
    expect(lokal(['--help']).stdout).toMatch(/^usage: lokal <command> \[options\] +\(lokal <command> --help for one command\)\n/u);
  });
});

test('lokal score … | head -1: the command ends quietly when the reader closes the pipe', async () => {
  // 6 subsets × 600 items: about 1.4 MB of JSON, far beyond a pipe's buffer, so the writer meets the closed pipe.
  const subsets = datasetSpec(600);
  const dataset = writeDataset(dir, subsets);
  const predictions = path.join(dir, 'predictions.jsonl');
  writeJsonl(predictions, predictionsFor(subsets));
  const child = spawn(process.execPath, [bin, 'score', '-d', dataset, '-s', 'dev', '-p', predictions], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let first = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d: Buffer) => {
    first += d.toString('utf8');
    // Like head -1: the first line, then the read end closes.
    if (first.includes('\n')) child.stdout.destroy();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  expect(first.split('\n')[0]).toBe('{');
  expect(stderr).toBe('');
  expect(code).toBe(0);
}, 60_000);
