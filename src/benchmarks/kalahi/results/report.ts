// Kalahi's roll-up (defineBenchmark's `report`): tables, gates and the results file — loaded by the definition only
// when the reporter rolls up.
import type { BenchmarkReport, BenchmarkSummary, ReportContext, RolledGroup } from '../../benchmark.ts';
import type { KalahiResultsJson } from '../resultsSchema.ts';
import type { KalahiSettings } from '../run/config.ts';
import { judgeKalahi, kalahiGate } from '../run/gates.ts';
import type { KalahiPromptRecord, KalahiSuiteAggregate } from '../run/records.ts';
import { kalahiResults, resultsText } from './results.ts';
import { kalahiGateLines, kalahiTableLines } from './table.ts';
import { kalahiIntervals } from './intervals.ts';
import { baselineFileFor } from '../../../core/baseline/index.ts';
import { comparedNothing, noBaselineFileReason } from '../../../core/baseline/comparedNothing.ts';
import { summariseList } from '../../../data/errors.ts';
import type { GateOutcome } from '../../../core/gates.ts';
import { judgeKalahiBaseline, judgeKalahiTolerance, readKalahiBaseline, withRedactedAnswers, type KalahiBaseline, type KalahiBaselineComparison } from '../run/baselineGate.ts';
import { mcProtocolDifferences, withoutMCProtocol } from '../../../core/mcProtocol.ts';
import { mcProtocolMismatch } from '../run/protocol.ts';
import type { RolledKalahiSuite } from './results.ts';
import { comparabilityJson, comparabilityLines, comparabilityOutcome, compareFingerprints, type Comparability, type Fingerprint } from '../../../core/fingerprint.ts';
import { kalahiFingerprint } from '../run/fingerprint.ts';
import { resolveRedaction } from '../../../core/redact.ts';

/** Subsets not compared and the MC1 flips per variant, below the gate lines. */
function kalahiBaselineLines(c: KalahiBaselineComparison): string[] {
  const lines = [`Kalahi vs baseline ${c.file} · MC1 and MC2 paired by prompt variation, α = ${c.alpha} (Holm), margin ${c.margin}`];
  lines.push(`  MC1 flips: ${Object.entries(c.flips).map(([v, f]) => `${v} ${f.worse.length} right → wrong, ${f.better.length} wrong → right`).join('; ') || 'none'} (kalahi.json, baseline.flips)`);
  if (c.only_current.length > 0) lines.push(`  not in the baseline, not compared: ${c.only_current.join(', ')}`);
  if (c.only_baseline.length > 0) lines.push(`  in the baseline only, not compared: ${c.only_baseline.join(', ')}`);
  return lines;
}

interface JudgedBaseline {
  outcomes: GateOutcome[];
  comparison?: KalahiBaselineComparison;
  comparability?: Comparability;
  file?: string;
}

/**
 * Against LOKAL_BASELINE (when it holds a kalahi.json): paired tests, or the fixed tolerance in tolerance mode; a
 * baseline made under another protocol (its fingerprint) fails the run, naming each field, unless allowed.
 */
function judgeBaseline(suites: readonly RolledKalahiSuite[], settings: KalahiSettings | undefined, root: string, fingerprint: Fingerprint): JudgedBaseline {
  if (settings?.baseline === undefined) return { outcomes: [] };
  // A baseline that cannot be read or judged is a failing gate, never a lost results file.
  try {
    return judgeBaselineOf(suites, settings, settings.baseline, root, fingerprint);
  } catch (error) {
    return { outcomes: [comparedNothing('Kalahi', (error as Error).message.split('\n')[0]!)] };
  }
}

function judgeBaselineOf(suites: readonly RolledKalahiSuite[], settings: KalahiSettings, setting: string, root: string, fingerprint: Fingerprint): JudgedBaseline {
  const file = baselineFileFor(setting, root, 'kalahi');
  // A baseline that compares nothing fails (src/core/baseline/comparedNothing.ts).
  if (file === undefined) return { outcomes: [comparedNothing('Kalahi', noBaselineFileReason(setting, root, 'Kalahi', 'kalahi.json'))] };
  const read = readKalahiBaseline(file);
  // A variant whose MC the baseline measured by another protocol fails with the line naming it; the others are judged.
  const sameProtocol = sameProtocolBaseline(suites, read);
  const protocolOutcomes = sameProtocol.protocolOutcomes;
  // Redacted, what the results file quotes of the baseline is hashed as the run's own answers are.
  const baseline = resolveRedaction(settings.redact).on ? withRedactedAnswers(sameProtocol.baseline) : sameProtocol.baseline;
  // The MC protocol is named per variant above, never offered to LOKAL_BASELINE_ALLOW (which cannot make it comparable).
  const comparability = compareFingerprints(withoutMCProtocol(fingerprint), withoutMCProtocol(baseline.fingerprint), settings.baselineAllow ?? []);
  const refused = comparabilityOutcome(comparability, file);
  // Variants of another MC protocol are in neither run's list (their protocol outcome says why they are not compared).
  const records = suites.filter((s) => baseline.variants.has(s.aggregate.variant) || !read.variants.has(s.aggregate.variant)).map((s) => ({ variant: s.aggregate.variant, records: s.records }));
  const judged: JudgedBaseline =
    settings.baselineMode === 'tolerance'
      ? { outcomes: judgeKalahiTolerance(records, baseline, settings.baselineTolerance ?? 0.02) }
      : judgeKalahiBaseline(records, baseline, { alpha: settings.baselineAlpha ?? 0.05, margin: settings.baselineMargin ?? 0.01 });
  if (judged.outcomes.length === 0 && protocolOutcomes.length === 0) {
    const theirs = [...baseline.variants.keys()];
    const ours = suites.map((s) => s.aggregate.variant);
    const detail = ours.some((v) => theirs.includes(v)) ? 'no prompt variation id is scored in both runs' : `no variant is in both runs (the baseline's: ${summariseList(theirs)}; this run's: ${summariseList(ours)})`;
    judged.outcomes = [comparedNothing('Kalahi', `${file} pairs no prompt with this run: ${detail}`)];
  }
  return { ...judged, outcomes: [...(refused ? [refused] : []), ...protocolOutcomes, ...judged.outcomes], comparability, file };
}

