// Fingerprints: what each results file records of how a run was made, and the check that refuses comparing runs made
// under different protocols (the baseline gate of both benchmarks) unless LOKAL_BASELINE_ALLOW accepts the field.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { comparabilityJson, comparabilityLines, comparabilityOutcome, compareFingerprints, FingerprintError, fieldPreview, notComparableLine, parseFingerprint, type Fingerprint } from '../../src/core/fingerprint.ts';
import { fingerprintBlock } from '../../src/report/fingerprintHtml.ts';
import { readConfigEnv, LokalConfigError } from '../../src/core/settings.ts';
import { MULTILOKO_SETTINGS } from '../../src/benchmarks/multiloko/settings.ts';
import { multilokoFingerprint, MULTILOKO_SCORER } from '../../src/benchmarks/multiloko/run/fingerprint.ts';
import { MULTILOKO_PROMPTS_FILE } from '../../src/benchmarks/multiloko/prompts/multilokoPromptTable.ts';
import { parseBaseline } from '../../src/benchmarks/multiloko/run/baseline.ts';
import { parseKalahiBaseline } from '../../src/benchmarks/kalahi/run/baselineGate.ts';
import type { LokalSubsetAggregate } from '../../src/benchmarks/multiloko/run/records.ts';
import { judgeRun, summariseGroups } from '../../src/benchmarks/multiloko/results/rollup.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';
import { summarisePrompts } from '../../src/benchmarks/multiloko/run/usage.ts';
import { aggregateKalahi } from '../../src/benchmarks/kalahi/results/aggregate.ts';
import { reportKalahi } from '../../src/benchmarks/kalahi/results/report.ts';
import type { KalahiSettings } from '../../src/benchmarks/kalahi/run/config.ts';
import type { KalahiPromptRecord, KalahiRunInfo } from '../../src/benchmarks/kalahi/run/records.ts';
import { filesKey, filesSha256, hashMemoFile, modelIdentity } from '../../src/models/identity.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-fingerprint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hex = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

function fingerprint(over: Partial<Fingerprint> = {}): Fingerprint {
  return {
    version: 1, benchmark: 'multiloko', data: { italian: 'a'.repeat(64), french: 'b'.repeat(64) }, prompt: 'base', template: { italian: 'c'.repeat(64) },
    shots: 5, fewshot: 'dataset', extraction: true, scorer: 'v1', decoding: { max_new_tokens: 64, temperature: 0, stops: 'question token, blank line' },
    protocol: null, model: { provider: 'transformers', model: '/m', dtype: 'q8', sha256: 'd'.repeat(64) }, ...over,
  };
}

