// Very long lists in messages are summarised: the count and the first few, so one bad input never makes a line of
// megabytes (unknown settings, the languages a dataset has, a matcher's targets, an echoed variable).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { multiloko, kalahi } from '../../src/benchmarks/index.ts';
import { lokalMatchers } from '../../src/benchmarks/multiloko/metrics/matchers.ts';
import { resolveSettingsTree, sectionSettings } from '../../src/core/settings.ts';
import { writeDataset } from '../vitest/helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-long-lists-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function messageOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('summarised lists', () => {
  test('5,000 unknown settings: the first ten and the count', () => {
    const options = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`bogus${i}`, 1]));
    const message = messageOf(() => resolveSettingsTree([multiloko.settings, kalahi.settings], options, { env: {}, cwd: dir }));
    expect(message).toContain('unknown settings "bogus0" (did you mean "model"?), "bogus1"');
    expect(message).toContain('"bogus9" (did you mean "model"?), … (4990 more)');
    expect(message.length).toBeLessThan(2000);
  });

  test('a variable of a megabyte is echoed cut, on one line', () => {
    const message = messageOf(() => resolveSettingsTree([multiloko.settings, kalahi.settings], {}, { env: { LOKAL_LIMIT: `x${'\n'.repeat(1_000_000)}` }, cwd: dir }));
    expect(message.length).toBeLessThan(2000);
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^LOKAL_LIMIT: .*\(got "x(\\n){199}…"\)$/u);
  });

  test('a language not in a dataset of 60: the first 40 of its languages and the count', async () => {
    const subsets = Array.from({ length: 60 }, (_, i) => ({ key: `lang${String(i).padStart(2, '0')}`, folder: `lang${String(i).padStart(2, '0')}`, fileName: 'dev.jsonl', items: [{ id: 1, question: 'q', targets: ['a'] }] }));
    const data = writeDataset(dir, subsets);
    const tree = resolveSettingsTree([multiloko.settings, kalahi.settings], { model: 'replay:/x.jsonl', multiloko: { data, languages: ['klingon'] } }, { env: {}, cwd: dir });
    const error = await multiloko.prepare(sectionSettings(tree, multiloko.settings), []).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error!.message).toContain(`it has: ${subsets.slice(0, 40).map((s) => s.key).join(', ')}, … (20 more)`);
  });

  test("a matcher's failure with 1,000 targets shows ten of each", () => {
    const targets = Array.from({ length: 1000 }, (_, i) => `t${i}`);
    const result = lokalMatchers.toExactMatch.call({ isNot: false } as never, 'x', targets) as { pass: boolean; message: () => string };
    expect(result.pass).toBe(false);
    const message = result.message();
    expect(message).toContain(`targets: ${targets.slice(0, 10).map((t) => JSON.stringify(t)).join(', ')}, … (990 more) → normalised`);
    expect(message.length).toBeLessThan(1000);
  });
});