/** The baseline without the variants whose MC it measured by another protocol, and a failing outcome for each of them. */
function sameProtocolBaseline(suites: readonly RolledKalahiSuite[], baseline: KalahiBaseline): { baseline: KalahiBaseline; protocolOutcomes: GateOutcome[] } {
  const current = new Map(suites.map((s) => [s.aggregate.variant, s.aggregate.tasks.includes('mc') ? (s.aggregate.mcProtocol ?? 'logprobs') : undefined]));
  const differences = mcProtocolDifferences(current, baseline.protocols);
  if (differences.length === 0) return { baseline, protocolOutcomes: [] };
  const protocolOutcomes = differences.map(({ variant, current: ours, other }): GateOutcome => {
    const message = mcProtocolMismatch(new Map([[variant, ours]]), new Map([[variant, other]]), `baseline ${baseline.file}`)!;
    return { gate: 'comparable', figure: `Kalahi ${variant} MC protocol vs baseline`, value: Number.NaN, op: '<=', bound: 0, pass: false, message };
  });
  const variants = new Map([...baseline.variants].filter(([variant]) => !differences.some((d) => d.variant === variant)));
  return { baseline: { ...baseline, variants }, protocolOutcomes };
}

export function reportKalahi(
  rolled: ReadonlyArray<RolledGroup<KalahiPromptRecord, KalahiSuiteAggregate>>,
  { clauses, settings, root, modelLabel }: Pick<ReportContext<KalahiSettings>, 'clauses'> & Partial<Pick<ReportContext<KalahiSettings>, 'settings' | 'root' | 'modelLabel'>>,
): BenchmarkReport {
  const suites = rolled.map((r) => ({ aggregate: r.aggregate, records: r.records }));
  const gates = judgeKalahi(clauses.map(kalahiGate), suites.map((s) => s.aggregate));
  const fingerprint = kalahiFingerprint(suites.map((s) => s.aggregate), settings, root ?? process.cwd());
  const vsBaseline = judgeBaseline(suites, settings, root ?? process.cwd(), fingerprint);
  const judged = { ...gates, outcomes: [...gates.outcomes, ...vsBaseline.outcomes] };
  const plain = {
    ...kalahiResults(suites, judged),
    fingerprint,
    ...(vsBaseline.comparability ? { comparability: comparabilityJson(vsBaseline.comparability) } : {}),
    ...(vsBaseline.comparison ? { baseline: vsBaseline.comparison } : {}),
  };
  // Each variant's intervals beside its figures (before the long list of records).
  const results = {
    ...plain,
    variants: Object.fromEntries(
      suites.map((s) => {
        const { records, ...figures } = plain.variants[s.aggregate.variant]!;
        return [s.aggregate.variant, { ...figures, intervals: kalahiIntervals(s.records, Object.keys(s.aggregate.byCategory)), records }];
      }),
    ),
  };
  const lines = ['', ...kalahiTableLines(suites, modelLabel), ...kalahiGateLines(judged.outcomes, judged.notApplied), ...(vsBaseline.comparison ? kalahiBaselineLines(vsBaseline.comparison) : [])];
  const redaction = resolveRedaction(settings?.redact);
  if (redaction.on) lines.push(`lokal: Kalahi redacted (${redaction.reason}): names, annotations, results and the report carry ids, hashes and figures, no prompt, reference or reply text`);
  if (vsBaseline.comparability) lines.push(...comparabilityLines(vsBaseline.comparability, vsBaseline.file!).map((line) => `lokal: Kalahi ${line}`));
  // A run in which no prompt was scored (no reply matched, every call failed) measured nothing: it must not pass.
  const scored = suites.reduce((n, s) => n + (s.aggregate.overall.mc?.scored ?? 0) + (s.aggregate.overall.generation?.scored ?? 0), 0);
  const selected = suites.reduce((n, s) => n + s.aggregate.selected, 0);
  if (selected > 0 && scored === 0) {
    lines.push(`lokal: Kalahi measured nothing: none of the ${selected} prompts was scored, so the run fails`);
    results.gates_passed = false;
  }
  return {
    lines,
    resultsText: resultsText(results),
    passed: results.gates_passed,
    missed: judged.outcomes.filter((o) => !o.pass),
  };
}

/** Vitest UI's summary: figures per variant with their intervals and the gates, with the chart (Kalahi is small, so the whole roll-up is reused). */
export async function summaryKalahi(rolled: ReadonlyArray<RolledGroup<KalahiPromptRecord, KalahiSuiteAggregate>>, context: ReportContext<KalahiSettings>): Promise<BenchmarkSummary> {
  const report = reportKalahi(rolled, context);
  if (report.resultsText === undefined) return { text: report.lines.filter((line) => line !== '').join('\n') };
  const { kalahiSummary } = await import('./section/uiSummary.ts');
  return { ...(await kalahiSummary(JSON.parse(report.resultsText) as KalahiResultsJson)), missed: report.missed ?? [] };
}
