// `lokal score` on worker threads: the same output, byte for byte, as scoring on the main thread alone, on a generated
// set in several scripts (duplicates, missing items, numeric ids, a prediction past chrF's cap); and a metric failing
// inside a worker reported with the file:line message the single-thread path gives.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { loadMultiLoKo, type MultiLoKoDataset } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import { readPredictions } from '../../src/models/predictions.ts';
import type { PredictionRow } from '../../src/models/predictionRow.ts';
import { scoreMultiLoKoPredictions, scoreMultiLoKoPredictionsOnThreads, scoreOutputJson } from '../../src/benchmarks/multiloko/metrics/score.ts';
import { ScoreThreads } from '../../src/benchmarks/multiloko/metrics/scoreThreads.ts';
import { CHRF_MAX_HYPOTHESIS_CODE_POINTS } from '../../src/metrics/chrfScore.ts';
import { seededRandom } from '../support/seededRandom.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin/lokal.js');
const WORKER = new URL('../../src/cli/scoreWorker.ts', import.meta.url);

const dir = mkdtempSync(join(tmpdir(), 'lokal-score-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Answers in six scripts, with punctuation, articles and mixed case for the normaliser to work on.
const ANSWERS: Record<string, string[][]> = {
  italian: [['Roma', 'la città di Roma'], ['Il Po'], ['25 ottobre 2010', '2010-10-25'], ["L'Aquila"]],
  simplified_mandarin: [['北京', '北京市'], ['长江'], ['1949年10月1日']],
  arabic: [['القاهرة'], ['نهر النيل', 'النيل'], ['١٩٥٢']],
  hindi: [['नई दिल्ली', 'दिल्ली'], ['गंगा नदी']],
  thai: [['กรุงเทพมหานคร', 'กรุงเทพฯ'], ['แม่น้ำเจ้าพระยา']],
  russian: [['Москва'], ['Волга', 'река Волга'], ['The Hermitage']],
};

/** A prediction of some kind: exact, with an article and punctuation, an extra word, unrelated, empty, or a word salad. */
function predictionFor(targets: string[], random: () => number): string {
  const kind = Math.floor(random() * 6);
  const first = targets[0]!;
  if (kind === 0) return first;
  if (kind === 1) return `The ${first.toUpperCase()}!`;
  if (kind === 2) return `${first} circa, the answer is ${targets.at(-1)!}`;
  if (kind === 3) return 'non lo so — ¿quién sabe?';
  if (kind === 4) return '';
  return Array.from({ length: 3 + Math.floor(random() * 30) }, () => targets[Math.floor(random() * targets.length)]!.split('')).flat().join(random() < 0.5 ? ' ' : '');
}

/** The dataset folder and a predictions file: every language's items, some predicted twice, some not at all. */
function writeSet(): { dataset: string; predictions: string } {
  const random = seededRandom(21);
  const dataset = join(dir, 'benchmark_data');
  const rows: string[] = [];
  for (const [language, answers] of Object.entries(ANSWERS)) {
    mkdirSync(join(dataset, language), { recursive: true });
    const items: string[] = [];
    for (let i = 0; i < 120; i++) {
      // Numeric ids in one language, as JSON numbers on both sides.
      const id = language === 'thai' ? 1000 + i : `${String(i).padStart(3, '0')}_${language}.txt`;
      const targets = answers[i % answers.length]!;
      items.push(JSON.stringify({ id, question: `Question ${i}?`, targets }));
      if (i % 17 === 5) continue; // no prediction: scored as ''
      rows.push(JSON.stringify({ language, id, prediction: predictionFor(targets, random) }));
      if (i % 23 === 7) rows.push(JSON.stringify({ language, id, prediction: predictionFor(targets, random) })); // the last row wins
    }
    writeFileSync(join(dataset, language, 'dev.jsonl'), `${items.join('\n')}\n`);
  }
  // One runaway prediction: chrF reads only its first CHRF_MAX_HYPOTHESIS_CODE_POINTS code points (`truncated`).
  rows.push(JSON.stringify({ language: 'italian', id: '001_italian.txt', prediction: 'roma '.repeat(CHRF_MAX_HYPOTHESIS_CODE_POINTS / 5 + 3) }));
  const predictions = join(dir, 'predictions.jsonl');
  writeFileSync(predictions, `${rows.join('\n')}\n`);
  return { dataset, predictions };
}

const { dataset: datasetDir, predictions } = writeSet();

describe('scoring on worker threads', () => {
  test('gives the single-thread output byte for byte, with the main thread helping and with the workers alone', { timeout: 120_000 }, async () => {
    const dataset = await loadMultiLoKo(datasetDir, 'dev');
    const rows = await readPredictions(predictions);
    const single = scoreOutputJson(scoreMultiLoKoPredictions(dataset, rows));
    // The set has what the comparison must cover: a truncated chrF, missing items and duplicates.
    expect(single).toContain('"truncated": true');
    expect(single).toContain('"missing": true');
    expect(JSON.parse(single).lokal.problems.duplicates.length).toBeGreaterThan(0);
    expect(Object.keys(JSON.parse(single))).toEqual([...Object.keys(ANSWERS), 'group_metrics', 'lokal']);

    const helped = await scoreMultiLoKoPredictionsOnThreads(dataset, rows, new ScoreThreads(WORKER, 2));
    expect(scoreOutputJson(helped)).toBe(single);
    const workersOnly = await scoreMultiLoKoPredictionsOnThreads(dataset, rows, new ScoreThreads(WORKER, 1), { mainThread: false });
    expect(scoreOutputJson(workersOnly)).toBe(single);
  });

  test('lokal score --threads 3 writes the file --threads 1 writes', { timeout: 120_000 }, () => {
    const outputs = [1, 3].map((threads) => {
      const out = join(dir, `scores-${threads}.json`);
      const run = spawnSync(process.execPath, [bin, 'score', '-d', datasetDir, '-s', 'dev', '-p', predictions, '-o', out, '--threads', String(threads)], { cwd: root, encoding: 'utf8' });
      expect(run.stderr).toContain(`lokal score: wrote ${out}`);
      expect(run.status).toBe(0);
      return readFileSync(out, 'utf8');
    });
    expect(outputs[1]).toBe(outputs[0]);
    const usage = spawnSync(process.execPath, [bin, 'score', '-d', datasetDir, '-s', 'dev', '-p', predictions, '--threads', '0'], { cwd: root, encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--threads must be a whole number from 1 to 64, not "0"');
  });

  test('a metric failing inside a worker is reported as on one thread: the predictions file, line, language and id', { timeout: 120_000 }, async () => {
    const loaded = await loadMultiLoKo(datasetDir, 'dev');
    // No loader lets an item without targets through; here one is made so, after loading, to make a metric fail.
    const broken: MultiLoKoDataset = {
      ...loaded,
      subsets: loaded.subsets.map((s) => (s.key === 'russian' ? { ...s, items: s.items.map((item) => (item.id === '002_russian.txt' ? { ...item, targets: [] } : item)) } : s)),
    };
    const rows: PredictionRow[] = await readPredictions(predictions);
    const line = rows.filter((r) => r.language === 'russian' && r.id === '002_russian.txt').at(-1)!.line;
    const expected = `${predictions}:${line}: russian/"002_russian.txt": scoreExample: targets is empty (the reference raises ValueError from max() over no targets)`;
    const options = { predictionsFile: predictions };
    expect(() => scoreMultiLoKoPredictions(broken, rows, options)).toThrow(expected);
    await expect(scoreMultiLoKoPredictionsOnThreads(broken, rows, new ScoreThreads(WORKER, 1), { ...options, mainThread: false })).rejects.toThrow(expected);
    await expect(scoreMultiLoKoPredictionsOnThreads(broken, rows, new ScoreThreads(WORKER, 2), options)).rejects.toThrow(expected);
  });

  test('a worker that cannot start is reported when the scoring waits for it, not as an uncaught error while the files are read', { timeout: 60_000 }, async () => {
    const dataset = await loadMultiLoKo(datasetDir, 'dev');
    const rows = await readPredictions(predictions);
    const threads = new ScoreThreads(new URL('./no-such-worker.js', WORKER), 1);
    // Time for the worker to fail before anything listens for its reply.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await expect(scoreMultiLoKoPredictionsOnThreads(dataset, rows, threads)).rejects.toThrow(/lokal score: a scoring thread (failed|exited)/);
  });
});