describe('compareFingerprints', () => {
  test('a prompt difference is refused with one line naming the field; the same settings pass', () => {
    const c = compareFingerprints(fingerprint({ prompt: 'chat' }), fingerprint());
    expect(c.refused).toEqual([{ field: 'prompt', baseline: 'base', current: 'chat' }]);
    expect(notComparableLine(c)).toBe('not comparable: prompt base→chat (baseline→this run; LOKAL_BASELINE_ALLOW=prompt accepts it)');
    expect(compareFingerprints(fingerprint(), fingerprint())).toEqual({ refused: [], allowed: [], model: [], runtime: [], unknown: [], checked: true });
  });

  test('every differing score field is named, parts by name and hashes by their first 8 hex digits', () => {
    const c = compareFingerprints(
      fingerprint({ data: { italian: 'e'.repeat(64), french: 'b'.repeat(64) }, shots: 0, decoding: { max_new_tokens: 32, temperature: 0, stops: 'question token, blank line' }, scorer: 'v2' }),
      fingerprint(),
    );
    expect(notComparableLine(c)).toBe(
      'not comparable: data.italian aaaaaaaa→eeeeeeee; shots 5→0; scorer v1→v2; decoding.max_new_tokens 64→32 (baseline→this run; LOKAL_BASELINE_ALLOW=data,shots,scorer,decoding accepts it)',
    );
  });

  test('LOKAL_BASELINE_ALLOW accepts the fields it names; a model difference is reported, never refused', () => {
    const c = compareFingerprints(fingerprint({ prompt: 'chat', shots: 0, model: { provider: 'openai', model: 'qwen' } }), fingerprint(), ['prompt']);
    expect(c.refused.map((d) => d.field)).toEqual(['shots']);
    expect(c.allowed.map((d) => d.field)).toEqual(['prompt']);
    expect(c.model.map((d) => `${d.part} ${d.baseline}→${d.current}`)).toEqual(['provider transformers→openai', 'model /m→qwen']);
  });

  test('a model run in another numerics mode (exact vs batched) is refused with one line; model.numerics accepts it', () => {
    const exact = fingerprint({ model: { provider: 'transformers', model: '/m', dtype: 'q8', numerics: 'exact', sha256: 'd'.repeat(64) } });
    const batched = fingerprint({ model: { provider: 'transformers', model: '/m', dtype: 'q8', numerics: 'batched', sha256: 'd'.repeat(64) } });
    const c = compareFingerprints(batched, exact);
    expect(notComparableLine(c)).toBe('not comparable: model.numerics exact→batched (baseline→this run; LOKAL_BASELINE_ALLOW=model.numerics accepts it)');
    expect(c.model).toEqual([]);
    const allowed = compareFingerprints(batched, exact, ['model.numerics']);
    expect(allowed.refused).toEqual([]);
    expect(allowed.allowed.map((d) => `${d.field}.${d.part}`)).toEqual(['model.numerics']);
    // a baseline from before numerics was recorded: not known, not refused
    expect(compareFingerprints(batched, fingerprint()).refused).toEqual([]);
  });

  test('subsets of one run only and fields one run does not know (a replay has no prompt) are not differences', () => {
    const c = compareFingerprints(fingerprint({ data: { italian: 'a'.repeat(64), japanese: 'f'.repeat(64) }, prompt: null, decoding: null }), fingerprint());
    expect(c.refused).toEqual([]);
    expect(c.unknown).toEqual(['prompt', 'decoding']);
  });

  test('a baseline without a fingerprint (eval.py, lokal score, older files) is not checked, and says so', () => {
    expect(compareFingerprints(fingerprint(), undefined).checked).toBe(false);
    expect(parseFingerprint(undefined, 'summary.fingerprint')).toBeUndefined();
    expect(parseFingerprint(null, 'summary.fingerprint')).toBeUndefined();
    expect(parseFingerprint(JSON.parse(JSON.stringify(fingerprint())), 'summary.fingerprint')).toEqual(fingerprint());
  });
});

