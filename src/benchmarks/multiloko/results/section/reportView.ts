// MultiLoKo's figures for the report, recomputed from the per-item records (the intervals need them; the file's own
// means and headline are shown where present and are what the recomputation must agree with).
import { boundedMeanInterval, normalQuantile, pairedDifference, type Interval } from '../../../../core/statistics/index.ts';
import { finiteOrNull, gateRows, itemPrompt, proportionInterval, recordedText, type GateRow, type ItemPrompt, type Verdict } from '../../../../report/viewParts.ts';
import type { MultiLoKoItemRecord, MultiLoKoResultsJson } from '../../resultsSchema.ts';
import type { HeadlineTrials } from '../headlineTrials.ts';
import { parseSubsetKey, subsetDirection, subsetLanguage, subsetTitle } from '../../data/subsetKey.ts';
import { countErrorCategories, ERROR_CATEGORIES, type ErrorCategory } from '../../../../metrics/errorCategory.ts';

export interface MultiLoKoItemView {
  subset: string;
  id: string;
  question?: string;
  targets: string[];
  /** The normalised answer eval.py scored. */
  prediction: string;
  raw?: string;
  /** The answer scored (extracted from the raw output, or the raw output as is). */
  answer?: string;
  /** What the model was fed (`model_input`): the text, the messages as `role: content` lines, or the SHA-256 only. */
  prompt?: ItemPrompt;
  scores: Record<string, number>;
  em: number;
  missing: boolean;
  verdict: Verdict;
  /** The record's error category; undefined in files written before categories were recorded. */
  error?: ErrorCategory;
  /** With trials (docs/trials.md): each trial's EM and normalised answer; `em` and `scores` are then their means. */
  trials?: Array<{ em: number; prediction: string }>;
}

export interface MultiLoKoSubset {
  key: string;
  name: string;
  /** The non-English side (what the tables group by). */
  language: string;
  translated: boolean;
  translation?: 'human' | 'machine';
  /** `to-english`: a language's local questions in English (MTE); `from-english`: English questions in the language (LE). */
  direction?: 'to-english' | 'from-english';
  items: MultiLoKoItemView[];
  /** Means as the file states them (eval.py's per-language figures). */
  means: Record<string, number>;
  /** Recomputed from items: Wilson for EM, t-interval for F1 and chrF; undefined without items. */
  em?: Interval;
  f1?: Interval;
  chrf?: Interval;
  /** F1 over word segments, where the file's items carry it (t-interval as F1). */
  f1Words?: Interval;
  missing: number;
  /** Items per error category; undefined when no item records one. */
  errors?: Record<ErrorCategory, number>;
}

/** A difference of two EMs (MTE or LE) with its interval and how the interval was made. */
export interface Effect {
  value: number;
  low: number;
  high: number;
  se: number;
  method: 'paired' | 'independent';
  n: number;
}

interface LanguageRow {
  language: string;
  subset: MultiLoKoSubset;
  mte: { human?: Effect; machine?: Effect };
  le: { human?: Effect; machine?: Effect };
}

interface Headline {
  languages: number;
  em: number;
  /** 2 SE across languages (the official README's ±); null with one language. */
  em2se: number | null;
  min: number;
  max: number;
  minLanguage: string;
  maxLanguage: string;
  gap: number;
  /** Average MTE (human translations) ± 2 SE across languages. */
  mte: number | null;
  mte2se: number | null;
  /** The numbers came from the file's summary (true) or were computed here from the records (false). */
  fromSummary: boolean;
  /** With trials: pass@k and pass^k averaged over the local languages, as the file's summary states them. */
  trials?: HeadlineTrials;
}

export interface MultiLoKoView {
  model: string;
  split?: string;
  subsets: MultiLoKoSubset[];
  languages: LanguageRow[];
  headline?: Headline;
  gates: GateRow[];
  gatesNotApplied: string[];
  gatesPassed?: boolean;
}

