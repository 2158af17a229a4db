// Kalahi's figures for the report, recomputed per prompt record so each has an interval: Wilson for MC1 and the
// generation metrics' acc (0/1 per prompt), the t-interval of the mean for MC2, MC2 (normalised) and MC3.
import { boundedMeanInterval, type Interval } from '../../../../core/statistics/index.ts';
import { finiteOrNull, gateRows, proportionInterval, recordedText, type GateRow, type Verdict } from '../../../../report/viewParts.ts';
import type { KalahiRecordJson, KalahiResultsJson, KalahiVariantJson, KalahiGroupTrialsJson } from '../../resultsSchema.ts';

/** The published generation table's columns, in its order, with their labels. */
export const KALAHI_METRICS = [
  ['bleurt', 'BLEURT'],
  ['bertscore', 'BERTScore'],
  ['bleu', 'BLEU'],
  ['chrf', 'ChrF'],
  ['meteor', 'METEOR'],
  ['rouge1', 'ROUGE-1'],
  ['rouge2', 'ROUGE-2'],
  ['rougeL', 'ROUGE-L'],
] as const;
type KalahiMetricName = (typeof KALAHI_METRICS)[number][0];

export interface KalahiPrompt {
  variant: string;
  id: string;
  promptId: string;
  category: string;
  topic: string;
  prompt?: string;
  response?: string;
  generationStatus?: string;
  generationReason?: string;
  /** The answer the model's log-probabilities preferred, and whether it was the best answer. */
  preferred?: { kind: string; text: string; best: boolean };
  /** Every answer scored as the reply (log-probability protocol), in the record's order; empty without MC. */
  choices: KalahiChoice[];
  /** The letter protocol's question: the reply and the letter read from it, and the best answer's letter. */
  letter?: { response: string; chosen: string | null; answer: string };
  mc?: { mc1: number | null; mc2: number | null; mc2_normalised: number | null; mc3: number | null };
  /** acc (max over relevant > max over irrelevant) per metric, for scored replies. */
  acc: Partial<Record<KalahiMetricName, number>>;
  max: Partial<Record<KalahiMetricName, number>>;
  verdict: Verdict;
  /** What the verdict is judged on: `MC1`, or a generation metric's acc when there is no MC. */
  verdictBasis: string;
}

/** One answer of a prompt as the model's reply: its log-probability and its share of the prompt's probability. */
export interface KalahiChoice {
  kind: string;
  text: string;
  best: boolean;
  /** Σ log p of its tokens. */
  logprob: number | null;
  /** The byte-normalised score exp(logprob / bytes). */
  score: number | null;
  /** score / Σ scores of the prompt's answers: the share MC2 (normalised) sums over the relevant answers. */
  probability: number | null;
  /** The answer the model prefers (the highest score). */
  chosen: boolean;
}

/** The answers of an MC record with their normalised probabilities; the preferred one marked. */
export function kalahiChoices(mc: KalahiRecordJson['mc']): KalahiChoice[] {
  const references = Array.isArray(mc?.references) ? mc.references : [];
  const scores = references.map((r) => finiteOrNull(r.score));
  const total = scores.reduce<number>((sum, v) => sum + (v ?? 0), 0);
  const p = mc?.preferred;
  return references.map((r, i) => ({
    kind: recordedText(r.kind) ?? '',
    text: recordedText(r.text) ?? '',
    best: r.best === true,
    logprob: finiteOrNull(r.logprob),
    score: scores[i]!,
    probability: scores[i] !== null && total > 0 ? scores[i]! / total : null,
    // Older records name the preferred answer without its index: matched by its text then.
    chosen: p !== undefined && p !== null && p.kind === r.kind && (p.index !== undefined ? p.index === r.index : p.text === r.text),
  }));
}

export interface KalahiFigures {
  prompts: number;
  mc?: { n: number; mc1?: Interval; mc2?: Interval; mc2_normalised?: Interval; mc3?: Interval };
  generation?: { scored: number; skipped: number; failed: number; acc: Partial<Record<KalahiMetricName, Interval>> };
}

export interface KalahiVariantView {
  key: string;
  model: string;
  file?: string;
  tasks: string[];
  selected?: number;
  total?: number;
  chrfLabel?: string;
  /** Learned metrics that were not computed, with the reason. */
  notComputed: Array<{ metric: string; reason: string }>;
  overall: KalahiFigures;
  categories: Array<{ name: string; figures: KalahiFigures }>;
  prompts: KalahiPrompt[];
  /** The file's own published table (MC1, MC2, metric acc), for cross-checking and when records are absent. */
  table: { mc?: Record<string, number | null>; generation?: Record<string, number | null> };
  /** With trials (kalahi.json `trials`): the trials asked per prompt and the lettered MC1's figures over them. */
  trials?: KalahiGroupTrialsJson;
}

export interface KalahiView {
  variants: KalahiVariantView[];
  gates: GateRow[];
  gatesNotApplied: string[];
  gatesPassed?: boolean;
}