describe('the runtime (ICU and Unicode versions)', () => {
  const icu74 = fingerprint({ runtime: { icu: '74.2', unicode: '15.1' } });
  const icu78 = fingerprint({ runtime: { icu: '78.2', unicode: '17.0' } });

  test('every fingerprint records this process’s ICU and Unicode versions', () => {
    const a = aggregate('italian', 'base');
    expect(multilokoFingerprint([a], summarisePrompts([a]), dir).runtime).toEqual({ icu: process.versions.icu, unicode: process.versions.unicode });
    const json = JSON.parse(reportKalahi([kalahiRun('max_length')], { clauses: [] }).resultsText!);
    expect(json.fingerprint.runtime).toEqual({ icu: process.versions.icu, unicode: process.versions.unicode });
    expect(process.versions.icu).toMatch(/^\d+\.\d+/u);
  });

  test('another ICU is a note, never refused: f1 and EM do not depend on it', () => {
    const c = compareFingerprints(icu78, icu74);
    expect(c.refused).toEqual([]);
    expect(c.runtime).toEqual([
      { field: 'runtime', part: 'icu', baseline: '74.2', current: '78.2' },
      { field: 'runtime', part: 'unicode', baseline: '15.1', current: '17.0' },
    ]);
    expect(comparabilityOutcome(c, 'base.json')).toBeUndefined();
    expect(comparabilityLines(c, 'base.json')).toEqual([
      "runtime differs (a note, not refused: f1_words follows ICU's word segmentation, the script rule the Unicode version; f1 and EM depend on neither): runtime.icu 74.2→78.2; runtime.unicode 15.1→17.0",
    ]);
    expect(comparabilityJson(c)).toMatchObject({ comparable: true, runtime: ['runtime.icu 74.2→78.2', 'runtime.unicode 15.1→17.0'] });
    expect(String(fingerprintBlock(icu78, icu74, 'fp'))).toContain('<code>runtime.icu 74.2→78.2</code> (a note: f1_words follows ICU, f1 and EM do not)');
  });

  test('the same runtime, or a file from before it was recorded: no note, and the file still reads', () => {
    expect(comparabilityLines(compareFingerprints(icu78, icu78), 'base.json')).toEqual([]);
    const older = compareFingerprints(icu78, fingerprint());
    expect([older.runtime, older.unknown, comparabilityLines(older, 'base.json')]).toEqual([[], [], []]);
    expect(comparabilityJson(older)).not.toHaveProperty('runtime');
    expect(parseFingerprint(JSON.parse(JSON.stringify(fingerprint())), 'summary.fingerprint')!.runtime).toBeUndefined();
    expect(String(fingerprintBlock(fingerprint(), undefined, 'fp'))).not.toContain('data-field="runtime"');
    expect(String(fingerprintBlock(icu78, undefined, 'fp'))).toContain('<tr data-field="runtime"><th>runtime</th><td><code>icu: 78.2 · unicode: 17.0</code></td></tr>');
  });

  test('a malformed runtime is an error naming the field', () => {
    expect(() => parseFingerprint({ ...fingerprint(), runtime: '78.2' }, 'summary.fingerprint')).toThrow(
      'field "summary.fingerprint.runtime": is a string ("78.2"); expected an object of named strings, numbers, booleans or nulls',
    );
  });
});

