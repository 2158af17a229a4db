// ModelPool.release: a run listing several models closes each model once its describe is done and builds it anew
// if asked again, leaving the other models alone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { ReplayProvider } from '../../src/models/replay.ts';
import { ModelPool } from '../../src/vitest/fixtures.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-pool-release-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const line = (prediction: string) => `${JSON.stringify({ language: 'italian', id: 1, prediction })}\n`;

test('release closes that model only; the next open builds a new one', async () => {
  writeFileSync(path.join(dir, 'a.jsonl'), line('Roma'));
  writeFileSync(path.join(dir, 'b.jsonl'), line('Milano'));
  const [specA, specB] = [`replay:${path.join(dir, 'a.jsonl')}`, `replay:${path.join(dir, 'b.jsonl')}`];
  const pool = new ModelPool();
  const a = (await pool.usable(specA)).provider as ReplayProvider & { close?: () => Promise<void> };
  const b = await pool.get(specB);
  const closed: string[] = [];
  a.close = async () => void closed.push('a');
  await pool.release(specA);
  expect(closed).toEqual(['a']);
  expect(await pool.get(specB)).toBe(b);
  const again = await pool.get(specA);
  expect(again).not.toBe(a);
  const [answer] = await again.generate([{ prompt: '?', itemKey: 'multiloko/italian/1' }]);
  expect(answer!.text).toBe('Roma');
  // Releasing a model never built is a no-op.
  await pool.release(`replay:${path.join(dir, 'never.jsonl')}`);
});
