// MultiLoKo's roll-up (defineBenchmark's `report`): leaderboard tables, headline, gates and the results file over
// every subset of the run — loaded by the definition only when the reporter rolls up.
import { trialLines } from './trialTable.ts';
import { flakyTableLines } from './flakyTable.ts';
import { baselineFileFor } from '../../../core/baseline/index.ts';
import { noBaselineFileReason } from '../../../core/baseline/comparedNothing.ts';
import type { BenchmarkReport, BenchmarkSummary, ReportContext, RolledGroup } from '../../benchmark.ts';
import type { MultiLoKoResultsJson } from '../resultsSchema.ts';
import { readBaseline, withRedactedAnswers } from '../run/baseline.ts';
import { multilokoGate } from '../run/gates.ts';
import { headlineLines } from './headlineTable.ts';
import { headlineIntervalLines } from './intervalTable.ts';
import type { LokalItemRecord, LokalSubsetAggregate } from '../run/records.ts';
import { judgeRun, lokalItems, officialLayout, summariseGroups, summariseRun } from './rollup.ts';
import type { MultiLoKoSettings } from '../settings.ts';
import { baselineLines, gateLines, leaderboardLines, tableMetrics } from './table.ts';
import { describePrompts, summarisePrompts } from '../run/usage.ts';
import { multilokoFingerprint } from '../run/fingerprint.ts';
import { comparabilityLines } from '../../../core/fingerprint.ts';
import { resolveRedaction } from '../../../core/redact.ts';
import { jsonPieces } from '../../../core/jsonPieces.ts';
import { callsLine } from './callsLine.ts';
import { wordSegmenterFallbackLine } from '../metrics/wordSegmenter.ts';
import { errorTableLines } from './errorTable.ts';
import { localVsEnglishTableLines } from './localVsEnglishTable.ts';


/** Gates, baseline and the run summary over every subset (`intervals: false` skips the headline bootstrap). */
function rollUp(rolled: ReadonlyArray<RolledGroup<LokalItemRecord, LokalSubsetAggregate>>, { settings, root, clauses }: ReportContext<MultiLoKoSettings>, options: { intervals: boolean }) {
  // Gate settings given now win; otherwise those the test run recorded (so a merge judges like its shards).
  const recorded = rolled[0]!.aggregate;
  const baselineFile = settings.baseline ?? recorded.baseline;
  const now = settings.baseline !== undefined;
  const ownBaseline = baselineFile === undefined ? undefined : baselineFileFor(baselineFile, root, 'multiloko');
  const tolerance = now ? settings.baselineTolerance : recorded.baselineTolerance;
  const subsets = rolled.map((r) => ({ aggregate: r.aggregate, records: r.records }));
  const groups = summariseGroups(subsets);
  // A baseline that cannot be used is a failing gate, never a lost results file.
  let baseline: ReturnType<typeof readBaseline> | undefined;
  let baselineMissing = baselineFile !== undefined && ownBaseline === undefined ? noBaselineFileReason(baselineFile, root, 'MultiLoKo', 'multiloko.json') : undefined;
  try {
    baseline = ownBaseline === undefined ? undefined : readBaseline(ownBaseline);
    // Redacted, what the results file quotes of the baseline is hashed as the run's own answers are.
    if (baseline && resolveRedaction(settings.redact).on) baseline = withRedactedAnswers(baseline);
  } catch (error) {
    baselineMissing = (error as Error).message;
  }
  const fingerprint = multilokoFingerprint(subsets.map((s) => s.aggregate), summarisePrompts(subsets.map((s) => s.aggregate)), root);
  const judged = judgeRun(subsets, groups, {
    gates: clauses.map(multilokoGate),
    baseline,
    baselineTolerance: tolerance,
    baselineMode: now ? settings.baselineMode : recorded.baselineMode ?? settings.baselineMode,
    baselineAlpha: now ? settings.baselineAlpha : recorded.baselineAlpha ?? settings.baselineAlpha,
    baselineMargin: now ? settings.baselineMargin : recorded.baselineMargin ?? settings.baselineMargin,
    ...(baselineMissing !== undefined ? { baselineMissing } : {}),
    fingerprint,
    baselineAllow: (now ? settings.baselineAllow : recorded.baselineAllow ?? settings.baselineAllow) ?? [],
  });
  const summary = summariseRun(subsets, groups, judged, { ...options, fingerprint });
  // A run in which no item got an answer (no prediction matched, every call failed) measured nothing: it must not pass.
  const answered = summary.items.scored - summary.items.missing;
  const measuredNothing = summary.items.selected > 0 && answered <= 0;
  if (measuredNothing) summary.gates_passed = false;
  return { subsets, groups, judged, summary, measuredNothing, baselineFile: ownBaseline };
}

