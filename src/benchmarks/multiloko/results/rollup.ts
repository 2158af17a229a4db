// MultiLoKo's roll-up: the official results layout and the leaderboard summary over the run's subsets.
import { subsetTrials, type SubsetTrialsJson } from './trialTable.ts';
import { standardError } from '../../../core/stats.ts';
import { assembleResults, type OfficialResults } from '../metrics/assembleResults.ts';
import { groupMetrics } from '../metrics/groupMetrics.ts';
import type { ExampleRecord, MultiLoKoMetric } from '../../../metrics/metricNames.ts';
import { baselineAverage, judgeAgainstBaseline, type Baseline } from '../run/baseline.ts';
import type { LokalItemRecord, LokalSubsetAggregate } from '../run/records.ts';
import type { RolledSubset } from '../run/rolledSubset.ts';
import type { ErrorCategory } from '../../../metrics/errorCategory.ts';
import { errorCounts, itemError } from './errorCounts.ts';
import type { ModelDescription } from '../../../models/types.ts';
import { summariseHeadline, type HeadlineSummary } from './headline.ts';
import { judgeCross, judgeCrossErrors, judgeSubset, unmatchedScopes, type CrossFigures, type Gate, type GateOutcome } from '../run/gates.ts';
import { summariseCalls, summarisePrompts, type CallSummary, type PromptSummary } from '../run/usage.ts';
import { hasItems, judgeAgainstBaselineItems, type BaselineComparison } from '../run/baselineGate.ts';
import { comparedNothing } from '../../../core/baseline/comparedNothing.ts';
import { unmeasured } from '../../../core/gates.ts';
import { summariseList } from '../../../data/errors.ts';
import { headlineIntervals, subsetIntervals, type HeadlineIntervals, type MetricInterval } from './intervals.ts';
import { localVsEnglish, type LocalVsEnglish } from './localVsEnglish.ts';
import { comparabilityJson, comparabilityOutcome, compareFingerprints, type ComparabilityJson, type Comparability, type Fingerprint } from '../../../core/fingerprint.ts';

/**
 * The official results layout (what `lokal score` writes for the same answers in the same order). Extra keys on an
 * item only where they say something: `missing: true` (no prediction, scored as ''), `cached: true` (from the cache).
 */
export function officialLayout(subsets: readonly RolledSubset[]): OfficialResults | undefined {
  const languages = subsets
    .filter((s) => s.records.length > 0)
    .map((s) => ({ key: s.aggregate.key, examples: s.records.map((r) => ({ id: r.id, record: officialRecord(r) })) }));
  return languages.length === 0 ? undefined : assembleResults(languages, { sum: 'fold' });
}

/**
 * `{ ...scores, targets, prediction, missing?, cached?, model_input?, prompt_tokens?, output_tokens?, server? }` with
 * Object.assign (one per item of the run; the spread costs more). What the model saw and its token counts only where
 * known (not for replay answers), after the official keys.
 */
function officialRecord(r: LokalItemRecord): ExampleRecord {
  const record = Object.assign({}, r.scores) as ExampleRecord & { error?: ErrorCategory; missing?: true; cached?: true; truncated?: true; model_input?: unknown; prompt_tokens?: number; output_tokens?: number };
  record.targets = r.targets;
  record.prediction = r.prediction;
  // Our extra key right after eval.py's (and edit_distance_first), as `lokal score` writes it.
  const error = itemError(r);
  if (error !== undefined) record.error = error;
  if (r.truncated) record.truncated = true;
  if (r.missing) record.missing = true;
  if (r.cached) record.cached = true;
  if (r.modelInput) record.model_input = r.modelInput;
  if (typeof r.promptTokens === 'number') record.prompt_tokens = r.promptTokens;
  if (typeof r.outputTokens === 'number') record.output_tokens = r.outputTokens;
  // The pool's server that answered (several servers in OPENAI_BASE_URL), last: not one of eval.py's keys.
  if (r.server !== undefined) Object.assign(record, { server: r.server });
  return record;
}

/** What the report shows of an item beyond eval.py's record: the question, the raw output and the answer scored. */
export interface LokalItemText {
  question?: string;
  raw_prediction: string;
  answer: string;
}

/**
 * The results file's own `lokal.items` section (subset → id → texts): multiloko.json's item records keep eval.py's
 * keys, and the HTML report reads the question, raw output and extracted answer from here. Redacted records hold hashes.
 */