describe('a malformed fingerprint', () => {
  const problem = (value: unknown) => {
    try {
      parseFingerprint(value, 'summary.fingerprint');
    } catch (error) {
      expect(error).toBeInstanceOf(FingerprintError);
      return (error as Error).message;
    }
    throw new Error('parsed');
  };

  test('is an error naming the field and what it holds, never taken for a missing one', () => {
    expect(problem('abc')).toBe('field "summary.fingerprint": is a string ("abc"); expected an object of the fingerprint\'s fields (version, benchmark, data, model, prompt, shots, fewshot, extraction, scorer, template, decoding, protocol, runtime)');
    expect(problem([fingerprint()])).toMatch(/^field "summary\.fingerprint": is a list; expected an object/u);
    expect(problem({ ...fingerprint(), shots: { n: 5 } })).toBe('field "summary.fingerprint.shots": is an object; expected a string, number, boolean or null');
    expect(problem({ ...fingerprint(), data: { italian: ['a'] } })).toBe('field "summary.fingerprint.data.italian": is a list; expected a string, number, boolean or null');
    expect(problem({ ...fingerprint(), model: 'm' })).toBe('field "summary.fingerprint.model": is a string ("m"); expected an object of named strings, numbers, booleans or nulls');
    expect(problem({ ...fingerprint(), version: 2 })).toBe('field "summary.fingerprint.version": is a number (2); expected 1 (the fingerprint version this vitest-lokal reads)');
    const { scorer: _, ...withoutScorer } = fingerprint();
    expect(problem(withoutScorer)).toBe('field "summary.fingerprint.scorer": is missing; expected a string, number, boolean or null');
  });

  test('in a MultiLoKo or Kalahi baseline: a baseline error naming the file and field; an absent one is not checked', () => {
    const items = { q1: { em: 1, prediction: 'p' }, em: 1 };
    expect(() => parseBaseline(JSON.stringify({ italian: items, summary: { fingerprint: 'abc' } }), 'base.json')).toThrow(
      'baseline base.json field "summary.fingerprint": is a string ("abc"); expected an object',
    );
    expect(() => parseBaseline(JSON.stringify({ italian: items, lokal: { fingerprint: { ...fingerprint(), prompt: ['base'] } } }), 'score.json')).toThrow(
      'baseline score.json field "lokal.fingerprint.prompt": is a list; expected a string, number, boolean or null',
    );
    expect(parseBaseline(JSON.stringify({ italian: items, summary: { model: 'm' } }), 'base.json').fingerprint).toBeUndefined();
    const kalahi = (fp: unknown) => JSON.stringify({ benchmark: 'kalahi', variants: { full: { records: [] } }, ...(fp === undefined ? {} : { fingerprint: fp }) });
    expect(() => parseKalahiBaseline(kalahi([1]), 'kalahi.json')).toThrow('baseline kalahi.json field "fingerprint": is a list; expected an object');
    expect(parseKalahiBaseline(kalahi(undefined), 'kalahi.json').fingerprint).toBeUndefined();
  });

  test('in the report: named as malformed, not as absent', () => {
    expect(String(fingerprintBlock({ ...fingerprint(), shots: {} }, undefined, 'fp'))).toContain('fingerprint is malformed (field &quot;fingerprint.shots&quot;: is an object;');
    expect(String(fingerprintBlock(fingerprint(), 'abc', 'fp'))).toContain("The baseline's fingerprint is malformed (field &quot;fingerprint&quot;: is a string");
    expect(String(fingerprintBlock(fingerprint(), null, 'fp'))).toContain('The baseline carries no fingerprint: not checked.');
  });
});

describe('a long fingerprint field', () => {
  const huge = 'x'.repeat(20 * 1024 * 1024);

  test('is shown as a short preview with its length in the gate line, the results and the report, never whole', () => {
    const c = compareFingerprints(fingerprint({ scorer: huge, model: { provider: 'transformers', model: `m${huge}` }, data: { [`s${huge}`]: 'e'.repeat(64) } }), fingerprint({ data: { [`s${huge}`]: 'a'.repeat(64) } }));
    const line = notComparableLine(c)!;
    expect(line).toBe(`not comparable: data.s${'x'.repeat(59)}… (20971521 characters) aaaaaaaa→eeeeeeee; scorer v1→${'x'.repeat(60)}… (20971520 characters) (baseline→this run; LOKAL_BASELINE_ALLOW=data,scorer accepts it)`);
    expect(comparabilityOutcome(c, 'base.json')!.message.length).toBeLessThan(400);
    const json = JSON.stringify(comparabilityJson(c));
    expect(json.length).toBeLessThan(1000);
    expect(json).toContain(`model.model /m→m${'x'.repeat(59)}… (20971521 characters)`);
    const block = String(fingerprintBlock(fingerprint({ scorer: huge }), fingerprint(), 'fp'));
    expect(block.length).toBeLessThan(5000);
    expect(block).toContain('… (20971520 characters)');
  });

  test('a preview never ends in half a surrogate pair', () => {
    expect(fieldPreview(`${'a'.repeat(59)}😀${'b'.repeat(10)}`)).toBe(`${'a'.repeat(59)}… (71 characters)`);
    expect(fieldPreview('short')).toBe('short');
  });
});

