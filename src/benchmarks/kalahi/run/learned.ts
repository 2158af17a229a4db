// The learned metrics of Kalahi's generation task (BERTScore F1, BLEURT) as optional scorers: each is loaded once per
// process and model; a model that cannot be loaded (e.g. offline without an ONNX export) or is switched off is
// reported once as "not computed" with the reason, and every reply is still scored with the text metrics.
import type { BertScorer } from '../../../models/encoders/bertScorer.ts';
import type { BleurtScorer } from '../../../models/encoders/bleurtScorer.ts';
import { loadOptionalPeer, TRANSFORMERS_PEER } from '../../../models/optionalPeer.ts';
import { isLearnedMetricOff } from './config.ts';
import type { KalahiLearnedMetric } from './records.ts';

export type LearnedScorer =
  | { metric: KalahiLearnedMetric; available: true; model: string; description: Record<string, unknown>; score(response: string, references: readonly string[]): Promise<number[]> }
  | { metric: KalahiLearnedMetric; available: false; model: string; reason: string };

export interface LearnedScorers {
  bleurt: LearnedScorer;
  bertscore: LearnedScorer;
}

const VARIABLES: Record<KalahiLearnedMetric, string> = { bleurt: 'LOKAL_BLEURT_MODEL', bertscore: 'LOKAL_BERTSCORE_MODEL' };

/** One line: error messages of model loaders can span several. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/gu, ' ').trim();
}

function bertScoreOf(scorer: BertScorer, model: string): LearnedScorer {
  return {
    metric: 'bertscore',
    available: true,
    model,
    description: { ...scorer.describe() },
    // bert_score(predictions=[reply], references=[reference]) per reference; F1 is Kalahi's figure.
    score: async (response, references) => (await scorer.score(references.map(() => response), references)).map((r) => r.f1),
  };
}

function bleurtOf(scorer: BleurtScorer, model: string): LearnedScorer {
  return {
    metric: 'bleurt',
    available: true,
    model,
    description: { ...scorer.describe() },
    // BleurtScorer.score(references=[reference], candidates=[reply]) per reference.
    score: (response, references) => scorer.score(references, references.map(() => response)),
  };
}

interface Opened {
  scorer: LearnedScorer;
  dispose(): Promise<void>;
}

const opened = new Map<string, Promise<Opened>>();

async function open(metric: KalahiLearnedMetric, model: string): Promise<Opened> {
  if (isLearnedMetricOff(model)) {
    return { scorer: { metric, available: false, model: 'off', reason: `switched off (${VARIABLES[metric]}=off)` }, dispose: async () => {} };
  }
  try {
    // Loaded on demand: runs without learned metrics never load transformers.js for them, nor need it installed.
    const encoders = () => loadOptionalPeer(TRANSFORMERS_PEER, () => import('../../../models/encoders/index.ts'));
    if (metric === 'bertscore') {
      const { createBertScorer } = await encoders();
      const scorer = await createBertScorer({ model });
      return { scorer: bertScoreOf(scorer, model), dispose: () => scorer.dispose() };
    }
    const { createBleurtScorer } = await encoders();
    const scorer = await createBleurtScorer({ model });
    return { scorer: bleurtOf(scorer, model), dispose: () => scorer.dispose() };
  } catch (error) {
    // EncoderModelError messages start with the metric's name, which the report prints already.
    const reason = oneLine(error instanceof Error ? error.message : String(error)).replace(/^(BERTScore|BLEURT): /u, '');
    return { scorer: { metric, available: false, model, reason: `${reason} (set ${VARIABLES[metric]} to a model folder, or to off)` }, dispose: async () => {} };
  }
}

/** The scorer of one learned metric and model, loaded on first use and shared by every test of this process. */
export function learnedScorer(metric: KalahiLearnedMetric, model: string): Promise<LearnedScorer> {
  const key = `${metric}\u0000${model}`;
  let entry = opened.get(key);
  if (!entry) {
    entry = open(metric, model);
    opened.set(key, entry);
  }
  return entry.then((o) => o.scorer);
}

export async function learnedScorers(models: Record<KalahiLearnedMetric, string>): Promise<LearnedScorers> {
  const [bleurt, bertscore] = await Promise.all([learnedScorer('bleurt', models.bleurt), learnedScorer('bertscore', models.bertscore)]);
  return { bleurt, bertscore };
}

/** Frees every loaded encoder (the next use loads it again). */
export async function closeLearnedScorers(): Promise<void> {
  const entries = [...opened.values()];
  opened.clear();
  await Promise.all(entries.map(async (e) => (await e).dispose()));
}