/** Top-level keys that are not subsets: eval.py's aggregates, the run's summary, `lokal score`'s problems. */
export const NOT_SUBSETS: ReadonlySet<string> = new Set(['group_metrics', 'summary', 'lokal']);
const METRICS = ['em', 'f1', 'bleu', 'chrf', 'edit_distance', 'edit_similarity', 'edit_distance_first', 'f1_words'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function item(subset: string, id: string, record: MultiLoKoItemRecord, extra: Record<string, unknown> | undefined): MultiLoKoItemView {
  const scores: Record<string, number> = {};
  for (const m of METRICS) {
    const v = finiteOrNull(record[m]);
    if (v !== null) scores[m] = v;
  }
  const em = scores.em ?? 0;
  const missing = record.missing === true;
  const error = typeof record.error === 'string' && (ERROR_CATEGORIES as readonly string[]).includes(record.error) ? (record.error as ErrorCategory) : undefined;
  const trials = Array.isArray(record.trials) ? record.trials.map((t) => ({ em: t.em, prediction: t.prediction })) : undefined;
  const targets = Array.isArray(record.targets) ? record.targets.map((t) => recordedText(t) ?? '') : record.targets === undefined ? [] : [recordedText(record.targets) ?? ''];
  return {
    subset,
    id,
    question: recordedText(extra?.question ?? record.question),
    targets,
    prediction: recordedText(record.prediction) ?? '',
    raw: recordedText(extra?.raw_prediction ?? record.raw_prediction ?? record.rawPrediction),
    answer: recordedText(extra?.answer ?? record.answer),
    prompt: itemPrompt(record.model_input ?? record.prompt),
    scores,
    em,
    missing,
    verdict: missing ? 'missing' : em >= 1 ? 'correct' : 'wrong',
    ...(error ? { error } : {}),
    ...(trials ? { trials } : {}),
  };
}

/** The subsets of a results file in file order, with their items and recomputed intervals. */
function multilokoSubsets(results: MultiLoKoResultsJson, confidence = 0.95): MultiLoKoSubset[] {
  const summaries = new Map<string, Record<string, unknown>>();
  for (const s of results.summary?.subsets ?? []) if (isObject(s) && typeof s.key === 'string') summaries.set(s.key, s);
  // The run's own section: each item's question, raw output and extracted answer (absent in `lokal score` output).
  const texts = isObject(results.lokal) && isObject(results.lokal.items) ? results.lokal.items : {};
  const out: MultiLoKoSubset[] = [];
  for (const [key, entry] of Object.entries(results)) {
    if (NOT_SUBSETS.has(key) || !isObject(entry)) continue;
    const items: MultiLoKoItemView[] = [];
    const means: Record<string, number> = {};
    const subsetTexts = Object.hasOwn(texts, key) && isObject(texts[key]) ? texts[key] : {};
    for (const [id, value] of Object.entries(entry)) {
      const extra = Object.hasOwn(subsetTexts, id) && isObject(subsetTexts[id]) ? subsetTexts[id] : undefined;
      if (isObject(value)) items.push(item(key, id, value as MultiLoKoItemRecord, extra));
      else if (finiteOrNull(value) !== null) means[id] = value as number;
    }
    const parsed = parseSubsetKey(key);
    const direction = subsetDirection(parsed);
    const summary = summaries.get(key);
    const translation = summary?.translation === 'human' || summary?.translation === 'machine' ? summary.translation : parsed.kind === 'translated' ? parsed.translation : undefined;
    const scores = (m: string) => items.map((i) => i.scores[m]).filter((v): v is number => v !== undefined);
    const f1 = scores('f1');
    const chrf = scores('chrf');
    const f1Words = scores('f1_words');
    const errors = items.flatMap((i) => (i.error ? [i.error] : []));
    out.push({
      key,
      name: typeof summary?.name === 'string' ? summary.name : subsetTitle(parsed),
      language: typeof summary?.language === 'string' ? summary.language : subsetLanguage(parsed),
      translated: typeof summary?.translated === 'boolean' ? summary.translated : parsed.kind === 'translated',
      ...(translation ? { translation } : {}),
      ...(direction ? { direction } : {}),
      items,
      means,
      em: proportionInterval(items.map((i) => i.em), confidence),
      f1: f1.length ? boundedMeanInterval(f1, 1, confidence) : undefined,
      chrf: chrf.length ? boundedMeanInterval(chrf, 100, confidence) : undefined,
      ...(f1Words.length ? { f1Words: boundedMeanInterval(f1Words, 1, confidence) } : {}),
      missing: items.filter((i) => i.missing).length,
      ...(errors.length ? { errors: countErrorCategories(errors) } : {}),
    });
  }
  return out;
}

/**
 * EM(a) − EM(b) with its interval: when the two subsets hold the same ids (a question and its translation), the paired
 * differences' t-interval; otherwise two independent proportions, SE = √(p₁q₁/n₁ + p₂q₂/n₂), normal interval.
 */
function emDifference(a: MultiLoKoSubset, b: MultiLoKoSubset, confidence = 0.95): Effect | undefined {
  if (a.items.length === 0 || b.items.length === 0) return undefined;
  const byId = new Map(b.items.map((i) => [i.id, i.em]));
  const z = normalQuantile(1 - (1 - confidence) / 2);
  if (a.items.length === b.items.length && a.items.every((i) => byId.has(i.id))) {
    const d = pairedDifference(a.items.map((i) => i.em - byId.get(i.id)!));
    const se = d.se ?? 0;
    return { value: d.mean, low: d.mean - z * se, high: d.mean + z * se, se, method: 'paired', n: d.n };
  }
  const p1 = a.items.reduce((s, i) => s + i.em, 0) / a.items.length;
  const p2 = b.items.reduce((s, i) => s + i.em, 0) / b.items.length;
  const se = Math.sqrt((p1 * (1 - p1)) / a.items.length + (p2 * (1 - p2)) / b.items.length);
  const value = p1 - p2;
  return { value, low: value - z * se, high: value + z * se, se, method: 'independent', n: a.items.length + b.items.length };
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => recordedText(x) ?? '') : []);

