// `lokal kalahi score -o <file>`: the JSON goes to the file, and this table to the terminal — the published generation
// columns (acc) for all scored prompts and per category, as an evals run prints them (table.ts), and what was not scored.
import { alignedColumns } from '../../../core/textTable.ts';
import { KALAHI_FIGURE_LABELS } from '../run/gates.ts';
import { KALAHI_LEARNED_METRICS, KALAHI_TABLE_METRICS } from '../run/records.ts';
import type { scoreKalahiFiles } from './score.ts';

type ScoredFiles = Awaited<ReturnType<typeof scoreKalahiFiles>>;

const figure = (value: number | null | undefined) => (value === null || value === undefined ? '–' : value.toFixed(4));

/** The table `lokal kalahi score` prints beside the file it writes. */
export function kalahiScoreTableLines(scored: ScoredFiles, written: string): string[] {
  const groups: Array<[string, ScoredFiles['generation'], ScoredFiles['table']]> = [
    ['all', scored.generation, scored.table],
    ...Object.entries(scored.by_category).map(([name, g]): [string, ScoredFiles['generation'], ScoredFiles['table']] => [name, g.generation ?? null, g.table ?? null]),
  ];
  const header = ['generation (acc)', 'replies', ...KALAHI_TABLE_METRICS.map((m) => KALAHI_FIGURE_LABELS[m])];
  const body = groups.map(([name, g, table]) => [name, String(g?.scored ?? 0), ...KALAHI_TABLE_METRICS.map((m) => figure(table?.[KALAHI_FIGURE_LABELS[m]]))]);
  const scoredCount = scored.generation?.scored ?? 0;
  const prompts = scoredCount + scored.problems.missing.length;
  const lines = [`Kalahi · ${scored.variant} · ${scoredCount} of ${prompts} prompts scored · ${scored.responses}`];
  lines.push(...alignedColumns([header, ...body], (c) => c > 0).map((l) => `  ${l}`));
  for (const metric of KALAHI_LEARNED_METRICS) {
    const status = scored.settings.learned[metric];
    if (!status.computed) lines.push(`  ${KALAHI_FIGURE_LABELS[metric]} not computed: ${status.reason ?? 'off'}`);
  }
  lines.push(`  ChrF column = ${scored.settings.chrf} · ROUGE-L column = ${scored.settings.rougeL}`);
  const { missing, unknown_ids: unknown, duplicates } = scored.problems;
  const problems = [
    missing.length > 0 ? `${missing.length} ${missing.length === 1 ? 'prompt' : 'prompts'} without a reply` : '',
    unknown.length > 0 ? `${unknown.length} ${unknown.length === 1 ? 'reply' : 'replies'} for no prompt of the CSV` : '',
    duplicates.length > 0 ? `${duplicates.length} ${duplicates.length === 1 ? 'prompt' : 'prompts'} answered more than once (the last reply scored)` : '',
  ].filter(Boolean);
  if (problems.length > 0) lines.push(`  ${problems.join('; ')} (listed under "problems" in ${written})`);
  return lines;
}
