// Large dataset files: with a limit only each group's first rows are held (every row is still checked), and a
// groupBy field with a value per row is refused at its first value past MAX_GROUPS, naming groupBy.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { SHARED_DEFAULTS } from '../../src/core/settings.ts';
import { defineDatasetBenchmark, type DatasetSettings } from '../../src/benchmarks/dataset/definition.ts';
import { MAX_GROUPS, readDatasetGroups, type RowFields } from '../../src/benchmarks/dataset/rows.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-dataset-large-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIELDS: RowFields = { id: 'id', targets: 'answers', groupBy: 'topic', slots: ['question'] };

/** `rows` JSONL rows; row i is in group `topicOf(i)`. */
function jsonl(name: string, rows: number, topicOf: (i: number) => string): string {
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) lines.push(JSON.stringify({ id: `q${i}`, topic: topicOf(i), question: `What is ${i}?`, answers: [String(i)] }));
  const file = path.join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('a limit on a large file', () => {
  test('each group keeps its first `limit` rows in data order and counts all of them', async () => {
    const file = jsonl('three.jsonl', 30, (i) => ['a', 'b', 'c'][i % 3]!);
    const groups = await readDatasetGroups(file, FIELDS, 2);
    expect(groups.map((g) => [g.key, g.items.map((r) => r.id), g.total])).toEqual([
      ['a', ['q0', 'q3'], 10],
      ['b', ['q1', 'q4'], 10],
      ['c', ['q2', 'q5'], 10],
    ]);
    expect((await readDatasetGroups(file, FIELDS)).map((g) => g.items.length)).toEqual([10, 10, 10]);
  });

  test('LOKAL_LIMIT=3 on 10^5 rows of one group: a plan of 3 items of 100000 (each row was copied into a new list before)', async () => {
    const data = jsonl('one.jsonl', 100_000, () => 'all');
    const benchmark = defineDatasetBenchmark({ name: 'big', data, prompt: 'Q: {question}\nA:', targets: 'answers', metrics: ['em'] });
    const plan = await benchmark.prepare({ ...SHARED_DEFAULTS, redact: 'off', model: 'stub', limit: 3 } as unknown as DatasetSettings, []);
    expect(plan.groups.map((g) => [g.info.name, g.info.selected, g.info.total, g.items.map((i) => i.id)])).toEqual([['big', 3, 100_000, ['q0', 'q1', 'q2']]]);
  });

  test('a row past the limit is still checked: a repeated id far down the file is an error', async () => {
    const file = jsonl('dup.jsonl', 50, () => 'all');
    writeFileSync(file, `${JSON.stringify({ id: 'q7', topic: 'all', question: 'again?', answers: 'x' })}\n`, { flag: 'a' });
    await expect(readDatasetGroups(file, FIELDS, 3)).rejects.toThrow(`${file}:51 field "id": id "q7" is used twice (first at ${file}:8)`);
  });
});

describe('the number of groups', () => {
  test(`${MAX_GROUPS} groups are read; one value more is refused at its row, naming the field and groupBy`, async () => {
    const most = jsonl('most.jsonl', MAX_GROUPS, (i) => `t${i}`);
    expect(await readDatasetGroups(most, FIELDS, 1)).toHaveLength(MAX_GROUPS);
    const perRow = jsonl('perRow.jsonl', MAX_GROUPS + 5, (i) => `t${i}`);
    await expect(readDatasetGroups(perRow, FIELDS, 1)).rejects.toThrow(
      `${perRow}:${MAX_GROUPS + 1} field "topic": more than ${MAX_GROUPS} distinct values: groupBy makes each value of "topic" a group (a describe block and a row of the table), at most ${MAX_GROUPS}; group by a field with fewer values`,
    );
  });
});
