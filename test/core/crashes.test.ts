// No crash loses results or hides the file: a baseline α the statistics cannot use is refused as a setting (and,
// given in code, fails the gate instead of throwing, so the results are still written); a baseline score outside its
// range stops the run at collection, before any model call, naming the file and item; a results file nested 10^6
// deep, or holding no benchmark results ([1,2,3]), is an error naming the file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseKalahiBaseline } from '../../src/benchmarks/kalahi/run/baselineGate.ts';
import { parseBaseline } from '../../src/benchmarks/multiloko/run/baseline.ts';
import { judgeRun, summariseGroups } from '../../src/benchmarks/multiloko/results/rollup.ts';
import { rolledSubset } from '../support/rolledSubset.ts';
import { MULTILOKO_SETTINGS } from '../../src/benchmarks/multiloko/settings.ts';
import { tooDeep } from '../../src/core/jsonDepth.ts';
import { resolveSettingsTree } from '../../src/core/settings.ts';
import { readRunResults } from '../../src/report/index.ts';
import { lastRun, multilokoReplayRun } from '../report/fixtures.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';
import { lokalBin } from '../support/installedPackage.ts';
import { SECTIONS } from '../report/sections.ts';

// The built package's bin, as users run it (test/support/installedPackage.ts).
const LOKAL_BIN = await lokalBin();

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-crashes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the baseline α', () => {
  const resolve = (alpha: string) => resolveSettingsTree([MULTILOKO_SETTINGS], {}, { cwd: dir, env: { LOKAL_BASELINE_ALPHA: alpha } });

  test('1e-300 is refused as a setting naming the variable; 1e-6 is the smallest accepted', () => {
    expect(() => resolve('1e-300')).toThrow(/LOKAL_BASELINE_ALPHA/u);
    expect(() => resolve('5e-7')).toThrow(/LOKAL_BASELINE_ALPHA/u);
    expect(resolve('1e-6').baselineAlpha).toBe(1e-6);
  });

  test('given in code anyway, the comparison fails the gate with the reason instead of throwing (the results are still written)', () => {
    const ems = [1, 0, 1, 0, 1, 0, 1, 1];
    const run = [rolledSubset('italian', ems)];
    const baseline = parseBaseline(JSON.stringify({ italian: { ...Object.fromEntries(ems.map((v, i) => [`q${i}`, { em: 1 - v, prediction: 'x' }])), em: 0.25 } }), 'b.json');
    const judged = judgeRun(run, summariseGroups(run), { gates: [], baseline, baselineTolerance: 0.02, baselineAlpha: 1e-300 });
    const outcome = judged.outcomes.find((o) => o.gate === 'baseline')!;
    expect(outcome.pass).toBe(false);
    expect(outcome.message).toMatch(/^MultiLoKo vs baseline: the comparison failed: normalQuantile: p must be in \(0, 1\), got 1, so the gate fails/u);
  });
});

describe('a baseline with a score outside its range', () => {
  test('an item em of 5 stops the run at collection (before any answer is paid for), naming the file and the item', { timeout: 180_000 }, async () => {
    const baseline = path.join(dir, 'bad-baseline.json');
    writeFileSync(baseline, JSON.stringify({ english: { '000_en.txt': { em: 5, prediction: 'x' }, em: 0.5 } }));
    await expect(multilokoReplayRun(path.join(dir, 'run'), 4, 'em>=0.0', { LOKAL_BASELINE: baseline })).rejects.toThrow(/wrote no multiloko\.json/u);
    const run = lastRun!;
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(`${run.stdout}\n${run.stderr}`).toContain(`baseline ${baseline} field "english.000_en.txt.em": is 5, outside EM's range [0, 1]`);
  });
});

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('results files nested too deep or holding no results', () => {
  const ok = path.join(dir, 'ok.json');
  writeFileSync(ok, JSON.stringify({ italian: { q0: { em: 1, prediction: 'a' }, em: 1 } }));

  function compare(...files: string[]) {
    const run = spawnSync(process.execPath, [LOKAL_BIN, 'compare', ...files, '--no-html'], { cwd: REPO_ROOT, encoding: 'utf8' });
    return { code: run.status, stderr: run.stderr };
  }

  test('a value nested 10^6 deep: lokal compare exits 2 naming the file and where, no stack overflow', () => {
    const file = path.join(dir, 'deep.json');
    writeFileSync(file, `{"italian": {"q0": {"em": 1, "prediction": "a"}, "em": 1}, "summary": {"model": ${deep(1_000_000)}}}`);
    const run = compare(ok, file);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`${file}: nested more than 64 levels deep (at summary.model[0][0]`);
    expect(run.stderr).not.toContain('Maximum call stack');
    expect(() => readRunResults(file, SECTIONS)).toThrow(`${file}: nested more than 64 levels deep`);
  });

  test('the baseline readers bound the depth too, naming the file', () => {
    const text = `{"italian": {"em": 1, "q0": {"em": 1, "x": ${deep(100_000)}}}}`;
    expect(() => parseBaseline(text, 'b.json')).toThrow(/^baseline b\.json field "italian\.q0\.x\[0\]\[0\].*": nested more than 64 levels deep/u);
    expect(() => parseKalahiBaseline(`{"variants": ${deep(100_000)}}`, 'k.json')).toThrow(/^baseline k\.json field "variants\[0\].*": nested more than 64 levels deep/u);
    // The walk is not recursive: a million levels are measured, not overflowed.
    expect(tooDeep(JSON.parse(deep(1_000_000)))).toMatch(/^(\[0\]){64}$/u);
    expect(tooDeep(JSON.parse(deep(64)))).toBeUndefined();
  });

  test('[1,2,3], a bare nested array or an object without results: exit 2 naming the file', () => {
    for (const [name, text, found] of [
      ['numbers.json', '[1,2,3]', 'an array'],
      ['nested.json', '[[[["x"]]]]', 'an array'],
      ['other.json', '{"name": "not results", "data": {"x": 1}}', 'an object with neither "variants" nor a language entry holding "em" or item records'],
    ] as const) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      const run = compare(ok, file);
      expect(run.code, `${name}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(`${file}: holds no benchmark results (expected the object of a multiloko.json, kalahi.json or \`lokal score\` output, found ${found})`);
    }
  });
});