describe('LOKAL_BASELINE_ALLOW', () => {
  test('a comma list of fingerprint fields; an unknown field is an error naming the variable', () => {
    expect(readConfigEnv({ LOKAL_BASELINE_ALLOW: 'prompt, shots' }, [MULTILOKO_SETTINGS]).baselineAllow).toEqual(['prompt', 'shots']);
    expect(() => readConfigEnv({ LOKAL_BASELINE_ALLOW: 'promt' }, [MULTILOKO_SETTINGS])).toThrow(LokalConfigError);
    expect(() => readConfigEnv({ LOKAL_BASELINE_ALLOW: 'model' }, [MULTILOKO_SETTINGS])).toThrow(/LOKAL_BASELINE_ALLOW/u);
    expect(readConfigEnv({ LOKAL_BASELINE_ALLOW: 'model.numerics' }, [MULTILOKO_SETTINGS]).baselineAllow).toEqual(['model.numerics']);
  });
});

function aggregate(key: string, mode: 'base' | 'chat' | 'none', over: Partial<LokalSubsetAggregate> = {}): LokalSubsetAggregate {
  return {
    benchmark: 'multiloko', key, name: `${key} · local`, language: key, sourceLanguage: key, questionLanguage: key, translated: false,
    scored: 2, missing: 0, failed: 0, skipped: 0, cached: 0, modelCalls: 2, modelMs: 0, model: 'transformers:/m', sha256: hex(key), fewshotSha256: hex(`${key}-fewshot`), maxNewTokens: 64,
    prompts: [{ mode, language: mode === 'none' ? null : key, fewshot: mode === 'base' ? 'dataset' : 'none', shots: mode === 'base' ? 5 : 0, extracted: mode !== 'none', items: 2 }],
    means: { em: 0.5, f1: 0.5, bleu: 50, chrf: 50, edit_distance: 1, edit_similarity: 0.5, edit_distance_first: 1 },
    ...over,
  } as unknown as LokalSubsetAggregate;
}