function prompt(variant: string, r: KalahiRecordJson): KalahiPrompt {
  const acc: KalahiPrompt['acc'] = {};
  const max: KalahiPrompt['max'] = {};
  const g = r.generation;
  if (g && g.status === 'scored') {
    for (const [metric] of KALAHI_METRICS) {
      const m = g.metrics?.[metric];
      const a = finiteOrNull(m?.acc);
      if (a !== null) acc[metric] = a;
      const x = finiteOrNull(m?.max);
      if (x !== null) max[metric] = x;
    }
  }
  const n = r.mc?.normalised;
  const mc = n ? { mc1: finiteOrNull(n.mc1), mc2: finiteOrNull(n.mc2), mc2_normalised: finiteOrNull(n.mc2_normalised), mc3: finiteOrNull(n.mc3) } : undefined;
  const p = r.mc?.preferred;
  // MC1 is the figure a prompt is right or wrong by; a generation-only run (replay) falls back to the first metric computed.
  let verdict: Verdict;
  let verdictBasis: string;
  const firstMetric = KALAHI_METRICS.find(([m]) => acc[m] !== undefined);
  if (mc && mc.mc1 !== null) {
    verdict = mc.mc1 >= 1 ? 'correct' : 'wrong';
    verdictBasis = 'MC1';
  } else if (g && (g.missing === true || g.status !== 'scored')) {
    verdict = g.status === 'failed' ? 'wrong' : 'missing';
    verdictBasis = `reply ${recordedText(g.status) ?? 'absent'}`;
  } else if (firstMetric) {
    verdict = acc[firstMetric[0]]! >= 1 ? 'correct' : 'wrong';
    verdictBasis = `${firstMetric[1]} acc`;
  } else {
    verdict = 'missing';
    verdictBasis = 'no score';
  }
  return {
    variant,
    id: recordedText(r.promptVariationId) ?? '',
    promptId: recordedText(r.promptId) ?? '',
    category: recordedText(r.category) ?? '',
    topic: recordedText(r.topic) ?? '',
    prompt: recordedText(r.prompt),
    response: g ? recordedText(g.response) : undefined,
    generationStatus: g ? recordedText(g.status) : undefined,
    generationReason: g ? recordedText(g.reason) : undefined,
    ...(p ? { preferred: { kind: recordedText(p.kind) ?? '', text: recordedText(p.text) ?? '', best: p.best === true } } : {}),
    choices: kalahiChoices(r.mc),
    ...(r.mc?.letter ? { letter: { response: recordedText(r.mc.letter.response) ?? '', chosen: recordedText(r.mc.letter.chosen) ?? null, answer: recordedText(r.mc.letter.answer) ?? '' } } : {}),
    ...(mc ? { mc } : {}),
    acc,
    max,
    verdict,
    verdictBasis,
  };
}

/** Figures of a group of prompts, with intervals; nulls (the reference's NaN) are left out as its means leave them out. */
function kalahiFigures(prompts: readonly KalahiPrompt[], confidence = 0.95): KalahiFigures {
  const out: KalahiFigures = { prompts: prompts.length };
  const withMc = prompts.filter((p) => p.mc);
  if (withMc.length) {
    const values = (k: 'mc1' | 'mc2' | 'mc2_normalised' | 'mc3') => withMc.map((p) => p.mc![k]).filter((v): v is number => v !== null);
    const t = (k: 'mc2' | 'mc2_normalised' | 'mc3') => (values(k).length ? boundedMeanInterval(values(k), 1, confidence) : undefined);
    const mc1 = values('mc1');
    out.mc = {
      n: withMc.length,
      // With trials a prompt's MC1 is a mean over them: proportionInterval then takes the quasi-Wilson interval.
      mc1: proportionInterval(mc1, confidence),
      mc2: t('mc2'),
      mc2_normalised: t('mc2_normalised'),
      mc3: t('mc3'),
    };
  }
  const withGeneration = prompts.filter((p) => p.generationStatus !== undefined);
  if (withGeneration.length) {
    const scored = withGeneration.filter((p) => p.generationStatus === 'scored');
    const acc: Partial<Record<KalahiMetricName, Interval>> = {};
    for (const [metric] of KALAHI_METRICS) {
      const values = scored.map((p) => p.acc[metric]).filter((v): v is number => v !== undefined);
      const interval = proportionInterval(values, confidence);
      if (interval) acc[metric] = interval;
    }
    out.generation = {
      scored: scored.length,
      skipped: withGeneration.filter((p) => p.generationStatus === 'skipped').length,
      failed: withGeneration.filter((p) => p.generationStatus === 'failed').length,
      acc,
    };
  }
  return out;
}

function variantView(key: string, v: KalahiVariantJson, confidence: number): KalahiVariantView {
  const prompts = (v.records ?? []).map((r) => prompt(key, r));
  const categories = [...new Set(prompts.map((p) => p.category))];
  const learned = v.settings?.learned ?? {};
  return {
    key,
    model: recordedText(v.model) ?? '(model not recorded)',
    ...(typeof v.file === 'string' ? { file: v.file } : {}),
    tasks: Array.isArray(v.tasks) ? v.tasks.map((t) => String(t)) : [],
    ...(finiteOrNull(v.items?.selected) !== null ? { selected: v.items!.selected as number } : {}),
    ...(finiteOrNull(v.items?.total) !== null ? { total: v.items!.total as number } : {}),
    ...(typeof v.settings?.chrf === 'string' ? { chrfLabel: v.settings.chrf } : {}),
    notComputed: Object.entries(learned)
      .filter(([, s]) => s && s.computed === false)
      .map(([metric, s]) => ({ metric, reason: recordedText(s.reason) ?? 'not computed' })),
    overall: kalahiFigures(prompts, confidence),
    categories: categories.map((name) => ({ name, figures: kalahiFigures(prompts.filter((p) => p.category === name), confidence) })),
    prompts,
    table: v.table ?? {},
    ...(v.trials ? { trials: v.trials } : {}),
  };
}

export function kalahiView(results: KalahiResultsJson, confidence = 0.95): KalahiView {
  return {
    variants: Object.entries(results.variants ?? {}).map(([key, v]) => variantView(key, v, confidence)),
    gates: gateRows(results.gates),
    gatesNotApplied: Array.isArray(results.gates_not_applied) ? results.gates_not_applied.map((x) => String(x)) : [],
    ...(typeof results.gates_passed === 'boolean' ? { gatesPassed: results.gates_passed } : {}),
  };
}
