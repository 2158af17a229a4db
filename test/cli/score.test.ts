// `lokal score` end to end through the real bin, on the self-authored fixture and the real Italian archive.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync as makeTempDir, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { lokalBin } from '../support/installedPackage.ts';
import { titleUnless } from '../support/sharedData.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The built package's bin, as users run it (test/support/installedPackage.ts).
const bin = await lokalBin();
const fixture = join(root, 'data/fixtures/multiloko');
const realArchive = join(root, '../shared/data/multiloko/benchmark_data.tar.xz.enc');
const port = join(root, 'bench/eval_port.py');
const hasPython = spawnSync('python3', ['--version']).status === 0;

const tempDirs: string[] = [];
/** A temp folder removed when the file's tests end. */
function mkdtempSync(prefix: string): string {
  const dir = makeTempDir(prefix);
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function lokal(args: string[]) {
  const run = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function writeTemp(name: string, content: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'lokal-score-')), name);
  writeFileSync(file, content);
  return file;
}

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const METRICS = ['em', 'f1', 'bleu', 'chrf', 'edit_distance', 'edit_similarity'];

describe('lokal score on the fixture', () => {
  const predictions = writeTemp(
    'p.jsonl',
    jsonl([
      { language: 'italian', id: '002_po.txt', prediction: 'Il Po' },
      { language: 'italian', id: '001_colosseo.txt', prediction: 'Roma!' },
      { language: 'italian', id: 'no_such_id', prediction: 'x' },
      { language: 'klingon', id: '1', prediction: 'x' },
      { language: 'italian', id: '002_po.txt', prediction: '652 km' },
    ]),
  );

  test('prints the eval.py layout, reports every problem, and scores a missing item as empty', () => {
    const run = lokal(['score', '-d', fixture, '-s', 'dev', '-p', predictions]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out)).toEqual(['italian', 'group_metrics', 'lokal']);
    // Python dict order: 002 first (first seen), its last row wins; then 001; then the missing third item.
    const ids = Object.keys(out.italian).filter((k) => !METRICS.includes(k) && k !== 'edit_distance_first' && k !== 'f1_words');
    expect(ids).toEqual(['002_po.txt', '001_colosseo.txt', '003_repubblica.txt']);
    expect(out.italian['002_po.txt'].prediction).toBe('652 km');
    expect(out.italian['002_po.txt'].em).toBe(1);
    expect(out.italian['001_colosseo.txt'].prediction).toBe('roma');
    expect(out.italian['003_repubblica.txt']).toMatchObject({ prediction: '', em: 0, f1: 0, missing: true });
    // 2 of 3 exact: the mean is a plain fold over the three items.
    expect(out.italian.em).toBe((1 + 1 + 0) / 3);
    expect(out.group_metrics.average_em).toBe(out.italian.em);
    expect(out.group_metrics.gap_em).toBe(0);
    // Beside f1: f1_words per item (Italian words are its whitespace tokens here), their mean and its group figures.
    const items = ['002_po.txt', '001_colosseo.txt', '003_repubblica.txt'].map((id) => out.italian[id]);
    for (const item of items) expect(item.f1_words).toBe(item.f1);
    expect(out.italian.f1_words).toBe((items[0].f1_words + items[1].f1_words + items[2].f1_words) / 3);
    expect(out.group_metrics.average_f1_words).toBe(out.italian.f1_words);
    expect(run.stderr).toMatch(/1 prediction rows name a language not in the dataset: "klingon"/);
    expect(run.stderr).toMatch(/1 prediction rows have an id not in their language: italian\/"no_such_id" \(line 3\)/);
    expect(run.stderr).toMatch(/1 ids are predicted more than once \(the last row wins\): italian\/"002_po.txt" \(lines 1, 5\)/);
    expect(run.stderr).toMatch(/1 dataset items have no prediction: italian\/"003_repubblica.txt"/);
  });

  test('--missing skip leaves the item out as eval.py does; --strict exits 1; -o writes the file', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'lokal-out-')), 'scores.json');
    const run = lokal(['score', '--dataset_location', fixture, '--subset', 'dev', '--predictions', predictions, '--output', out, '--missing', 'skip', '--strict']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const text = readFileSync(out, 'utf8');
    // Written as Python's json.dump writes it: floats keep their `.0`, 4-space indent, non-ASCII unescaped.
    expect(text).toContain('\n            "em": 1.0,\n');
    const result = JSON.parse(text);
    expect(result.italian.em).toBe(1);
    expect(result.italian['003_repubblica.txt']).toBeUndefined();
  });

  test('language folders Intl.Segmenter has no rules for: one line per run names them all, and their f1_words still come', () => {
    const data = mkdtempSync(join(tmpdir(), 'lokal-score-unknown-'));
    for (const folder of ['italian', 'klingon', 'quenya']) {
      mkdirSync(join(data, folder));
      copyFileSync(join(fixture, 'italian', 'dev.jsonl'), join(data, folder, 'dev.jsonl'));
    }
    const rows = ['italian', 'klingon', 'quenya'].map((language) => ({ language, id: '001_colosseo.txt', prediction: 'Roma Italia' }));
    const out = join(data, 'scores.json');
    const run = lokal(['score', '-d', data, '-s', 'dev', '-p', writeTemp('unknown.jsonl', jsonl(rows)), '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    const root = new Intl.Segmenter('und').resolvedOptions().locale;
    expect(run.stderr.split('\n').filter((line) => line.includes('word rules'))).toEqual([
      `lokal score: f1_words segmented with the root locale's word rules (${root}) for klingon (no BCP-47 tag known), quenya (no BCP-47 tag known)`,
    ]);
    // 'roma italia' against the target 'roma': one of two words shared, P = 1/2, R = 1 → F1 = 2/3 (root rules split on the space)
    const result = JSON.parse(readFileSync(out, 'utf8'));
    expect(result.klingon['001_colosseo.txt'].f1_words).toBeCloseTo(2 / 3, 12);
  });

  test('CSV predictions: string ids, translated-subset keys', () => {
    const csv = writeTemp('p.csv', 'language,id,prediction\nitalian_translated_human_english,001_colosseo.txt,"Rome"\n');
    const run = lokal(['score', '-d', fixture, '-s', 'dev', '-p', csv, '--missing', 'skip']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out)).toEqual(['italian_translated_human_english', 'group_metrics', 'lokal']);
  });

  test('bad input exits 2 with file, line and field', () => {
    const bad = writeTemp('bad.jsonl', '{"language": "italian", "id": "001_colosseo.txt"}\n');
    const run = lokal(['score', '-d', fixture, '-s', 'dev', '-p', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('bad.jsonl:1 field "prediction": is missing');
    const usage = lokal(['score', '-d', fixture]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--subset is required');
  });
});

describe.skipIf(!existsSync(realArchive) || !hasPython)(titleUnless(`lokal score on the real Italian set${hasPython ? '' : ' (skipped: no python3 on PATH)'}`, realArchive), () => {
  test('per-item scores and means equal the Python port of eval.py', () => {
    // Predictions: a deterministic mix of exact, truncated and unrelated answers built from the questions.
    const dataset = execFileSync(process.execPath, ['--input-type=module', '-e', `
      import { register } from 'tsx/esm/api'; register();
      const { loadMultiLoKo } = await import(${JSON.stringify(join(root, 'src/benchmarks/multiloko/index.ts'))});
      const d = await loadMultiLoKo(${JSON.stringify(realArchive)}, 'dev');
      process.stdout.write(JSON.stringify(d.subsets[0].items.map(i => ({ id: i.id, question: i.question, targets: i.targets }))));
    `], { cwd: root, maxBuffer: 1 << 26 }).toString();
    const items = JSON.parse(dataset) as Array<{ id: string; question: string; targets: string[] }>;
    expect(items).toHaveLength(250);
    const rows = items.map((item, i) => ({
      language: 'italian',
      id: item.id,
      prediction: i % 3 === 0 ? item.targets[0]! : i % 3 === 1 ? item.targets[0]!.slice(0, -2) : item.question.slice(0, 25),
    }));
    const run = lokal(['score', '-d', realArchive, '-s', 'dev', '-p', writeTemp('p.jsonl', jsonl(rows))]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    const input = rows.map((r, i) => JSON.stringify({ prediction: r.prediction, targets: items[i]!.targets })).join('\n');
    const want = JSON.parse(execFileSync('python3', [port], { input, maxBuffer: 1 << 26 }).toString()).items as Array<Record<string, number>>;
    for (const metric of METRICS) {
      const tolerance = metric === 'bleu' ? 1e-12 : 0;
      rows.forEach((r, i) => expect(Math.abs(out.italian[r.id][metric] - want[i]![metric]!)).toBeLessThanOrEqual(tolerance));
      let sum = 0;
      for (const w of want) sum += w[metric]!; // eval.py: a plain += fold in prediction order, then / count
      expect(Math.abs(out.italian[metric] - sum / want.length)).toBeLessThanOrEqual(tolerance);
    }
    // Every third item (0, 3, …, 249: 84 items) is its first target; a truncated answer may still equal another target.
    expect(out.italian.em).toBeGreaterThanOrEqual(84 / 250);
  });
});

test('a predictions file that is not valid UTF-8 is an error naming the file (Python would raise too)', () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'lokal-utf8-')), 'p.jsonl');
  writeFileSync(file, Buffer.concat([Buffer.from('{"language":"italian","id":"001_colosseo.txt","prediction":"Rom'), Buffer.from([0xff]), Buffer.from('a"}\n')]));
  const run = lokal(['score', '-d', fixture, '-s', 'dev', '-p', file]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(`${file}: is not valid UTF-8 text`);
});
