// Kalahi end to end: child `vitest run --project evals evals/kalahi.eval.ts` processes with a generated tiny causal LM
// and tiny encoders on the real Kalahi CSVs (first 3 prompts of each variant). Every number is checked against a second
// computation: the tiny networks evaluated directly from their weights (float64), Python's arithmetic for MC, and
// `lokal kalahi score` for the generation metrics. Skipped when ../shared/data/kalahi is absent.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadKalahi, type KalahiRow, type KalahiVariant } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { bertScoreFromEmbeddings } from '../../src/metrics/bertScore.ts';
import { encodeBleurtPair } from '../../src/metrics/bleurt.ts';
import { scoreKalahiFiles } from '../../src/benchmarks/kalahi/results/score.ts';
import { writeTinyEncoder } from '../support/tinyEncoder.ts';
import { loadTinyEncoderReference } from '../support/tinyEncoderReference.ts';
import { writeTinyModel, type TinyModelInfo } from '../support/tinyModel.ts';
import { loadTinyReferenceModel } from '../support/tinyModelReference.ts';
import type { KalahiPromptRecord } from '../../src/benchmarks/kalahi/run/records.ts';
import { REPO_ROOT, runVitest, type ChildRun } from '../vitest/helpers.ts';

const DATA = path.resolve(REPO_ROOT, '../shared/data/kalahi');
const VARIANTS: KalahiVariant[] = ['full', 'partially_enriched', 'unenriched'];
const FILES = ['filipino.csv', 'filipino_partially_enriched.csv', 'filipino_unenriched.csv'];
const haveData = FILES.every((f) => existsSync(path.join(DATA, f)));

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-kalahi-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const model = path.join(dir, 'tiny');
const bert = path.join(dir, 'bert');
const bleurt = path.join(dir, 'bleurt');

type Variant = {
  file: string;
  tasks: string[];
  items: Record<string, number>;
  settings: Record<string, any>;
  table: { mc: Record<string, number>; generation: Record<string, number | null> };
  mc: Record<string, any>;
  generation: Record<string, any>;
  by_category: Record<string, any>;
  records: KalahiPromptRecord[];
};
type Results = { benchmark: string; variants: Record<string, Variant>; gates: any[]; gates_not_applied: string[]; gates_passed: boolean };

