// Each compared run's label in tables and chart legends (`#1 qwen3`, `#2 ora.jsonl`): `lokal compare` and a run of
// several models (modelOutputs.ts) label their runs alike.
import path from 'node:path';
import { modelLabels } from '../core/modelList.ts';

/** Run labels for tables and the chart legend: `#2 <model>`, the model taken from the results where they record it. */
export type LabelledResults = { multiloko?: { summary?: { model?: unknown } }; kalahi?: { variants?: Record<string, { model?: unknown }> }; others?: Array<{ model?: unknown }> };

/** The model a results file names (its summary's, else its first Kalahi variant's, else its first other benchmark's), or the file's name. */
function runModel(results: LabelledResults, source: string): string {
  const model = results.multiloko?.summary?.model ?? Object.values(results.kalahi?.variants ?? {})[0]?.model ?? results.others?.[0]?.model;
  return typeof model === 'string' && model !== '' ? model : path.basename(source);
}

/**
 * `#1 qwen3`, `#2 ora.jsonl`, …: each run's number and label — the one given (a labelled LOKAL_MODEL entry; empty: none), else the
 * shortest tail of its model string no other run ends with (modelLabels), so legends and columns tell runs apart.
 */
export function runLabels(runs: ReadonlyArray<{ results: LabelledResults; source: string; label?: string }>): string[] {
  return modelLabels(runs.map((r) => ({ spec: runModel(r.results, r.source), ...(r.label ? { label: r.label } : {}) }))).map((label, i) => `#${i + 1} ${label}`);
}