describe('MultiLoKo fingerprint', () => {
  test('data hashes per subset (and the few-shot file a base prompt used), template hash per prompt language, decoding, scorer', () => {
    const a = aggregate('italian', 'base');
    const f = multilokoFingerprint([a], summarisePrompts([a]), dir);
    const official = (JSON.parse(readFileSync(MULTILOKO_PROMPTS_FILE, 'utf8')) as { languages: Record<string, unknown> }).languages.italian;
    expect(f).toMatchObject({
      data: { italian: hex('italian'), 'fewshot:italian': hex('italian-fewshot') },
      prompt: 'base',
      template: { italian: hex(JSON.stringify(official)) },
      shots: 5,
      fewshot: 'dataset',
      extraction: true,
      scorer: MULTILOKO_SCORER,
      decoding: { max_new_tokens: 64, temperature: 0, stops: 'question token, blank line' },
    });
    // Greedy, one answer per item: exactly the three fields, so fingerprints of runs before trials still compare equal.
    expect(Object.keys(f.decoding as object)).toEqual(['max_new_tokens', 'temperature', 'stops']);
  });

  test('sampled trials: temperature, top-p, seed and trials are decoding, so runs that differ in them are refused', () => {
    const sampled = (sampling: LokalSubsetAggregate['sampling']) => ({ ...aggregate('italian', 'base'), sampling });
    const at = (...aggregates: LokalSubsetAggregate[]) => multilokoFingerprint(aggregates, summarisePrompts(aggregates), dir);
    const hot = at(sampled({ temperature: 0.7, top_p: 0.9, seed: 42, trials: 8 }));
    expect(hot.decoding).toEqual({ max_new_tokens: 64, temperature: 0.7, top_p: 0.9, seed: 42, trials: 8, stops: 'question token, blank line' });
    // Greedy trials keep temperature 0 and add only the count; two subsets asked differently are `mixed`.
    expect(at(sampled({ trials: 4 })).decoding).toEqual({ max_new_tokens: 64, temperature: 0, trials: 4, stops: 'question token, blank line' });
    expect(at(sampled({ temperature: 0.7 }), { ...aggregate('french', 'base'), sampling: { temperature: 1 } }).decoding).toMatchObject({ temperature: 'mixed' });
    // Against a greedy baseline the temperature refuses; parts only one side records are left out, as for subsets.
    const greedy = at(aggregate('italian', 'base'));
    expect(compareFingerprints(hot, greedy).refused.map((d) => `${d.field}.${d.part}`)).toEqual(['decoding.temperature']);
    const other = at(sampled({ temperature: 0.7, top_p: 0.95, seed: 7, trials: 4 }));
    expect(compareFingerprints(hot, other).refused.map((d) => `${d.field}.${d.part}`)).toEqual(['decoding.top_p', 'decoding.seed', 'decoding.trials']);
  });

  test('a replay: no prompt, template, shots or decoding to compare; the model is the predictions file’s hash', () => {
    const file = path.join(dir, 'predictions.jsonl');
    writeFileSync(file, '{"language":"italian","id":1,"prediction":"Roma"}\n');
    const a = aggregate('italian', 'none', { model: `replay:${file}`, modelDescription: { provider: 'replay', model: file, settings: {} } });
    const f = multilokoFingerprint([a], summarisePrompts([a]), dir);
    expect(f).toMatchObject({ prompt: null, template: null, shots: null, fewshot: null, decoding: null, extraction: false });
    expect(f.model).toEqual({ provider: 'replay', model: file, revision: null, sha256: hex(readFileSync(file)) });
  });

  test('a local model: its dtype and the SHA-256 of the ONNX file that dtype loads', () => {
    const model = path.join(dir, 'model');
    mkdirSync(path.join(model, 'onnx'), { recursive: true });
    writeFileSync(path.join(model, 'onnx', 'model_quantized.onnx'), 'weights q8');
    writeFileSync(path.join(model, 'onnx', 'model.onnx'), 'weights fp32');
    const identity = modelIdentity({ provider: 'transformers', model, revision: 'local-1', settings: { dtype: 'q8' } }, undefined, dir);
    expect(identity).toEqual({ provider: 'transformers', model, revision: 'local-1', dtype: 'q8', sha256: hex('weights q8') });
    const exact = modelIdentity({ provider: 'transformers', model, revision: 'local-1', settings: { dtype: 'q8', numerics: 'exact' } }, undefined, dir);
    expect(exact).toEqual({ ...identity, numerics: 'exact' });
  });

  test('a local model with external data: data_sha256 covers the data files in name order, so other weights of the same graph differ', () => {
    const model = path.join(dir, 'external');
    mkdirSync(path.join(model, 'onnx'), { recursive: true });
    writeFileSync(path.join(model, 'onnx', 'model.onnx'), 'graph');
    writeFileSync(path.join(model, 'onnx', 'model.onnx_data_1'), 'second half');
    writeFileSync(path.join(model, 'onnx', 'model.onnx_data'), 'first half ');
    writeFileSync(path.join(model, 'onnx', 'model_quantized.onnx'), 'another dtype');
    const describe = { provider: 'transformers', model, revision: 'local-1', settings: { dtype: 'fp32' } };
    const first = modelIdentity(describe, undefined, dir);
    expect(first).toEqual({ provider: 'transformers', model, revision: 'local-1', dtype: 'fp32', sha256: hex('graph'), data_sha256: hex('first half second half') });
    writeFileSync(path.join(model, 'onnx', 'model.onnx_data'), 'other weights');
    const second = modelIdentity(describe, undefined, dir);
    expect(second.sha256).toBe(hex('graph'));
    expect(second.data_sha256).toBe(hex('other weights' + 'second half'));
  });

  describe('hashes kept between runs in node_modules/.cache/vitest-lokal/sha256.json', () => {
    const project = path.join(dir, 'project');
    const weights = path.join(project, 'weights.bin');
    mkdirSync(path.join(project, 'node_modules'), { recursive: true });
    const memo = hashMemoFile(project)!;

    test('an entry for the file as it is now is used without reading the file', () => {
      expect(memo).toBe(path.join(project, 'node_modules', '.cache', 'vitest-lokal', 'sha256.json'));
      writeFileSync(weights, 'weights, version 1');
      mkdirSync(path.dirname(memo), { recursive: true });
      // A hash the bytes do not have: returned only if the memo is read instead of the file.
      writeFileSync(memo, JSON.stringify({ version: 1, entries: { [filesKey([weights])]: 'f'.repeat(64) } }));
      expect(filesSha256([weights], memo)).toBe('f'.repeat(64));
    });

    test('a changed file is read again and its new hash stored; a memo that does not parse is replaced', () => {
      writeFileSync(weights, 'weights, version two');
      expect(filesSha256([weights], memo)).toBe(hex('weights, version two'));
      expect(JSON.parse(readFileSync(memo, 'utf8')).entries[filesKey([weights])]).toBe(hex('weights, version two'));
      writeFileSync(memo, '{"version": 1, "entries": ');
      const other = path.join(project, 'other.bin');
      writeFileSync(other, 'other weights');
      expect(filesSha256([other], memo)).toBe(hex('other weights'));
      expect(JSON.parse(readFileSync(memo, 'utf8'))).toEqual({ version: 1, entries: { [filesKey([other])]: hex('other weights') } });
    });

    test('a project without node_modules keeps no memo; a local model of one with it is hashed through it', () => {
      expect(hashMemoFile(path.join(dir, 'model'))).toBeUndefined();
      const model = path.join(project, 'model');
      mkdirSync(path.join(model, 'onnx'), { recursive: true });
      writeFileSync(path.join(model, 'onnx', 'model.onnx'), 'project weights');
      const identity = modelIdentity({ provider: 'transformers', model, revision: 'local-1', settings: { dtype: 'fp32' } }, undefined, project);
      expect(identity.sha256).toBe(hex('project weights'));
      expect(JSON.parse(readFileSync(memo, 'utf8')).entries[filesKey([path.join(model, 'onnx', 'model.onnx')])]).toBe(hex('project weights'));
    });
  });

  test('the baseline gate fails on a baseline made with base prompts when this run used chat, naming the field; allowed, it passes', () => {
    const run: RolledSubset[] = [{ aggregate: aggregate('italian', 'chat'), records: [{ id: 'q0', scores: { em: 1 } }, { id: 'q1', scores: { em: 0 } }] as unknown as RolledSubset['records'] }];
    const baseA = aggregate('italian', 'base');
    const baselineJson = JSON.stringify({
      italian: { q0: { em: 1, prediction: 'a' }, q1: { em: 0, prediction: 'b' }, em: 0.5 },
      summary: { fingerprint: multilokoFingerprint([baseA], summarisePrompts([baseA]), dir) },
    });
    const baseline = parseBaseline(baselineJson, 'base.json');
    const current = multilokoFingerprint([run[0]!.aggregate], summarisePrompts([run[0]!.aggregate]), dir);
    const judged = judgeRun(run, summariseGroups(run), { gates: [], baseline, baselineTolerance: 0.02, fingerprint: current });
    const refused = judged.outcomes.filter((o) => !o.pass);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.message).toMatch(/^not comparable: prompt base→chat; shots 5→0; fewshot dataset→none; decoding\.stops question token, blank line→none \(baseline→this run; LOKAL_BASELINE_ALLOW=prompt,shots,fewshot,decoding accepts it\); baseline base\.json$/u);
    const allowed = judgeRun(run, summariseGroups(run), { gates: [], baseline, baselineTolerance: 0.02, fingerprint: current, baselineAllow: ['prompt', 'shots', 'fewshot', 'decoding', 'data'] });
    expect(allowed.outcomes.every((o) => o.pass)).toBe(true);
    const same = judgeRun(run, summariseGroups(run), { gates: [], baseline: parseBaseline(baselineJson, 'base.json'), baselineTolerance: 0.02, fingerprint: multilokoFingerprint([baseA], summarisePrompts([baseA]), dir) });
    expect(same.outcomes.every((o) => o.pass)).toBe(true);
  });
});

