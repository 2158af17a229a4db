// `lokal compare`'s inputs and rows, shared by the comparison of every layout (a leaf module: no cycle between them).
import type { Interval } from '../core/statistics/index.ts';
import type { Comparison } from './compare.ts';
import type { RunResults } from './types.ts';

export interface LabelledRun {
  /** Short name shown in tables and the chart legend (`#2 model`). */
  label: string;
  /** Where the run was read from. */
  source: string;
  results: RunResults;
}

/** One figure across the runs: each run's value and interval, and each later run's paired comparison with the first. */
export interface FigureRow {
  name: string;
  values: Array<Interval | undefined>;
  /** Index 0 (the first run) is always undefined. */
  versusFirst: Array<Comparison | undefined>;
}
