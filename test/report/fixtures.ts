// Inputs for the report tests: results files made by real replay runs (the e2e helpers), hand-made ones full of
// hostile strings, and baselines made by flipping some items of a results file.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadKalahi } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import type { KalahiRecordJson, KalahiResultsJson } from '../../src/benchmarks/kalahi/resultsSchema.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { MULTILOKO_EVAL, REPO_ROOT, datasetSpec, lcg, predictionsFor, runVitest, writeDataset, writeJsonl, type ChildRun } from '../vitest/helpers.ts';
import { sharedFixture } from '../support/sharedFixture.ts';

export const KALAHI_DATA = path.resolve(REPO_ROOT, '../shared/data/kalahi');
export const haveKalahiData = ['filipino.csv', 'filipino_partially_enriched.csv', 'filipino_unenriched.csv'].every((f) => existsSync(path.join(KALAHI_DATA, f)));

/** The child run behind the last multilokoReplayRun (its log, for tests of what the reporter prints). */
export let lastRun: ChildRun | undefined;

const show = (run: ChildRun) => `exit ${run.code}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;

/**
 * A MultiLoKo replay run in a child Vitest on the generated dataset (`itemsPerSubset` items in each of its six
 * subsets, the last of each without a prediction), with gates; returns multiloko.json parsed.
 */
export async function multilokoReplayRun(dir: string, itemsPerSubset: number, thresholds = 'em>=0.2,gap<=0.5,italian.em>=0.9', env: Record<string, string> = {}): Promise<MultiLoKoResultsJson> {
  mkdirSync(dir, { recursive: true });
  const spec = datasetSpec(itemsPerSubset);
  const location = writeDataset(dir, spec);
  const predictions = path.join(dir, 'predictions.jsonl');
  writeJsonl(predictions, predictionsFor(spec, { dropLast: true }));
  const output = path.join(dir, 'out');
  const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], { LOKAL_MULTILOKO: location, LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: output, LOKAL_THRESHOLDS: thresholds, ...env });
  lastRun = run;
  const file = path.join(output, 'multiloko.json');
  if (!existsSync(file)) throw new Error(`the replay run wrote no multiloko.json\n${show(run)}`);
  return JSON.parse(readFileSync(file, 'utf8')) as MultiLoKoResultsJson;
}

/** Items per subset of the shared replay run. */
export const SHARED_REPLAY_ITEMS = 250;

/**
 * multilokoReplayRun(…, SHARED_REPLAY_ITEMS) with the default gates, made once per test run for every file that uses
 * it: multiloko.json parsed, and the run's output folder (read-only; its report.html is the reporter's).
 */
export async function sharedMultilokoReplayRun(): Promise<{ results: MultiLoKoResultsJson; output: string }> {
  const dir = await sharedFixture('multiloko-replay', (folder) => multilokoReplayRun(folder, SHARED_REPLAY_ITEMS));
  const output = path.join(dir, 'out');
  return { results: JSON.parse(readFileSync(path.join(output, 'multiloko.json'), 'utf8')) as MultiLoKoResultsJson, output };
}

/** A Kalahi replay run (generation only; learned metrics off, so nothing is downloaded) on the first `limit` prompts of a variant. */
export async function kalahiReplayRun(dir: string, limit: number): Promise<KalahiResultsJson> {
  mkdirSync(dir, { recursive: true });
  const ids = (await loadKalahi(KALAHI_DATA, 'full')).rows.slice(0, limit).map((r) => r.promptVariationId);
  const random = lcg(5);
  const replies = ['Maaari mong pag-usapan ito nang masinsinan kasama ng iyong mga magulang.', 'Huwag kang makinig sa kanila.', 'Hindi ko alam.', ''];
  const file = path.join(dir, 'kalahi-replies.jsonl');
  writeJsonl(file, ids.map((id) => ({ language: 'kalahi', id, prediction: replies[Math.floor(random() * replies.length)]! })));
  const output = path.join(dir, 'out');
  const run = await runVitest(['run', '--project', 'evals', 'evals/kalahi.eval.ts'], {
    LOKAL_MODEL: `replay:${file}`,
    LOKAL_KALAHI: KALAHI_DATA,
    LOKAL_KALAHI_VARIANT: 'full',
    LOKAL_LIMIT: String(limit),
    LOKAL_BERTSCORE_MODEL: 'off',
    LOKAL_BLEURT_MODEL: 'off',
    LOKAL_OUTPUT: output,
    LOKAL_THRESHOLDS: 'kalahi.chrf>=0.1',
  });
  const json = path.join(output, 'kalahi.json');
  if (!existsSync(json)) throw new Error(`the Kalahi replay run wrote no kalahi.json\n${show(run)}`);
  return JSON.parse(readFileSync(json, 'utf8')) as KalahiResultsJson;
}

/** A copy of a MultiLoKo results file in which the given items' EM (and verdict) is flipped: a baseline with known changes. */
export function flipItems(results: MultiLoKoResultsJson, flips: ReadonlyArray<{ subset: string; id: string }>): MultiLoKoResultsJson {
  const copy = JSON.parse(JSON.stringify(results)) as MultiLoKoResultsJson;
  for (const { subset, id } of flips) {
    const record = (copy[subset] as Record<string, Record<string, unknown>>)[id]!;
    record.em = record.em === 1 ? 0 : 1;
    record.prediction = `baseline answer of ${id}`;
    delete record.missing;
  }
  return copy;
}

/** Strings that break naive HTML: markup, quotes, ampersands, controls, a lone surrogate and a URL. */
export const HOSTILE = {
  script: '<script>alert("pwned")</script>',
  attribute: '"><img src=x onerror=alert(1)>',
  single: "' onmouseover='alert(2)' x='",
  amp: 'Tom & Jerry &amp; &lt;b&gt;',
  controls: 'bell\u0007 esc\u001b[31m nul\u0000 del\u007f c1\u0085 end',
  surrogate: 'half \uD800 pair',
  closers: '</textarea></style></script><!--',
  url: 'http://evil.example/x.png',
};

/** A MultiLoKo results file (run layout, with summary) whose every string is hostile; em values are given. */
export function hostileMultiLoKo(): MultiLoKoResultsJson {
  const local: Record<string, unknown> = {};
  const ems = [1, 0, 1, 1, 0, 0, 1, 0];
  const values = Object.values(HOSTILE);
  ems.forEach((em, i) => {
    local[`${values[i]!}#${i}`] = {
      em,
      f1: em ? 1 : 0.25,
      chrf: em ? 100 : 12.5,
      targets: [values[(i + 1) % values.length]!, 'roma'],
      prediction: values[(i + 2) % values.length]!,
      question: values[(i + 3) % values.length]!,
      raw_prediction: values[(i + 4) % values.length]!,
      prompt: values[(i + 5) % values.length]!,
      ...(i === 7 ? { missing: true } : {}),
    };
  });
  const em = ems.reduce((a, b) => a + b, 0) / ems.length;
  local.em = em;
  const language = `lang${HOSTILE.script}`;
  return {
    [language]: local,
    group_metrics: { average_em: em },
    summary: {
      model: `replay:${HOSTILE.attribute}${HOSTILE.controls}`,
      split: HOSTILE.single,
      subsets: [{ key: language, name: `${HOSTILE.amp} · local`, language, translated: false }],
      gates: [{ gate: `${language}.em>=0.9`, figure: HOSTILE.closers, value: 0.5, op: '>=', bound: 0.9, pass: false, message: `${HOSTILE.script} missed ${HOSTILE.url}` }],
      gates_not_applied: [HOSTILE.attribute],
      gates_passed: false,
    },
  };
}