/** An item as the flaky table reads it: its id and, with trials, each one's EM and normalised answer. */
const flakySource = (r: LokalItemRecord) => ({ id: String(r.id), ...(r.trials ? { trials: r.trials.map((t) => ({ em: t.scores.em, prediction: t.prediction })) } : {}) });

export function reportMultiLoKo(rolled: ReadonlyArray<RolledGroup<LokalItemRecord, LokalSubsetAggregate>>, context: ReportContext<MultiLoKoSettings>): BenchmarkReport {
  const { subsets, groups, judged, summary, measuredNothing, baselineFile } = rollUp(rolled, context, { intervals: true });
  const lines = ['', ...leaderboardLines(subsets, groups, tableMetrics(context.settings.tableMetrics))];
  if (summary.headline) lines.push(...headlineLines(summary.headline, { model: context.modelLabel ?? summary.model ?? '?', prompt: describePrompts(summary.prompt), leaderboard: context.modelLabel === undefined }));
  if (summary.intervals) lines.push(...headlineIntervalLines(summary.intervals));
  lines.push(...errorTableLines(summary.subsets));
  lines.push(...trialLines(summary.subsets));
  lines.push(...flakyTableLines(subsets.map((s) => ({ name: s.aggregate.name, language: s.aggregate.language, items: s.records.map(flakySource) }))));
  lines.push(...localVsEnglishTableLines(summary.local_vs_english));
  lines.push(`lokal: ${describePrompts(summary.prompt, summary.model)}; ${callsLine(summary, context.root)}`);
  const wordRules = wordSegmenterFallbackLine(subsets.map((s) => s.aggregate.questionLanguage));
  if (wordRules) lines.push(`lokal: MultiLoKo ${wordRules}`);
  const redaction = resolveRedaction(context.settings.redact);
  if (redaction.on) lines.push(`lokal: MultiLoKo redacted (${redaction.reason}): names, annotations, results and the report carry ids, hashes and figures, no question, prompt, target or answer text`);
  lines.push(...gateLines(judged.outcomes, judged.notApplied));
  if (judged.baseline) lines.push(...baselineLines(judged.baseline));
  if (judged.comparability) lines.push(...comparabilityLines(judged.comparability, baselineFile ?? '').map((line) => `lokal: MultiLoKo ${line}`));
  if (measuredNothing) {
    lines.push(`lokal: MultiLoKo measured nothing: none of the ${summary.items.selected} items got an answer (${summary.items.missing} without a prediction, ${summary.items.failed} failed), so the run fails`);
  }
  const official = officialLayout(subsets);
  // The question, raw output and answer of each item go in the file's own section, after eval.py's layout and the summary.
  const results = official && { ...official, summary, lokal: { items: lokalItems(subsets) } };
  // In pieces, one per top-level key (eval.py's languages, the summary, the items), each one-byte unless it holds a
  // character above U+00FF (the summary's '→', non-Latin text); joined only if the text is read, never to write the file.
  const pieces = results && jsonPieces(results, 4);
  let resultsText: string | undefined;
  if (pieces) {
    resultsText = '';
    for (const piece of pieces) resultsText += piece;
  }
  return {
    lines,
    resultsText,
    ...(pieces ? { resultsPieces: pieces } : {}),
    ...(results ? { results } : {}),
    passed: summary.gates_passed,
    missed: judged.outcomes.filter((o) => !o.pass),
  };
}

/**
 * Vitest UI's summary: the leaderboard line, EM per language with Wilson intervals and the gates, with the EM chart —
 * the report's figures without the headline bootstrap and without writing the results text.
 */
export async function summaryMultiLoKo(rolled: ReadonlyArray<RolledGroup<LokalItemRecord, LokalSubsetAggregate>>, context: ReportContext<MultiLoKoSettings>): Promise<BenchmarkSummary> {
  const { subsets, summary, judged } = rollUp(rolled, context, { intervals: false });
  const { multilokoSummary } = await import('./section/uiSummary.ts');
  // The summary shows local languages only (the headline comes from the summary): their items are enough.
  const shown = await multilokoSummary({ ...officialLayout(subsets.filter((s) => !s.aggregate.translated)), summary } as unknown as MultiLoKoResultsJson);
  return { ...shown, missed: judged.outcomes.filter((o) => !o.pass) };
}
