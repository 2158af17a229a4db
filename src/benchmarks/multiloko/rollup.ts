// The roll-up of a run: subsets found in the reported modules, the official results layout, and the leaderboard summary.
import type { TestModule, TestSuite } from 'vitest/node';
import { assembleResults, type OfficialResults } from './metrics/assembleResults.ts';
import { groupMetrics } from './metrics/groupMetrics.ts';
import type { MultiLoKoMetric } from './metrics/metricNames.ts';
import { aggregateSubset, uniqueRecords, type ItemTestView } from './aggregate.ts';
import { baselineAverage, judgeAgainstBaseline, type Baseline } from './baseline.ts';
import type { LokalItemRecord, LokalSubsetAggregate } from './records.ts';
import type { ModelDescription } from '../../models/types.ts';
import { summariseHeadline, type HeadlineSummary } from './headline.ts';
import { judgeCross, judgeSubset, unmatchedScopes, type CrossFigures, type Gate, type GateOutcome } from './gates.ts';
import { summariseCalls, summarisePrompts, type CallSummary, type PromptSummary } from './usage.ts';

export interface RolledSubset {
  aggregate: LokalSubsetAggregate;
  /** Each id once, in item order. */
  records: LokalItemRecord[];
}

export interface CollectedRun {
  subsets: RolledSubset[];
  warnings: string[];
}

function viewOfTestCase(test: { meta(): object; result(): { state: string } }): ItemTestView {
  return { meta: test.meta() as ItemTestView['meta'], state: test.result().state as ItemTestView['state'] };
}

/**
 * Finds the lokal subset suites in the modules. Aggregates come from suite meta (written by the lokal runner);
 * a subset split over several suites (the same key in two files) is merged by item position and re-aggregated.
 */
export function collectSubsets(modules: ReadonlyArray<TestModule>): CollectedRun {
  const warnings: string[] = [];
  const byKey = new Map<string, { suites: TestSuite[]; views: ItemTestView[]; aggregate?: LokalSubsetAggregate }>();
  let withoutRunner = 0;
  for (const module of modules) {
    for (const suite of module.children.allSuites()) {
      const tests = [...suite.children.tests()];
      const views = tests.map(viewOfTestCase);
      if (!views.some((v) => v.meta.lokalSubset)) continue;
      const key = views.find((v) => v.meta.lokalSubset)!.meta.lokalSubset!.key;
      const entry = byKey.get(key) ?? { suites: [], views: [] };
      entry.suites.push(suite);
      entry.views.push(...views);
      const fromRunner = suite.meta().lokalAggregate;
      if (!fromRunner) withoutRunner++;
      entry.aggregate = entry.suites.length === 1 ? fromRunner : undefined;
      byKey.set(key, entry);
    }
  }
  if (withoutRunner > 0) {
    warnings.push(`${withoutRunner} subset suites carry no aggregates: configure the lokal runner (runner: './src/vitest/runner.ts') in the evals project; computed here instead`);
  }
  const subsets: RolledSubset[] = [];
  for (const { views, aggregate } of byKey.values()) {
    // With several suites for one key (e.g. two files), the first gate test's subset info describes it.
    const computed = aggregate ?? aggregateSubset(views)!;
    const records = uniqueRecords(views.flatMap((v) => (v.meta.lokalItem ? [v.meta.lokalItem] : [])));
    subsets.push({ aggregate: computed, records });
  }
  subsets.sort((a, b) => a.aggregate.order - b.aggregate.order || (a.aggregate.key < b.aggregate.key ? -1 : a.aggregate.key > b.aggregate.key ? 1 : 0));
  return { subsets, warnings };
}

/**
 * The official results layout (what `lokal score` writes for the same answers in the same order). Extra keys on an
 * item only where they say something: `missing: true` (no prediction, scored as ''), `cached: true` (from the cache).
 */
export function officialLayout(subsets: readonly RolledSubset[]): OfficialResults | undefined {
  const languages = subsets
    .filter((s) => s.records.length > 0)
    .map((s) => ({
      key: s.aggregate.key,
      examples: s.records.map((r) => ({
        id: r.id,
        record: { ...r.scores, targets: r.targets, prediction: r.prediction, ...(r.missing ? { missing: true } : {}), ...(r.cached ? { cached: true } : {}) },
      })),
    }));
  return languages.length === 0 ? undefined : assembleResults(languages, { sum: 'fold' });
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

/** Sample standard deviation (n − 1) over √n; null below two values. */
export function standardError(values: readonly number[]): number | null {
  const n = values.length;
  if (n < 2) return null;
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let squares = 0;
  for (const v of values) squares += (v - mean) * (v - mean);
  return Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
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
}

/** Every gate judged on the whole run: per subset, across local languages, and against the baseline. */
export function judgeRun(subsets: readonly RolledSubset[], groups: readonly GroupSummary[], settings: GateSettings): { outcomes: GateOutcome[]; notApplied: string[] } {
  const outcomes: GateOutcome[] = [];
  for (const s of subsets) {
    const a = s.aggregate;
    if (!a.means) continue;
    outcomes.push(...judgeSubset(settings.gates, { key: a.key, name: a.name, local: !a.translated, means: a.means }));
    const vsBaseline = settings.baseline && judgeAgainstBaseline(settings.baseline, settings.baselineTolerance, a.key, `${a.name} EM`, a.means.em);
    if (vsBaseline) outcomes.push(vsBaseline);
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
  if (settings.baseline && local) {
    const base = baselineAverage(settings.baseline, local.subsets);
    if (base && base.keys.length > 1) {
      const current = subsets.filter((s) => base.keys.includes(s.aggregate.key)).map((s) => s.aggregate.means!.em);
      let sum = 0;
      for (const v of current) sum += v;
      const outcome = judgeAgainstBaseline(
        { file: settings.baseline.file, em: new Map([['*', base.average]]) },
        settings.baselineTolerance,
        '*',
        `average EM (${base.keys.length} local languages in both runs)`,
        sum / current.length,
      )!;
      outcomes.push(outcome);
    }
  }
  const notApplied = unmatchedScopes(settings.gates, new Set(subsets.map((s) => s.aggregate.key)));
  const crossWithoutLocal = local ? [] : settings.gates.filter((g) => g.scope.kind === 'cross').map((g) => g.clause);
  return { outcomes, notApplied: [...notApplied, ...crossWithoutLocal] };
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
  subsets: Array<Pick<LokalSubsetAggregate, 'key' | 'name' | 'language' | 'translated' | 'selected' | 'total' | 'scored' | 'missing' | 'failed' | 'skipped' | 'cached' | 'prompts'> & { translation: string | null; means: Record<string, number> | null }>;
  gates: GateOutcome[];
  gates_not_applied: string[];
  gates_passed: boolean;
}

export function summariseRun(subsets: readonly RolledSubset[], groups: readonly GroupSummary[], judged: { outcomes: GateOutcome[]; notApplied: string[] }): RunSummary {
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
    subsets: subsets.map(({ aggregate: a }) => ({
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
    })),
    gates: judged.outcomes,
    gates_not_applied: judged.notApplied,
    gates_passed: judged.outcomes.every((o) => o.pass),
  };
}