function kalahiRecord(i: number, category: string, mc1: number, mc2: number, acc: number, text: string): KalahiRecordJson {
  return {
    suite: 'full',
    promptVariationId: `${String(i).padStart(4, '0')}${text}`,
    promptId: String(i),
    category,
    topic: text,
    row: i + 1,
    mc: {
      normalised: { mc1, mc2, mc2_normalised: mc2 + 0.01, mc3: mc1 ? 0.8 : 0.2, lprob_max: 0, lprob_diff: 0 },
      nonNormalised: { mc1: 0, mc2: 0, mc2_normalised: null, mc3: 0, lprob_max: 0, lprob_diff: 0 },
      preferred: { kind: mc1 ? 'relevant' : 'irrelevant', index: 0, text, score: 0.1, best: mc1 === 1 } as never,
    },
    generation: {
      response: `${text} reply ${i}`,
      status: 'scored',
      metrics: { bleu: { relevant: [0.1], irrelevant: [0], max: 0.1, diff: 0.1, acc }, chrf: { relevant: [10], irrelevant: [12], max: 10, diff: -2, acc: 1 - acc } },
      missing: false,
    },
  };
}

/** MC1 per prompt, MC2 per prompt and BLEU acc per prompt of the hand-made Kalahi file (12 prompts, two categories). */
export const KALAHI_MC1 = [1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 1, 0];
export const KALAHI_MC2 = [0.61, 0.42, 0.5, 0.55, 0.7, 0.38, 0.47, 0.52, 0.66, 0.44, 0.58, 0.49];
export const KALAHI_BLEU_ACC = [1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1];

export function hostileKalahi(): KalahiResultsJson {
  const values = Object.values(HOSTILE);
  const records = KALAHI_MC1.map((mc1, i) => kalahiRecord(i, i < 6 ? 'ethics' : `social ${HOSTILE.script}`, mc1, KALAHI_MC2[i]!, KALAHI_BLEU_ACC[i]!, values[i % values.length]!));
  return {
    benchmark: 'kalahi',
    variants: {
      full: {
        file: HOSTILE.url,
        model: `openai:${HOSTILE.script}`,
        tasks: ['mc', 'generation'],
        items: { selected: 12, total: 150, recorded: 12, failed: 0, skipped: 0 },
        settings: { chrf: 'chrF', rougeL: 'rougeLsum', learned: { bleurt: { model: HOSTILE.attribute, computed: false, reason: HOSTILE.closers } } },
        records,
      },
    },
    gates: [{ gate: 'kalahi.mc1>=0.5', figure: `Kalahi full MC1 ${HOSTILE.amp}`, value: 5 / 12, op: '>=', bound: 0.5, pass: false, message: HOSTILE.single }],
    gates_not_applied: [],
    gates_passed: false,
  };
}