export function lokalItems(subsets: readonly RolledSubset[]): Record<string, Record<string, LokalItemText>> {
  const out: Record<string, Record<string, LokalItemText>> = {};
  for (const s of subsets) {
    if (s.records.length === 0) continue;
    // Null prototype: a dataset id such as `__proto__` stays an ordinary key.
    const items: Record<string, LokalItemText> = Object.create(null);
    for (const r of s.records) {
      items[String(r.id)] = { ...(r.question !== undefined ? { question: r.question } : {}), raw_prediction: r.rawPrediction, answer: r.answer };
    }
    out[s.aggregate.key] = items;
  }
  return out;
}

export type GroupId = 'local' | 'human-to-english' | 'machine-to-english' | 'human-from-english' | 'machine-from-english' | 'translated';

export const GROUP_TITLES: Record<GroupId, string> = {
  local: 'local (headline)',
  'human-to-english': '→ english · human',
  'machine-to-english': '→ english · machine',
  'human-from-english': 'english → · human',
  'machine-from-english': 'english → · machine',
  translated: 'other translations',
};

export function groupOf(aggregate: LokalSubsetAggregate): GroupId {
  if (!aggregate.translated) return 'local';
  const kind = aggregate.translation === 'machine' ? 'machine' : 'human';
  if (aggregate.questionLanguage === 'english') return `${kind}-to-english`;
  if (aggregate.sourceLanguage === 'english') return `${kind}-from-english`;
  return 'translated';
}

export interface GroupSummary {
  id: GroupId;
  title: string;
  subsets: string[];
  languages: number;
  /** eval.py-style group figures over this group's subsets: average_<m>, max_<m>, min_<m>, gap_<m>. */
  figures: Record<string, number>;
  /** Average EM with its standard error across languages (sample SD, n − 1, over √n) and ± 2 SE; null for one language. */
  em: { average: number; se: number | null; low: number | null; high: number | null; min: { key: string; language: string; value: number }; max: { key: string; language: string; value: number } };
}

export function summariseGroups(subsets: readonly RolledSubset[]): GroupSummary[] {
  const groups = new Map<GroupId, RolledSubset[]>();
  for (const s of subsets) {
    if (!s.aggregate.means) continue;
    const id = groupOf(s.aggregate);
    groups.set(id, [...(groups.get(id) ?? []), s]);
  }
  const order = Object.keys(GROUP_TITLES) as GroupId[];
  return order
    .filter((id) => groups.has(id))
    .map((id) => {
      const members = groups.get(id)!;
      const means = members.map((s) => s.aggregate.means!);
      const figures = groupMetrics(means);
      const ems = means.map((m) => m.em);
      const se = standardError(ems);
      const average = figures.average_em!;
      // The first extreme wins, as Python's min()/max() (and groupMetrics) pick it.
      let lo = 0;
      let hi = 0;
      ems.forEach((v, i) => {
        if (v < ems[lo]!) lo = i;
        if (v > ems[hi]!) hi = i;
      });
      return {
        id,
        title: GROUP_TITLES[id],
        subsets: members.map((s) => s.aggregate.key),
        languages: members.length,
        figures,
        em: {
          average,
          se,
          low: se === null ? null : average - 2 * se,
          high: se === null ? null : average + 2 * se,
          min: { key: members[lo]!.aggregate.key, language: members[lo]!.aggregate.language, value: ems[lo]! },
          max: { key: members[hi]!.aggregate.key, language: members[hi]!.aggregate.language, value: ems[hi]! },
        },
      };
    });
}

export interface GateSettings {
  gates: Gate[];
  baseline?: Baseline;
  baselineTolerance: number;
  /** Default `significance` (paired tests, Holm, margin); `tolerance`: the fixed allowed drop. */
  baselineMode?: 'significance' | 'tolerance';
  baselineAlpha?: number;
  baselineMargin?: number;
  /** LOKAL_BASELINE is set but gives MultiLoKo no file, and why: the baseline gate fails. */
  baselineMissing?: string;
  /** This run's fingerprint, checked against the baseline's; `baselineAllow` names the differences accepted. */
  fingerprint?: Fingerprint;
  baselineAllow?: readonly string[];
}

