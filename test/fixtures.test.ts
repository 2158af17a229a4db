// test/fixtures/metric-vectors.json is a copy of the workspace's reference vectors: it must not drift from them.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const shared = fileURLToPath(new URL('../../shared/docs/metric-vectors.json', import.meta.url));
const copy = fileURLToPath(new URL('./fixtures/metric-vectors.json', import.meta.url));

test.skipIf(!existsSync(shared))('the vectors copy equals ../shared/docs/metric-vectors.json', () => {
  expect(JSON.parse(readFileSync(copy, 'utf8'))).toEqual(JSON.parse(readFileSync(shared, 'utf8')));
});

test('the vectors copy holds every metric family the tests use', () => {
  const metrics = new Set((JSON.parse(readFileSync(copy, 'utf8')) as Array<{ metric: string }>).map((v) => v.metric.split('.')[0]));
  expect([...metrics].sort()).toEqual(['difflib', 'hf', 'kalahi', 'multiloko', 'nltk', 'rouge_score', 'sacrebleu']);
});
