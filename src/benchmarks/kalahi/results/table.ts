// The Kalahi tables as plain text, in the published layout (MC: MC1, MC2; generation: BLEURT, BERTScore, BLEU, ChrF,
// METEOR, ROUGE-1, ROUGE-2, ROUGE-L as acc), one row for all prompts and one per category, plus the extra MC columns.
import { KALAHI_LEARNED_METRICS, KALAHI_TABLE_METRICS, type KalahiGroupFigures } from '../run/records.ts';
import { learnedStatus, type RolledKalahiSuite } from './results.ts';
import { KALAHI_FIGURE_LABELS } from '../run/gates.ts';
import type { GateOutcome } from '../../../core/gates.ts';
import { alignedColumns, gateSection } from '../../../core/textTable.ts';
import { kalahiGroupIntervals } from './intervals.ts';
import type { ItemMeanInterval } from '../../../core/statistics/index.ts';
import { orderedRecords } from './aggregate.ts';
import { groupTrialFigures, positionLine, type KalahiGroupTrialFigures, type KalahiMCTrialFigures, type KalahiMetricTrialFigures } from './trialFigures.ts';
import { intervalText } from '../../../report/numberText.ts';

/** A figure with its interval, `0.4200 [0.361, 0.481]` (MC1: Wilson's; MC2: quasi-Wilson, inside [0, 1]). */
const withInterval = (value: number | null | undefined, i: ItemMeanInterval | undefined) =>
  value === null || value === undefined || !i || i.n < 2 ? figure(value) : `${figure(value)} [${i.low.toFixed(3)}, ${i.high.toFixed(3)}]`;

const figure = (value: number | null | undefined) => (value === null || value === undefined ? '–' : value.toFixed(4));

function groups(suite: RolledKalahiSuite): Array<[string, KalahiGroupFigures]> {
  return [['all', suite.aggregate.overall], ...Object.entries(suite.aggregate.byCategory)];
}

/** Each variant's tables, headed by the model's label in a run of several models (`qwen3 (replay:…)`), else its provider. */
export function kalahiTableLines(suites: readonly RolledKalahiSuite[], modelLabel?: string): string[] {
  const lines: string[] = [];
  for (const suite of suites) {
    const a = suite.aggregate;
    // A letter run's MC1 is not the reference's figure: the header says so.
    lines.push(`Kalahi · ${a.variant} · ${a.selected} of ${a.total} prompts · ${modelLabel === undefined || modelLabel === a.model ? a.model : `${modelLabel} (${a.model})`}${a.mcProtocol === 'letter' && a.tasks.includes('mc') ? " · MC by letter (SEA-HELM's lettered question)" : ''}`);
    const rows = groups(suite);
    if (rows.some(([, g]) => g.mc)) {
      const header = ['multiple choice', 'prompts', 'MC1', 'MC2', 'MC2 (normalised)', 'MC3'];
      const body = rows.filter(([, g]) => g.mc).map(([name, g]) => {
        const n = g.mc!.normalised;
        const intervals = kalahiGroupIntervals(name === 'all' ? suite.records : suite.records.filter((r) => r.category === name)).mc;
        return [name, String(g.mc!.scored), withInterval(n.mc1, intervals?.mc1), withInterval(n.mc2, intervals?.mc2), figure(n.mc2_normalised), figure(n.mc3)];
      });
      lines.push(...alignedColumns([header, ...body], (c) => c > 0).map((l) => `  ${l}`));
    }
    if (rows.some(([, g]) => g.generation)) {
      const header = ['generation (acc)', 'replies', ...KALAHI_TABLE_METRICS.map((m) => KALAHI_FIGURE_LABELS[m])];
      const body = rows.filter(([, g]) => g.generation).map(([name, g]) => {
        const gen = g.generation!;
        const extra = `${gen.skipped ? ` (${gen.skipped}∅)` : ''}${gen.failed ? ` (${gen.failed}✗)` : ''}`;
        return [name, `${gen.scored}${extra}`, ...KALAHI_TABLE_METRICS.map((m) => figure(gen.metrics[m]?.acc))];
      });
      lines.push(...alignedColumns([header, ...body], (c) => c > 0).map((l) => `  ${l}`));
      const status = learnedStatus(a);
      for (const metric of KALAHI_LEARNED_METRICS) {
        if (!status[metric].computed) lines.push(`  ${KALAHI_FIGURE_LABELS[metric]} not computed: ${status[metric].reason}`);
      }
      lines.push(`  budget ${a.budget.description} · ChrF column = ${a.labels.chrf} · ROUGE-L column = ${a.labels.rougeL}`);
    }
    lines.push(...kalahiTrialLines(suite));
    if (rows.some(([, g]) => g.mc)) lines.push('  MC1 [95% Wilson interval], MC2 [95% quasi-Wilson interval]; generation intervals in kalahi.json (variants.<v>.intervals)');
    if (rows.some(([, g]) => g.mc)) lines.push("  MC2 = the reference's (exp of exponentiated scores, ≈ 0.5 for every model); MC2 (normalised) = Σ relevant / Σ all scores");
    if (a.failed > 0 || a.skipped > 0) lines.push(`  ${a.failed} prompt tests failed, ${a.skipped} skipped`);
    lines.push('');
  }
  return lines;
}

