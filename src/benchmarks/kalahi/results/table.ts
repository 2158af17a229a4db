// The Kalahi tables as plain text, in the published layout (MC: MC1, MC2; generation: BLEURT, BERTScore, BLEU, ChrF,
// METEOR, ROUGE-1, ROUGE-2, ROUGE-L as acc), one row for all prompts and one per category, plus the extra MC columns.
import { KALAHI_LEARNED_METRICS, KALAHI_TABLE_METRICS, type KalahiGroupFigures } from '../run/records.ts';
import { learnedStatus, type RolledKalahiSuite } from './results.ts';
import { KALAHI_FIGURE_LABELS } from '../run/gates.ts';
import type { GateOutcome } from '../../../core/gates.ts';
import { alignedColumns, gateSection } from '../../../core/textTable.ts';
import { kalahiGroupIntervals } from './intervals.ts';
import type { ItemMeanInterval } from '../../../core/statistics/index.ts';

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
    if (rows.some(([, g]) => g.mc)) lines.push('  MC1 [95% Wilson interval], MC2 [95% quasi-Wilson interval]; generation intervals in kalahi.json (variants.<v>.intervals)');
    if (rows.some(([, g]) => g.mc)) lines.push("  MC2 = the reference's (exp of exponentiated scores, ≈ 0.5 for every model); MC2 (normalised) = Σ relevant / Σ all scores");
    if (a.failed > 0 || a.skipped > 0) lines.push(`  ${a.failed} prompt tests failed, ${a.skipped} skipped`);
    lines.push('');
  }
  return lines;
}

export function kalahiGateLines(outcomes: readonly GateOutcome[], notApplied: readonly string[]): string[] {
  return gateSection('Kalahi gates', outcomes, notApplied, 'no such variant, category or task in this run');
}
