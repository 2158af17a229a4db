// The `lokal` command on bad input: nothing scored is exit 2 with the count (also for Kalahi), an empty predictions
// file says so, `-o` that cannot be written fails before any work (no temporary file left), and long lists in
// messages are summarised.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { lokalBin } from '../support/installedPackage.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The built package's bin, as users run it (test/support/installedPackage.ts).
const bin = await lokalBin();
const fixture = path.join(root, 'data/fixtures/multiloko');
const dir = mkdtempSync(path.join(tmpdir(), 'lokal-cli-hard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lokal(args: string[]) {
  const env = { ...process.env, LOKAL_BERTSCORE_MODEL: 'off', LOKAL_BLEURT_MODEL: 'off' };
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', env });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

let n = 0;
function file(name: string, content: string): string {
  const sub = path.join(dir, `c${n++}`);
  mkdirSync(sub);
  const target = path.join(sub, name);
  writeFileSync(target, content);
  return target;
}

const HEADER = 'prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers';
const CSV = `${HEADER}\n0101000100,01010001,ethics,career,"Ano?",Mag-aral,Mag-aral;Magtanong,Tumigil\n0202000100,02020001,food,adobo,"Ano?",Ulam,Ulam;Pagkain,Tinapay\n`;

describe('lokal kalahi score', () => {
  test('no response matching a prompt: exit 2 with the counts, nothing printed as a result', () => {
    const csv = file('filipino.csv', CSV);
    const replies = file('r.jsonl', `${JSON.stringify({ prompt_variation_id: '9', response: 'x' })}\n${JSON.stringify({ prompt_variation_id: '101000100', response: 'y' })}\n`);
    const run = lokal(['kalahi', 'score', '-i', csv, '-r', replies]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `lokal kalahi: ${replies}: none of its 2 responses matches a prompt of ${csv} (2 prompts); unknown prompt_variation_id: "9" (line 1), "101000100" (line 2)\n`,
    );
  });

  test('a header-only CSV: exit 2 saying it is empty', () => {
    const csv = file('filipino.csv', `${HEADER}\n`);
    const replies = file('r.jsonl', `${JSON.stringify({ prompt_variation_id: '0101000100', response: 'x' })}\n`);
    const run = lokal(['kalahi', 'score', '-i', csv, '-r', replies]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${csv}: is empty: it has a header row but no prompt rows`);
  });

  test('an empty responses file: exit 2 saying it is empty', () => {
    const run = lokal(['kalahi', 'score', '-i', file('filipino.csv', CSV), '-r', file('r.jsonl', '')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/r\.jsonl: is empty: no responses/);
  });
});

describe('lokal score', () => {
  test('an empty predictions file names the file and says it is empty', () => {
    const predictions = file('p.jsonl', '\n');
    const run = lokal(['score', '-d', fixture, '-s', 'dev', '-p', predictions]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${predictions}: is empty: no prediction rows`);
  });

  test('-o naming a folder fails at start (nothing scored, no temporary file left)', () => {
    const predictions = file('p.jsonl', `${JSON.stringify({ language: 'italian', id: '001_colosseo.txt', prediction: 'Roma' })}\n`);
    const out = path.join(dir, `out${n++}`);
    mkdirSync(out);
    const run = lokal(['score', '-d', fixture, '-s', 'dev', '-p', predictions, '-o', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--output ${out}: is a folder (EISDIR); give a file name`);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('-o under a path that is a file fails at start naming it', () => {
    const predictions = file('p.jsonl', `${JSON.stringify({ language: 'italian', id: '001_colosseo.txt', prediction: 'Roma' })}\n`);
    const plain = file('plain.txt', '');
    const run = lokal(['score', '-d', fixture, '-s', 'dev', '-p', predictions, '-o', path.join(plain, 'scores.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--output ${path.join(plain, 'scores.json')}: cannot be written (ENOTDIR)`);
  });

  test('thousands of duplicate rows: one short line with the count and the first few lines', () => {
    const row = `${JSON.stringify({ language: 'italian', id: '001_colosseo.txt', prediction: 'Roma' })}\n`;
    const run = lokal(['score', '-d', fixture, '-s', 'dev', '-p', file('p.jsonl', row.repeat(5000))]);
    expect(run.code).toBe(0);
    const line = run.stderr.split('\n').find((l) => l.includes('predicted more than once'))!;
    expect(line).toBe('lokal score: 1 ids are predicted more than once (the last row wins): italian/"001_colosseo.txt" (lines 1, 2, 3, 4, 5, … (4995 more))');
  });
});
