// Dataset ids eval.py's results layout cannot hold — `__proto__`, and the keys of a language's means (`em`, `f1`, …)
// — are an error naming the file, line and field, in the loader (so in a Vitest run and in `lokal score` alike),
// never an item silently dropped or overwritten by a mean.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import { DataError } from '../../src/data/errors.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';
import { lokalBin } from '../support/installedPackage.ts';

// The built package's bin, as users run it (test/support/installedPackage.ts).
const LOKAL_BIN = await lokalBin();

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-reserved-ids-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function dataset(ids: Array<string | number>): { root: string; file: string } {
  const root = path.join(dir, `d${n++}`, 'benchmark_data');
  mkdirSync(path.join(root, 'italian'), { recursive: true });
  const file = path.join(root, 'italian', 'dev.jsonl');
  writeFileSync(file, ids.map((id, i) => JSON.stringify({ id, question: `q${i}?`, targets: [`t${i}`] })).join('\n') + '\n');
  return { root, file };
}

describe('a dataset id eval.py cannot hold', () => {
  for (const id of ['__proto__', 'em', 'f1', 'edit_distance_first']) {
    test(`${JSON.stringify(id)}: DataError naming the file, line 2 and the id field`, async () => {
      const { root } = dataset(['001.txt', id, '003.txt']);
      const error = await loadMultiLoKo(root, 'dev').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DataError);
      expect((error as DataError).line).toBe(2);
      expect((error as DataError).field).toBe('id');
      expect((error as Error).message).toMatch(/italian\/dev\.jsonl:2 field "id": id ".+" cannot be written in eval\.py's results layout/u);
    });
  }

  test('lokal score on such a dataset exits 2 with that line (nothing scored and silently lost)', () => {
    const { root } = dataset(['001.txt', 'em']);
    const predictions = path.join(dir, 'p.jsonl');
    writeFileSync(predictions, `${JSON.stringify({ language: 'italian', id: 'em', prediction: 't1' })}\n`);
    const run = spawnSync(process.execPath, [LOKAL_BIN, 'score', '-d', root, '-s', 'dev', '-p', predictions], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain(`dev.jsonl:2 field "id": id "em" cannot be written in eval.py's results layout, where a language's "em" key is its mean: rename the item`);
  });

  test('control: ids that only look alike (EM, em.txt, numbers) load', async () => {
    const { root } = dataset(['EM', 'em.txt', 7, 'proto']);
    const loaded = await loadMultiLoKo(root, 'dev');
    expect(loaded.subsets[0]!.items.map((i) => i.id)).toEqual(['EM', 'em.txt', 7, 'proto']);
  });
});
