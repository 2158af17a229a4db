// Each compared run's label in tables and chart legends (`#1 qwen3`, `#2 ora.jsonl`): `lokal compare` and a run of
// several models (modelOutputs.ts) label their runs alike.
import path from 'node:path';
import { modelLabels } from '../core/modelList.ts';
import type { ReportSection } from '../report/section.ts';
import type { RunResults } from '../report/types.ts';

/** The model the results name (the first section's that names one, in the sections' order, else its first groups-layout benchmark's), or the file's name. */
function runModel(results: RunResults, sections: readonly ReportSection[], source: string): string {
  let model: unknown;
  for (const section of sections) {
    const own = results.benchmarks?.[section.name];
    model ??= own === undefined ? undefined : section.model(own);
  }
  model ??= results.others?.[0]?.model;
  return typeof model === 'string' && model !== '' ? model : path.basename(source);
}

/**
 * `#1 qwen3`, `#2 ora.jsonl`, …: each run's number and label — the one given (a labelled LOKAL_MODEL entry; empty: none), else the
 * shortest tail of its model string no other run ends with (modelLabels), so legends and columns tell runs apart.
 */
export function runLabels(runs: ReadonlyArray<{ results: RunResults; source: string; label?: string }>, sections: readonly ReportSection[]): string[] {
  return modelLabels(runs.map((r) => ({ spec: runModel(r.results, sections, r.source), ...(r.label ? { label: r.label } : {}) }))).map((label, i) => `#${i + 1} ${label}`);
}