/** Every gate judged on the whole run: per subset, across local languages, and against the baseline. */
export function judgeRun(
  subsets: readonly RolledSubset[],
  groups: readonly GroupSummary[],
  settings: GateSettings,
): { outcomes: GateOutcome[]; notApplied: string[]; baseline?: BaselineComparison; comparability?: Comparability } {
  const outcomes: GateOutcome[] = [];
  /** Baseline outcomes judged: none with a baseline set means nothing was compared, and that fails. */
  let compared = 0;
  // Runs made under different protocols are not compared: a score-changing difference fails the run, naming each field.
  const comparability = settings.baseline ? compareFingerprints(settings.fingerprint, settings.baseline.fingerprint, settings.baselineAllow) : undefined;
  const refused = comparability && comparabilityOutcome(comparability, settings.baseline!.file);
  if (refused) outcomes.push(refused);
  const significance = settings.baseline !== undefined && (settings.baselineMode ?? 'significance') === 'significance';
  const paired = significance && hasItems(settings.baseline!);
  // A file of per-language means has nothing to pair: only the tolerance rule can judge it, and each outcome says so.
  const tolerance = settings.baseline && !paired ? settings.baseline : undefined;
  const fallback = significance && !paired ? `; ${settings.baseline!.file} holds no per-item records, so it is compared by the tolerance rule (LOKAL_BASELINE_TOLERANCE), not paired tests` : '';
  const withFallback = (o: GateOutcome) => ((o.message += fallback), o);
  for (const s of subsets) {
    const a = s.aggregate;
    if (!a.means) continue;
    outcomes.push(...judgeSubset(settings.gates, { key: a.key, name: a.name, local: !a.translated, means: a.means, errors: errorCounts(s.records) }));
    const vsBaseline = tolerance && judgeAgainstBaseline(tolerance, settings.baselineTolerance, a.key, `${a.name} EM`, a.means.em);
    if (vsBaseline) outcomes.push(withFallback(vsBaseline));
    if (vsBaseline) compared++;
  }
  const local = groups.find((g) => g.id === 'local');
  outcomes.push(
    ...judgeCross(settings.gates, (metric: MultiLoKoMetric): CrossFigures | undefined =>
      local
        ? {
            languages: local.languages,
            average: local.figures[`average_${metric}`]!,
            min: local.figures[`min_${metric}`]!,
            max: local.figures[`max_${metric}`]!,
            gap: local.figures[`gap_${metric}`]!,
          }
        : undefined,
    ),
  );
  if (local) outcomes.push(...judgeCrossErrors(settings.gates, local.subsets.map((key) => errorCounts(subsets.find((s) => s.aggregate.key === key)!.records))));
  let comparison: BaselineComparison | undefined;
  if (paired) {
    try {
      const judged = judgeAgainstBaselineItems(subsets, settings.baseline!, { alpha: settings.baselineAlpha ?? 0.05, margin: settings.baselineMargin ?? 0.01 });
      outcomes.push(...judged.outcomes);
      compared += judged.outcomes.length;
      comparison = judged.comparison;
    } catch (error) {
      // The statistics failing (a setting they cannot use) fails the gate; the results file is still written.
      outcomes.push(unmeasured('baseline', 'MultiLoKo vs baseline', '>=', 0, `the comparison failed: ${(error as Error).message.split('\n')[0]}`));
      compared++;
    }
  }
  if (tolerance && local) {
    const base = baselineAverage(tolerance, local.subsets);
    if (base && base.keys.length > 1) {
      const current = subsets.filter((s) => base.keys.includes(s.aggregate.key)).map((s) => s.aggregate.means!.em);
      let sum = 0;
      for (const v of current) sum += v;
      const outcome = judgeAgainstBaseline(
        { file: tolerance.file, em: new Map([['*', base.average]]) },
        settings.baselineTolerance,
        '*',
        `average EM (${base.keys.length} local languages in both runs)`,
        sum / current.length,
      )!;
      outcomes.push(withFallback(outcome));
    }
  }
  if (settings.baselineMissing !== undefined) outcomes.push(comparedNothing('MultiLoKo', settings.baselineMissing));
  else if (settings.baseline && compared === 0) {
    const theirs = [...(paired ? settings.baseline.items!.keys() : settings.baseline.em.keys())];
    const ours = subsets.filter((s) => s.aggregate.means && s.records.length > 0).map((s) => s.aggregate.key);
    const shared = ours.filter((k) => theirs.includes(k));
    const detail = shared.length > 0 ? `no item id of ${summariseList(shared)} is in both runs` : `no subset is in both runs (the baseline's: ${summariseList(theirs)}; this run's: ${summariseList(ours)})`;
    outcomes.push(comparedNothing('MultiLoKo', `${settings.baseline.file} pairs no item with this run: ${detail}`));
  }
  const notApplied = unmatchedScopes(settings.gates, new Set(subsets.map((s) => s.aggregate.key)));
  const crossWithoutLocal = local ? [] : settings.gates.filter((g) => g.scope.kind === 'cross').map((g) => g.clause);
  return { outcomes, notApplied: [...notApplied, ...crossWithoutLocal], ...(comparison ? { baseline: comparison } : {}), ...(comparability ? { comparability } : {}) };
}