const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-5000)}\n${run.stderr.slice(-3000)}`;
const readResults = (output: string) => JSON.parse(readFileSync(path.join(output, 'kalahi.json'), 'utf8')) as Results;
const rows = new Map<KalahiVariant, KalahiRow[]>();
let main: Results | undefined;
let tiny: TinyModelInfo;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let tokenizer: any;

beforeAll(async () => {
  if (!haveData) return;
  tiny = writeTinyModel(model, { seed: 3 });
  writeTinyEncoder(bert, { kind: 'bert', seed: 2 });
  writeTinyEncoder(bleurt, { kind: 'regression', seed: 5 });
  tokenizer = await AutoTokenizer.from_pretrained(model);
  for (const v of VARIANTS) rows.set(v, (await loadKalahi(DATA, v)).rows);
});

function env(extra: Record<string, string>): Record<string, string> {
  return { LOKAL_MODEL: `transformers:${model}`, LOKAL_KALAHI: DATA, LOKAL_CACHE: 'off', LOKAL_LIMIT: '3', ...extra };
}

function results(): Results {
  if (!main) throw new Error('the main evals run did not complete (see the first test)');
  return main;
}

const ids = (x: unknown) => (x as Array<number | bigint>).map(Number);
const closeTo = (actual: number, expected: number, what: string) =>
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(expected)));

describe.skipIf(!haveData)(haveData ? 'Kalahi evals in child vitest processes' : `Kalahi evals (skipped: the Kalahi CSVs are not in ${DATA})`, () => {
  const blobs = path.join(dir, 'blobs');

  test('three variants, both tasks, LOKAL_LIMIT=3: one test per prompt by category, tables, kalahi.json, gates met', async () => {
    const output = path.join(dir, 'main');
    const json = path.join(dir, 'vitest.json');
    const run = await runVitest(
      ['run', '--project', 'evals', 'evals/kalahi.eval.ts', '--reporter=default', '--reporter=./reporters/lokal-reporter.ts', '--reporter=blob', `--outputFile.blob=${path.join(blobs, 'blob-1.json')}`, '--reporter=json', `--outputFile.json=${json}`],
      env({
        LOKAL_KALAHI_VARIANT: VARIANTS.join(','),
        LOKAL_OUTPUT: output,
        LOKAL_BERTSCORE_MODEL: bert,
        LOKAL_BLEURT_MODEL: bleurt,
        LOKAL_THRESHOLDS: 'kalahi.mc2>=0.4,kalahi.unenriched.bleurt_max>-100,em>=0.3',
      }),
    );
    expect(run.code, show(run)).toBe(0);
    main = readResults(output);
    expect(Object.keys(main.variants)).toEqual(VARIANTS);

    // Test names and grouping, from Vitest's own JSON report.
    const report = JSON.parse(readFileSync(json, 'utf8')) as { testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string; meta: Record<string, any> }> }> };
    const tests = report.testResults.flatMap((f) => f.assertionResults);
    for (const v of VARIANTS) {
      const first = rows.get(v)!.slice(0, 3);
      const inVariant = tests.filter((t) => t.ancestorTitles[0] === `kalahi · ${v}`);
      expect(inVariant.map((t) => [t.ancestorTitles.slice(1).join('/'), t.title])).toEqual([
        ...first.map((r) => [r.category, `${r.promptVariationId} · ${r.category} · ${r.topic}`]),
        ['', 'gate'],
      ]);
      expect(inVariant.every((t) => t.status === 'passed')).toBe(true);
      // per-test meta carries the measured prompt
      expect(inVariant[0]!.meta.lokalItem.promptVariationId).toBe(first[0]!.promptVariationId);
      expect(main.variants[v]!.items).toEqual({ selected: 3, total: rows.get(v)!.length, recorded: 3, failed: 0, skipped: 0 });
      expect(main.variants[v]!.records.map((r) => r.promptVariationId)).toEqual(first.map((r) => r.promptVariationId));
    }
    expect(rows.get('unenriched')!.length).toBe(85);
    expect(rows.get('full')!.length).toBe(150);

    // The printed tables: published columns, per-category rows, both learned metrics computed (no "not computed" line).
    expect(run.stdout).toMatch(/Kalahi · full · 3 of 150 prompts · transformers:/);
    expect(run.stdout).toMatch(/multiple choice +prompts +MC1 +MC2 +MC2 \(normalised\) +MC3/);
    expect(run.stdout).toMatch(/generation \(acc\) +replies +BLEURT +BERTScore +BLEU +ChrF +METEOR +ROUGE-1 +ROUGE-2 +ROUGE-L/);
    expect(run.stdout).not.toMatch(/not computed/);
    // aggregates came from the lokal runner (suite meta), not recomputed by the reporter
    expect(run.stdout).not.toMatch(/carry no aggregates/);
    expect(run.stdout).toMatch(/Kalahi gates\n {2}✓ Kalahi full MC2 = 0\.\d{4}, meets ≥ 0\.4000 \(gate kalahi\.mc2>=0\.4\)/);
    // MultiLoKo's clause is left to the MultiLoKo reporter; the three MC2 gates and the one BLEURT gate were judged
    expect(main.gates.map((g) => g.gate)).toEqual(['kalahi.mc2>=0.4', 'kalahi.mc2>=0.4', 'kalahi.mc2>=0.4', 'kalahi.unenriched.bleurt_max>-100']);
    expect(main.gates_passed).toBe(true);
    for (const v of VARIANTS) {
      const s = main.variants[v]!;
      expect(s.settings.learned).toEqual({ bleurt: { model: bleurt, computed: true }, bertscore: { model: bert, computed: true } });
      expect(s.settings.budget).toMatchObject({ kind: 'max_length', tokens: 256 });
      expect(s.table.mc).toEqual({ MC1: s.mc.mc1, MC2: s.mc.mc2 });
      expect(Object.keys(s.table.generation)).toEqual(['BLEURT', 'BERTScore', 'BLEU', 'ChrF', 'METEOR', 'ROUGE-1', 'ROUGE-2', 'ROUGE-L']);
      expect(s.table.generation.BLEURT).toBe(s.generation.metrics.bleurt.acc);
      expect(s.table.generation['ROUGE-L']).toBe(s.generation.metrics.rougeL.acc);
      // gate values are the table's figures
      main.gates.filter((g) => g.figure === `Kalahi ${v} MC2`).forEach((g) => expect(g.value).toBe(s.mc.mc2));
    }
  }, 120_000);

  test('MC: every reference’s log-probability equals the tiny network evaluated from its weights (1e-6), and MC1/MC2/MC3 follow', () => {
    const ref = loadTinyReferenceModel(model);
    const chat = (messages: Array<{ role: string; content: string }>, generation: boolean) =>
      ids(tokenizer.apply_chat_template(messages, { add_generation_prompt: generation, return_tensor: false, return_dict: false }));
    let checked = 0;
    for (const v of VARIANTS) {
      const variant = results().variants[v]!;
      // the first prompt of each variant (three prompt texts), and all of unenriched (two more categories' prompts)
      for (const record of v === 'unenriched' ? variant.records : variant.records.slice(0, 1)) {
        const row = rows.get(v)!.find((r) => r.promptVariationId === record.promptVariationId)!;
        const user = [{ role: 'user', content: row.prompt }];
        const p = chat(user, true);
        const expectedScores: number[] = [];
        for (const reference of record.mc!.references) {
          const text = reference.kind === 'relevant' ? row.relevantAnswers[reference.index]! : row.irrelevantAnswers[reference.index]!;
          expect(reference.text).toBe(text);
          const f = chat([...user, { role: 'assistant', content: text }], false);
          expect(f.slice(0, p.length)).toEqual(p);
          // scored span: the reference's tokens plus the template's end-of-turn suffix ('<|im_end|>', '\n')
          expect(reference.tokens).toBe(f.length - p.length);
          expect(f.length - p.length).toBe(ids(tokenizer.encode(text)).length + 2);
          const logprob = ref.continuationLogprob(f, p.length);
          closeTo(reference.logprob, logprob, `${record.promptVariationId} ${reference.kind} #${reference.index}`);
          expect(reference.bytes).toBe(Buffer.byteLength(text, 'utf8'));
          expectedScores.push(Math.exp(logprob / Buffer.byteLength(text, 'utf8')));
          checked++;
        }
        // MC figures from the reference network's scores, by Python (the reference's arithmetic)
        const nRelevant = row.relevantAnswers.length;
        const code =
          'import json,math,sys; d=json.load(sys.stdin); s=d["s"]; t=s[:d["n"]]; f=s[d["n"]:]; b=d["b"]; ' +
          'pt=[math.exp(x) for x in t]; pf=[math.exp(x) for x in f]; den=sum(pt)+sum(pf); ' +
          'print(json.dumps({"mc1": 1.0 if t[b] > max(f) else 0.0, "mc2": sum([x/den for x in pt]), "mc3": sum(1 for x in t if x > max(f))/len(t)}))';
        const expected = JSON.parse(execFileSync('python3', ['-c', code], { input: JSON.stringify({ s: expectedScores, n: nRelevant, b: row.bestIndex }) }).toString());
        expect(record.mc!.normalised.mc1).toBe(expected.mc1);
        expect(record.mc!.normalised.mc3).toBe(expected.mc3);
        closeTo(record.mc!.normalised.mc2!, expected.mc2, 'MC2');
      }
      // the variant's MC means are the plain means of the prompts' figures
      const mc1 = variant.records.map((r) => r.mc!.normalised.mc1);
      expect(variant.mc.mc1).toBe((mc1[0]! + mc1[1]! + mc1[2]!) / 3);
    }
    expect(checked).toBeGreaterThan(40);
  }, 60_000);

  test('generation: the max_length=256 reply is greedy decoding of the reference network up to 256 tokens in all', () => {
    const ref = loadTinyReferenceModel(model);
    const row = rows.get('full')![0]!;
    const p = ids(tokenizer.apply_chat_template([{ role: 'user', content: row.prompt }], { add_generation_prompt: true, return_tensor: false, return_dict: false }));
    const eos = [tiny.specialIds['<|im_end|>'], tiny.specialIds['<|endoftext|>']];
    const expected = ref.greedy(p, 256 - p.length, eos);
    // precondition: no near-ties, so float32 (onnxruntime) vs float64 cannot flip an argmax
    expect(Math.min(...expected.margins)).toBeGreaterThan(1e-4);
    const text = tokenizer.decode(expected.tokens.filter((t) => !eos.includes(t)), { skip_special_tokens: true }) as string;
    // decoded without special tokens, then Python's str.strip() (the reference's)
    const stripped = JSON.parse(execFileSync('python3', ['-c', 'import json,sys; print(json.dumps(json.load(sys.stdin).strip()))'], { input: JSON.stringify(text) }).toString());
    expect(results().variants.full!.records[0]!.generation!.response).toBe(stripped);
  }, 60_000);

  test('BERTScore F1 and BLEURT per reference equal the tiny encoders evaluated from their weights', async () => {
    const bertRef = loadTinyEncoderReference(bert);
    const bleurtRef = loadTinyEncoderReference(bleurt);
    const bertTokenizer = (await AutoTokenizer.from_pretrained(bert)) as any;
    const CLS = 2;
    const SEP = 3;
    const layers = bertRef.config.layers;
    // bert_score: stripped text with [CLS]/[SEP], the text cut to the model's 128 positions, weight 0 for [CLS]/[SEP]
    const embed = (text: string) => {
      const content = ids(bertTokenizer.encode(text.trim(), { add_special_tokens: false })).slice(0, 126);
      const tokens = [CLS, ...content, SEP];
      return { vectors: bertRef.hiddenStates(tokens)[layers]!, weights: tokens.map((t) => (t === CLS || t === SEP ? 0 : 1)) };
    };
    for (const v of ['full', 'unenriched'] as const) {
      const record = results().variants[v]!.records[0]!;
      const row = rows.get(v)!.find((r) => r.promptVariationId === record.promptVariationId)!;
      const g = record.generation!;
      expect(g.status).toBe('scored');
      const refs = [...row.relevantAnswers, ...row.irrelevantAnswers];
      const candidate = embed(g.response);
      const f1 = refs.map((r) => bertScoreFromEmbeddings(candidate, embed(r)).f1);
      const bleurtScores = refs.map((r) => {
        const pair = encodeBleurtPair(ids(bertTokenizer.encode(r, { add_special_tokens: false })), ids(bertTokenizer.encode(g.response, { add_special_tokens: false })), { clsId: CLS, sepId: SEP, maxSeqLength: 128 });
        return bleurtRef.regression(pair.inputIds, pair.tokenTypeIds);
      });
      const got = { bertscore: [...g.metrics.bertscore!.relevant, ...g.metrics.bertscore!.irrelevant], bleurt: [...g.metrics.bleurt!.relevant, ...g.metrics.bleurt!.irrelevant] };
      f1.forEach((x, i) => expect(Math.abs(got.bertscore[i]! - x), `BERTScore ${v} ref ${i}`).toBeLessThan(1e-6));
      bleurtScores.forEach((x, i) => expect(Math.abs(got.bleurt[i]! - x), `BLEURT ${v} ref ${i}`).toBeLessThan(1e-5));
      // max / diff / acc over relevant and irrelevant
      const relevantMax = Math.max(...f1.slice(0, row.relevantAnswers.length));
      const irrelevantMax = Math.max(...f1.slice(row.relevantAnswers.length));
      expect(g.metrics.bertscore!.acc).toBe(relevantMax > irrelevantMax ? 1 : 0);
      expect(Math.abs(g.metrics.bertscore!.diff! - (relevantMax - irrelevantMax))).toBeLessThan(1e-6);
    }
  }, 60_000);

  test('lokal kalahi score on the same replies gives the same generation numbers', async () => {
    for (const v of VARIANTS) {
      const variant = results().variants[v]!;
      const responses = path.join(dir, `responses-${v}.jsonl`);
      writeFileSync(responses, variant.records.map((r) => JSON.stringify({ prompt_variation_id: r.promptVariationId, response: r.generation!.response })).join('\n') + '\n');
      const scored = JSON.parse(JSON.stringify(await scoreKalahiFiles(variant.file, responses, { bertscoreModel: bert, bleurtModel: bleurt, env: {} })));
      expect(scored.generation).toEqual(variant.generation);
      expect(scored.table).toEqual(variant.table.generation);
      for (const [category, group] of Object.entries(variant.by_category)) expect(scored.by_category[category].generation).toEqual(group.generation);
      expect(scored.records.map((r: any) => r.metrics)).toEqual(variant.records.map((r) => r.generation!.metrics));
      expect(scored.problems.missing).toHaveLength(rows.get(v)!.length - 3);
    }
  }, 60_000);

  test('a replay file of the same replies runs the generation task only and gives the same numbers', async () => {
    const full = results().variants.full!;
    const replies = path.join(dir, 'replay.jsonl');
    writeFileSync(replies, full.records.map((r) => JSON.stringify({ language: 'kalahi', id: r.promptVariationId, prediction: r.generation!.response })).join('\n') + '\n');
    const output = path.join(dir, 'replay');
    const run = await runVitest(['run', '--project', 'evals', 'evals/kalahi.eval.ts'], env({ LOKAL_MODEL: `replay:${replies}`, LOKAL_OUTPUT: output, LOKAL_BERTSCORE_MODEL: bert, LOKAL_BLEURT_MODEL: bleurt }));
    expect(run.code, show(run)).toBe(0);
    const replayed = readResults(output).variants.full!;
    expect(replayed.tasks).toEqual(['generation']);
    expect(replayed.generation).toEqual(full.generation);
    expect(replayed.records.map((r) => r.generation!.metrics)).toEqual(full.records.map((r) => r.generation!.metrics));
  }, 60_000);

  test('--merge-reports of the blob report rebuilds the same kalahi.json from meta (configured reporters)', async () => {
    const output = path.join(dir, 'merged');
    mkdirSync(output, { recursive: true });
    const run = await runVitest(['run', '--merge-reports', blobs], { LOKAL_OUTPUT: output });
    expect(run.code, show(run)).toBe(0);
    expect(readResults(output)).toEqual(results());
  }, 60_000);

  test('a missed gate exits 1 naming figure, value and bound; budget, chrF++ and an unavailable learned metric are recorded', async () => {
    const output = path.join(dir, 'gated');
    const run = await runVitest(
      ['run', '--project', 'evals', 'evals/kalahi.eval.ts'],
      env({
        LOKAL_LIMIT: '1',
        LOKAL_KALAHI_TASKS: 'generation',
        LOKAL_KALAHI_BUDGET: 'new_tokens',
        LOKAL_KALAHI_CHRF: 'chrf++',
        LOKAL_BERTSCORE_MODEL: 'off',
        LOKAL_BLEURT_MODEL: path.join(dir, 'no-such-model'),
        LOKAL_OUTPUT: output,
        LOKAL_THRESHOLDS: 'kalahi.chrf_max>=100,kalahi.mc1>=0.4',
      }),
    );
    expect(run.code, show(run)).toBe(1);
    const gated = readResults(output);
    const full = gated.variants.full!;
    const chrfMax = full.generation.metrics.chrf.max as number;
    expect(gated.gates).toEqual([expect.objectContaining({ gate: 'kalahi.chrf_max>=100', value: chrfMax, bound: 100, pass: false })]);
    expect(run.stdout).toContain(`✗ Kalahi full ChrF max = ${chrfMax.toFixed(4)}, must be ≥ 100 (gate kalahi.chrf_max>=100)`);
    expect(gated.gates_not_applied).toEqual(['kalahi.mc1>=0.4']);
    expect(full.settings.budget).toMatchObject({ kind: 'new_tokens', tokens: 256 });
    expect(full.settings.chrf).toBe('chrF++');
    expect(full.settings.learned.bertscore).toEqual({ model: 'off', computed: false, reason: 'switched off (LOKAL_BERTSCORE_MODEL=off)' });
    expect(full.settings.learned.bleurt).toMatchObject({ computed: false, reason: expect.stringContaining('does not exist') });
    expect(full.table.generation.BLEURT).toBeNull();
    expect(full.mc).toBeUndefined();
    // one line per metric that was not computed, not one per prompt
    expect(run.stdout.match(/BLEURT not computed/g)).toHaveLength(1);
    // greedy decoding is deterministic: the 256-new-token reply continues the max_length=256 one
    const short = results().variants.full!.records[0]!.generation!.response.replace(/\uFFFD+$/u, '');
    const long = full.records[0]!.generation!.response;
    expect(long.startsWith(short)).toBe(true);
    expect(long.length).toBeGreaterThan(short.length);
  }, 120_000);
});
