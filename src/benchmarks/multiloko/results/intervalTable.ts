// The headline's bootstrap intervals as one line under the leaderboard (× 100, as the leaderboard prints EM).
import type { HeadlineIntervals } from './intervals.ts';

const LABELS: Array<[string, string]> = [
  ['average_em', 'average EM'],
  ['gap_em', 'gap'],
  ['mte_human', 'MTE human'],
  ['mte_machine', 'MTE machine'],
  ['le_human', 'LE human'],
  ['le_machine', 'LE machine'],
];

const hundred = (v: number) => (100 * v).toFixed(2);

export function headlineIntervalLines(intervals: HeadlineIntervals): string[] {
  const shown = LABELS.filter(([key]) => intervals.figures[key]).map(([key, label]) => `${label} [${hundred(intervals.figures[key]!.low)}, ${hundred(intervals.figures[key]!.high)}]`);
  if (shown.length === 0) return [];
  return [
    `MultiLoKo headline · ${Math.round(100 * intervals.confidence)}% intervals × 100 (bootstrap, ${intervals.resamples} resamples of questions within each source language, a question with its translations; seed ${intervals.seed})`,
    `  ${shown.join(' · ')}`,
    '',
  ];
}