export interface RunSummary {
  benchmark: 'multiloko';
  split: string;
  model: string | undefined;
  /** The model's describe(): provider, model, revision, settings (never an API key). */
  model_description: ModelDescription | null;
  /** How items were asked: prompt mode, few-shot source, answer extraction. */
  prompt: PromptSummary;
  /** Cache hits and model calls; timing excludes cache hits. */
  calls: CallSummary;
  items: { selected: number; scored: number; missing: number; failed: number; skipped: number; cached: number };
  /** The leaderboard figures: average EM over the local subsets ± 2 SE, gap, min, max; MTE and LE (headline.ts). */
  headline: HeadlineSummary | null;
  groups: GroupSummary[];
  subsets: Array<Pick<LokalSubsetAggregate, 'key' | 'name' | 'language' | 'translated' | 'selected' | 'total' | 'scored' | 'missing' | 'failed' | 'skipped' | 'cached' | 'prompts'> & { translation: string | null; means: Record<string, number> | null; intervals: Partial<Record<MultiLoKoMetric, MetricInterval>>; errors: Record<ErrorCategory, number> | null; trials?: SubsetTrialsJson }>;
  /** 95% bootstrap intervals of the headline figures (average EM, gap, MTE, LE), with the resamples and seed. */
  intervals: HeadlineIntervals | null;
  gates: GateOutcome[];
  gates_not_applied: string[];
  gates_passed: boolean;
  /** With LOKAL_BASELINE in significance mode: every paired test, its decision and the flipped items per subset. */
  baseline?: BaselineComparison;
  /** What makes this run comparable with another (data, prompt, extraction, scorer, decoding, model). */
  fingerprint?: Fingerprint;
  /** With LOKAL_BASELINE: how this run's fingerprint differs from the baseline's. */
  comparability?: ComparabilityJson;
  /** Per language with a question asked both in it and in English: the 2×2 table of right/wrong, McNemar's p. */
  local_vs_english?: LocalVsEnglish;
}

export function summariseRun(
  subsets: readonly RolledSubset[],
  groups: readonly GroupSummary[],
  judged: { outcomes: GateOutcome[]; notApplied: string[]; baseline?: BaselineComparison; comparability?: Comparability },
  options: { intervals?: boolean; fingerprint?: Fingerprint } = {},
): RunSummary {
  const first = subsets[0]?.aggregate;
  const aggregates = subsets.map((s) => s.aggregate);
  const count = (f: (a: LokalSubsetAggregate) => number) => subsets.reduce((n, s) => n + f(s.aggregate), 0);
  return {
    benchmark: 'multiloko',
    split: first?.split ?? 'dev',
    model: first?.model,
    model_description: aggregates.find((a) => a.modelDescription)?.modelDescription ?? null,
    prompt: summarisePrompts(aggregates),
    calls: summariseCalls(aggregates),
    items: {
      selected: count((a) => a.selected),
      scored: count((a) => a.scored),
      missing: count((a) => a.missing),
      failed: count((a) => a.failed),
      skipped: count((a) => a.skipped),
      cached: count((a) => a.cached ?? 0),
    },
    headline: summariseHeadline(subsets),
    groups: [...groups],
    subsets: subsets.map(({ aggregate: a, records }) => ({
      key: a.key,
      name: a.name,
      language: a.language,
      translated: a.translated,
      translation: a.translation ?? null,
      selected: a.selected,
      total: a.total,
      scored: a.scored,
      missing: a.missing,
      failed: a.failed,
      skipped: a.skipped,
      cached: a.cached ?? 0,
      prompts: a.prompts ?? [],
      means: a.means ?? null,
      intervals: subsetIntervals(records),
      errors: errorCounts(records),
      // Only with trials: a run of one trial per item writes what it wrote before.
      ...trialsField(records),
    })),
    intervals: options.intervals === false ? null : headlineIntervals(subsets) ?? null,
    gates: judged.outcomes,
    gates_not_applied: judged.notApplied,
    gates_passed: judged.outcomes.every((o) => o.pass),
    ...(judged.baseline ? { baseline: judged.baseline } : {}),
    ...(options.fingerprint ? { fingerprint: options.fingerprint } : {}),
    ...(judged.comparability ? { comparability: comparabilityJson(judged.comparability) } : {}),
    ...localVsEnglishField(subsets),
  };
}

/** `{ trials }` when the subset's items have trials; nothing otherwise. */
function trialsField(records: readonly LokalItemRecord[]): { trials?: SubsetTrialsJson } {
  const trials = subsetTrials(records);
  return trials ? { trials } : {};
}

/** `{ local_vs_english }` when some language has a pair in the run; nothing otherwise. */
function localVsEnglishField(subsets: readonly RolledSubset[]): { local_vs_english?: LocalVsEnglish } {
  const block = localVsEnglish(subsets);
  return Object.keys(block).length > 0 ? { local_vs_english: block } : {};
}