function kalahiRun(budget: 'max_length' | 'new_tokens') {
  const info = {
    benchmark: 'kalahi', key: 'full', name: 'kalahi · full', variant: 'full', file: 'f.csv', sha256: hex('csv'), order: 0, selected: 2, total: 2, categories: ['ethics'],
    model: 'openai:m', tasks: ['mc', 'generation'], budget: { kind: budget, tokens: 256, description: '' }, labels: { rougeL: 'rougeLsum', chrf: 'chrF' },
    learnedModels: { bleurt: 'off', bertscore: 'off' }, strict: false, thresholds: undefined,
  } as unknown as KalahiRunInfo;
  const records = [0, 1].map((i): KalahiPromptRecord => {
    const figures = { mc1: i, mc2: 0.5, mc2_normalised: 0.5, mc3: i, lprob_max: 0, lprob_diff: 0 };
    return {
      suite: 'full', promptVariationId: `v${i}`, promptId: `p${i}`, category: 'ethics', topic: 't', row: i + 1, itemKey: `kalahi/full/v${i}`,
      mc: { references: [], normalised: figures, nonNormalised: figures, preferred: { kind: 'relevant', index: 0, text: 'x', score: 0, best: true }, latencyMs: 0, cached: false },
    } as KalahiPromptRecord;
  });
  const gate = { model: { provider: 'openai', model: 'm', settings: { baseUrl: 'http://127.0.0.1:1/v1' } }, outcomes: [], notApplied: [] };
  return { aggregate: aggregateKalahi(info, records.map((record) => ({ record, state: 'passed' as const })), gate), records };
}

