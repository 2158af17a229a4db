// A run's roll-up as GitHub-flavoured Markdown (for GITHUB_STEP_SUMMARY): the leaderboard, EM per language, the
// Kalahi figures, the gates and, against a baseline, the changes its paired tests call significant.
import type { Interval } from '../core/statistics/index.ts';
import { compareKalahi, compareMultiLoKo, type Comparison } from './compare.ts';
import { KALAHI_METRICS, kalahiView, type KalahiView } from './kalahi.ts';
import { multilokoView, type GateRow, type MultiLoKoView } from './multiloko.ts';
import type { ReportInput } from './types.ts';
import { groupsMarkdown } from './groupsMarkdown.ts';
import { markdownCell } from './markdownCell.ts';
import { ERROR_CATEGORIES, type ErrorCategory } from '../metrics/errorCategory.ts';
import type { LocalVsEnglish } from '../benchmarks/multiloko/localVsEnglish.ts';
import { formatMcNemarP, localVsEnglishRows, questionsLabel } from '../benchmarks/multiloko/localVsEnglishTable.ts';

const DASH = '–';

function fixed(v: number | null | undefined, digits: number, scale = 1): string {
  return v === null || v === undefined || !Number.isFinite(v) ? DASH : (v * scale).toFixed(digits);
}

function signed(v: number | null | undefined, digits: number, scale = 1): string {
  const s = fixed(v, digits, scale);
  return v !== null && v !== undefined && v > 0 ? `+${s}` : s;
}

function withInterval(i: Interval | undefined, digits: number, scale: number): string {
  return i ? `${fixed(i.value, digits, scale)} [${fixed(i.low, digits - 1, scale)}, ${fixed(i.high, digits - 1, scale)}]` : DASH;
}