/** Mean and 2·SE (sample SD over √n) across languages; 2 SE is null for fewer than two. */
function acrossLanguages(values: readonly number[]): { mean: number; twoSe: number | null } {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  if (values.length < 2) return { mean, twoSe: null };
  const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
  return { mean, twoSe: (2 * sd) / Math.sqrt(values.length) };
}

function headline(results: MultiLoKoResultsJson, local: readonly MultiLoKoSubset[], rows: readonly LanguageRow[]): Headline | undefined {
  const h = results.summary?.headline;
  if (isObject(h) && finiteOrNull(h.em) !== null) {
    const mte = isObject(h.mte) && isObject(h.mte.human) ? h.mte.human : undefined;
    return {
      languages: finiteOrNull(h.languages) ?? local.length,
      em: h.em as number,
      em2se: finiteOrNull(h.em_2se),
      min: finiteOrNull(h.em_min) ?? NaN,
      max: finiteOrNull(h.em_max) ?? NaN,
      minLanguage: recordedText(h.em_min_language) ?? '',
      maxLanguage: recordedText(h.em_max_language) ?? '',
      gap: finiteOrNull(h.em_gap) ?? NaN,
      mte: mte ? finiteOrNull(mte.average) : null,
      mte2se: mte ? finiteOrNull(mte.two_se) : null,
      fromSummary: true,
      ...(isObject(h.trials) && isObject(h.trials.pass_at) ? { trials: h.trials as unknown as HeadlineTrials } : {}),
    };
  }
  const scored = local.filter((s) => s.em);
  if (scored.length === 0) return undefined;
  const ems = scored.map((s) => s.em!.value);
  const { mean, twoSe } = acrossLanguages(ems);
  const minAt = ems.indexOf(Math.min(...ems));
  const maxAt = ems.indexOf(Math.max(...ems));
  const mtes = rows.map((r) => r.mte.human?.value).filter((v): v is number => v !== undefined);
  const mte = mtes.length ? acrossLanguages(mtes) : undefined;
  return {
    languages: scored.length,
    em: mean,
    em2se: twoSe,
    min: ems[minAt]!,
    max: ems[maxAt]!,
    minLanguage: scored[minAt]!.language,
    maxLanguage: scored[maxAt]!.language,
    gap: ems[maxAt]! - ems[minAt]!,
    mte: mte ? mte.mean : null,
    mte2se: mte ? mte.twoSe : null,
    fromSummary: false,
  };
}

/** Everything the MultiLoKo section shows. */
export function multilokoView(results: MultiLoKoResultsJson, confidence = 0.95): MultiLoKoView {
  const subsets = multilokoSubsets(results, confidence);
  const local = subsets.filter((s) => !s.translated);
  const find = (language: string, direction: 'to-english' | 'from-english', kind: 'human' | 'machine') =>
    subsets.find((s) => s.language === language && s.direction === direction && s.translation === kind);
  const languages: LanguageRow[] = local.map((subset) => {
    const effect = (direction: 'to-english' | 'from-english', kind: 'human' | 'machine') => {
      const other = find(subset.language, direction, kind);
      return other ? emDifference(subset, other, confidence) : undefined;
    };
    const row: LanguageRow = { language: subset.language, subset, mte: {}, le: {} };
    for (const kind of ['human', 'machine'] as const) {
      const mte = effect('to-english', kind);
      const le = effect('from-english', kind);
      if (mte) row.mte[kind] = mte;
      if (le) row.le[kind] = le;
    }
    return row;
  });
  const summary = results.summary;
  return {
    model: recordedText(summary?.model) ?? '(model not recorded: a lokal score file)',
    ...(typeof summary?.split === 'string' ? { split: summary.split } : {}),
    subsets,
    languages,
    headline: headline(results, local, languages),
    gates: gateRows(summary?.gates),
    gatesNotApplied: strings(summary?.gates_not_applied),
    ...(typeof summary?.gates_passed === 'boolean' ? { gatesPassed: summary.gates_passed } : {}),
  };
}