describe('Kalahi fingerprint', () => {
  const settings = (baseline: string, extra: Partial<KalahiSettings> = {}) => ({ baseline, baselineTolerance: 0.02, baselineMode: 'significance', baselineAlpha: 0.05, baselineMargin: 0.01, ...extra }) as KalahiSettings;

  test('kalahi.json records the CSV hash, the MC protocol (log-probabilities by default), budget and model', () => {
    const json = JSON.parse(reportKalahi([kalahiRun('max_length')], { clauses: [] }).resultsText!);
    expect(json.fingerprint).toMatchObject({
      benchmark: 'kalahi', data: { full: hex('csv') }, prompt: 'chat', extraction: false,
      decoding: { budget: 'max_length', tokens: 256, temperature: 0 }, protocol: { mc: 'logprobs', chrf: 'chrF', bertscore: null, bleurt: null },
      model: { provider: 'openai', model: 'm', server: 'http://127.0.0.1:1/v1' },
    });
  });

  test('a baseline generated with another budget fails the gate naming decoding.budget; allowed, or the same, it passes', () => {
    const file = path.join(dir, 'kalahi-base.json');
    writeFileSync(file, reportKalahi([kalahiRun('new_tokens')], { clauses: [] }).resultsText!);
    const refused = reportKalahi([kalahiRun('max_length')], { clauses: [], settings: settings(file), root: dir });
    expect(refused.passed).toBe(false);
    expect(refused.lines.join('\n')).toContain('not comparable: decoding.budget new_tokens→max_length');
    expect(JSON.parse(refused.resultsText!).comparability).toMatchObject({ checked: true, comparable: false, refused: ['decoding.budget new_tokens→max_length'] });
    expect(reportKalahi([kalahiRun('max_length')], { clauses: [], settings: settings(file, { baselineAllow: ['decoding'] }), root: dir }).passed).toBe(true);
    writeFileSync(file, reportKalahi([kalahiRun('max_length')], { clauses: [] }).resultsText!);
    expect(reportKalahi([kalahiRun('max_length')], { clauses: [], settings: settings(file), root: dir }).passed).toBe(true);
  });
});