const share = (value: number | null) => (value === null ? 'n/a' : `${(100 * value).toFixed(0)}%`);
const passColumns = (figures: KalahiMCTrialFigures | KalahiMetricTrialFigures) => [
  ...Object.entries(figures.pass_at).map(([k, f]): [string, string] => [`pass@${k}`, f.value.toFixed(4)]),
  ...Object.entries(figures.pass_hat).filter(([k]) => k !== '1').map(([k, f]): [string, string] => [`pass^${k}`, f.value.toFixed(4)]),
];

/**
 * With trials (LOKAL_TRIALS above 1): MC1 over the lettered trials per group (its mean with the bootstrap interval,
 * pass@k, pass^k, the variance within prompts, flaky prompts), MC1 by the best answer's letter, and each generation
 * metric's mean acc over the scored trials with pass@k of the whole variant. Nothing without trials.
 */
export function kalahiTrialLines(suite: RolledKalahiSuite): string[] {
  const prompts = orderedRecords(suite.records);
  const overall = groupTrialFigures(prompts);
  if (!overall) return [];
  const groups: Array<[string, KalahiGroupTrialFigures]> = [['all', overall]];
  for (const category of Object.keys(suite.aggregate.byCategory)) {
    const figures = groupTrialFigures(prompts.filter((r) => r.category === category));
    if (figures) groups.push([category, figures]);
  }
  const lines = [`  ${overall.asked} trials per prompt · 95% intervals: bootstrap over prompts, each prompt's trials kept together`];
  if (overall.mc) {
    const passes = passColumns(overall.mc).map(([name]) => name);
    const body = groups.flatMap(([name, g]) => {
      if (!g.mc) return [];
      const values = new Map(passColumns(g.mc));
      return [[name, String(g.mc.prompts), intervalText(g.mc.mc1, 4, 1), ...passes.map((p) => values.get(p) ?? '–'), share(g.mc.within_share), String(g.mc.flaky)]];
    });
    lines.push(...alignedColumns([['MC1 over trials', 'prompts', 'MC1', ...passes, 'within prompts', 'flaky'], ...body], (c) => c > 0).map((l) => `  ${l}`));
    lines.push(`  ${positionLine(overall.mc.by_position)}`);
  }
  if (overall.generation) {
    const metrics = KALAHI_TABLE_METRICS.filter((m) => overall.generation![m]);
    const body = groups.flatMap(([name, g]) => (g.generation ? [[name, ...metrics.map((m) => (g.generation![m] ? intervalText(g.generation![m].acc, 4, 1) : '–'))]] : []));
    lines.push(...alignedColumns([['generation over trials (acc)', ...metrics.map((m) => KALAHI_FIGURE_LABELS[m])], ...body], (c) => c > 0).map((l) => `  ${l}`));
    const all = metrics.map((m) => {
      const f = overall.generation![m]!;
      return `${KALAHI_FIGURE_LABELS[m]} ${passColumns(f).map(([name, value]) => `${name} ${value}`).join(' ')} within ${share(f.within_share)} flaky ${f.flaky}`;
    });
    lines.push(`  generation, all prompts: ${all.join(' · ')}`);
  }
  return lines;
}

export function kalahiGateLines(outcomes: readonly GateOutcome[], notApplied: readonly string[]): string[] {
  return gateSection('Kalahi gates', outcomes, notApplied, 'no such variant, category or task in this run');
}