function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>, numeric: ReadonlySet<number> = new Set()): string[] {
  return [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (numeric.has(i) ? '---:' : '---')).join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

const OP: Record<string, string> = { '>=': '≥', '<=': '≤' };

function gateLines(gates: readonly GateRow[], notApplied: readonly string[]): string[] {
  if (gates.length === 0 && notApplied.length === 0) return ['No gates were set.'];
  const lines = table(
    ['Outcome', 'Gate', 'Value', 'Bound', 'Message'],
    gates.map((g) => [g.pass ? '✅ met' : '❌ missed', markdownCell(g.gate), fixed(g.value, 4), `${OP[g.op] ?? markdownCell(g.op)} ${fixed(g.bound, 4)}`, markdownCell(g.message)]),
    new Set([2, 3]),
  );
  if (notApplied.length) lines.push('', `Not applied (named nothing in this run): ${notApplied.map((c) => markdownCell(c)).join(', ')}`);
  return lines;
}

/** Rows whose Holm-adjusted p is below `alpha`. */
function significant(rows: readonly Comparison[], alpha: number): Comparison[] {
  return rows.filter((r) => (r.pAdjusted ?? r.p) < alpha);
}

function changeLines(rows: readonly Comparison[], pooled: Comparison | undefined, scale: number, digits: number, alpha: number): string[] {
  const all = [...rows, ...(pooled ? [pooled] : [])];
  const shown = significant(all, alpha);
  const head = `${shown.length} of ${all.length} paired comparisons differ significantly (α = ${alpha}, Holm-adjusted across subsets and pooled figures, as the baseline gate adjusts them).`;
  if (shown.length === 0) return [head];
  return [
    head,
    '',
    ...table(
      ['Figure', 'Paired', 'Baseline', 'This run', 'Δ [95% CI]', 'Test', 'p (Holm)', 'right → wrong', 'wrong → right'],
      shown.map((c) => [
        markdownCell(c.label),
        String(c.n),
        fixed(c.baseline, digits, scale),
        fixed(c.current, digits, scale),
        `${signed(c.diff, digits, scale)} [${fixed(c.low, digits - 1, scale)}, ${fixed(c.high, digits - 1, scale)}]`,
        c.test,
        fixed(c.pAdjusted ?? c.p, 4),
        c.discordant ? String(c.discordant.worse) : DASH,
        c.discordant ? String(c.discordant.better) : DASH,
      ]),
      new Set([1, 2, 3, 4, 6, 7, 8]),
    ),
  ];
}

/** Items per error category for each local language (first rule that holds); nothing for a file without categories. */
function errorCategoryLines(view: MultiLoKoView): string[] {
  const rows = view.languages.filter((r) => r.subset.errors);
  if (rows.length === 0) return [];
  const count = (errors: Record<ErrorCategory, number>) => ERROR_CATEGORIES.reduce((n, c) => n + errors[c], 0);
  return [
    '**Error categories** (items)',
    '',
    ...table(
      ['Language', 'Items', ...ERROR_CATEGORIES],
      rows.map((r) => [markdownCell(r.language), String(count(r.subset.errors!)), ...ERROR_CATEGORIES.map((c) => String(r.subset.errors![c]))]),
      new Set(ERROR_CATEGORIES.map((_, i) => i + 1).concat(ERROR_CATEGORIES.length + 1)),
    ),
    '',
  ];
}

/** The terminal's local-vs-English rows (summary.local_vs_english, one pair per language); nothing without a pair. */
function localVsEnglishLines(block: LocalVsEnglish | undefined): string[] {
  const rows = localVsEnglishRows(block);
  if (rows.length === 0) return [];
  return [
    '**Local vs English** (questions paired by id, EM: right in both, in English only, in the language only, in neither; English only ≫ local only: knows it but cannot say it; every pair in summary.local\\_vs\\_english)',
    '',
    ...table(
      ['Language', 'Questions', 'Paired', 'Both', 'English only', 'Local only', 'Neither', 'McNemar p'],
      rows.map((r) => [markdownCell(r.language), questionsLabel(r), ...[r.pair.paired, r.pair.both_right, r.pair.english_only, r.pair.local_only, r.pair.both_wrong].map(String), formatMcNemarP(r.pair.mcnemar_p)]),
      new Set([2, 3, 4, 5, 6, 7]),
    ),
    '',
  ];
}

function multilokoMarkdown(view: MultiLoKoView, baseline: MultiLoKoView | undefined, confidence: number, alpha: number, modelLabel: string | undefined, vsEnglish: LocalVsEnglish | undefined): string[] {
  const h = view.headline;
  const lines = [`### MultiLoKo · ${markdownCell(modelLabel ?? view.model)}`, ''];
  if (h) {
    lines.push(
      ...table(
        ['Model', 'Average EM (↑)', 'Gap (↓)', 'MTE (↓)', 'Min EM (↑)', 'Max EM (↑)'],
        [
          [
            markdownCell(modelLabel ?? view.model),
            `${fixed(h.em, 2, 100)} ± ${fixed(h.em2se, 1, 100)}`,
            fixed(h.gap, 2, 100),
            `${fixed(h.mte, 2, 100)} ± ${fixed(h.mte2se, 1, 100)}`,
            `${fixed(h.min, 2, 100)} (${markdownCell(h.minLanguage)})`,
            `${fixed(h.max, 2, 100)} (${markdownCell(h.maxLanguage)})`,
          ],
        ],
        new Set([1, 2, 3, 4, 5]),
      ),
      '',
    );
  }
  // The F1-over-words mean per language, a column only when the file's items carry f1_words (older runs do not).
  const words = view.languages.some((r) => r.subset.f1Words);
  lines.push(
    ...table(
      ['Language', 'Items', `EM × 100 [${Math.round(confidence * 100)}% Wilson]`, ...(words ? ['F1 words × 100'] : [])],
      view.languages.map((r) => [markdownCell(r.language), String(r.subset.items.length), withInterval(r.subset.em, 2, 100), ...(words ? [fixed(r.subset.f1Words?.value, 2, 100)] : [])]),
      new Set([1, 2, 3]),
    ),
    '',
    ...errorCategoryLines(view),
    ...localVsEnglishLines(vsEnglish),
    '**Gates**',
    '',
    ...gateLines(view.gates, view.gatesNotApplied),
  );
  if (baseline) {
    const c = compareMultiLoKo(view.subsets, baseline.subsets, confidence);
    lines.push('', `**Against the baseline** (${markdownCell(baseline.model)}, items paired by id; EM × 100)`, '', ...changeLines(c.subsets, c.pooled, 100, 2, alpha));
    if (c.onlyCurrent.length || c.onlyBaseline.length) lines.push('', `Subsets in one run only: ${[...c.onlyCurrent, ...c.onlyBaseline].map(markdownCell).join(', ')}`);
  }
  return lines;
}

function kalahiMarkdown(view: KalahiView, baseline: KalahiView | undefined, confidence: number, alpha: number): string[] {
  const lines = ['### Kalahi', ''];
  const columns = ['MC1', 'MC2', ...KALAHI_METRICS.map(([, label]) => `${label} acc`)];
  lines.push(
    ...table(
      ['Variant', 'Model', 'Prompts', ...columns],
      view.variants.map((v) => [
        markdownCell(v.key),
        markdownCell(v.model),
        String(v.overall.prompts),
        withInterval(v.overall.mc?.mc1, 3, 1),
        withInterval(v.overall.mc?.mc2_normalised, 3, 1),
        ...KALAHI_METRICS.map(([m]) => withInterval(v.overall.generation?.acc[m], 3, 1)),
      ]),
      new Set(columns.map((_, i) => i + 2).concat([2])),
    ),
    '',
    '**Gates**',
    '',
    ...gateLines(view.gates, view.gatesNotApplied),
  );
  if (baseline) {
    const c = compareKalahi(view.variants, baseline.variants, confidence);
    lines.push('', '**Against the baseline** (prompts paired by id)', '', ...changeLines(c.rows, undefined, 1, 3, alpha));
  }
  return lines;
}

/** The step summary of one run (with its baseline when given); `alpha` is the significance level of the changes shown. */
export function stepSummaryMarkdown(input: ReportInput, alpha = 0.05): string {
  const confidence = input.confidence ?? 0.95;
  const parts: string[] = [`## ${markdownCell(input.title ?? 'vitest-lokal results')}`, ''];
  if (input.multiloko) {
    const base = input.baseline?.multiloko ? multilokoView(input.baseline.multiloko, confidence) : undefined;
    const vsEnglish = input.multiloko.summary?.local_vs_english as LocalVsEnglish | undefined;
    parts.push(...multilokoMarkdown(multilokoView(input.multiloko, confidence), base, confidence, alpha, input.modelLabel, vsEnglish), '');
  }
  if (input.kalahi) {
    const base = input.baseline?.kalahi ? kalahiView(input.baseline.kalahi, confidence) : undefined;
    parts.push(...kalahiMarkdown(kalahiView(input.kalahi, confidence), base, confidence, alpha), '');
  }
  for (const results of input.others ?? []) parts.push(...groupsMarkdown(results), '');
  return `${parts.join('\n')}\n`;
}
