// A run listing several models (LOKAL_MODEL=a,b,…): each model's results go to `<output>/<model slug>/` (modelList.ts
// modelSlugs), its report.html beside them, and the models side by side — the table `lokal compare` prints on those
// files, and `<output>/compare.html` — with the first model listed as the reference.
import path from 'node:path';
import { modelFolderNames, modelLabels } from '../core/modelList.ts';
import { writeFileAtomic } from '../core/io.ts';
import { reportSections } from '../benchmarks/index.ts';
import type { HeadlineSummary } from '../benchmarks/multiloko/results/headline.ts';
import { modelsLeaderboardLines } from '../benchmarks/multiloko/results/headlineTable.ts';
import type { MultiLoKoResultsJson } from '../benchmarks/multiloko/resultsSchema.ts';
import type { RunResults } from '../report/types.ts';
import { runResults, writeRunOutputs, type RunOutputsOptions } from './runOutputs.ts';

/** The models with the labels given them in LOKAL_MODEL (`qwen3=replay:…`), in modelList's form. */
function listed(models: ReadonlyArray<string | undefined>, labels: ReadonlyMap<string | undefined, string>) {
  return models.map((m) => ({ spec: m ?? 'model', ...(labels.has(m) ? { label: labels.get(m)! } : {}) }));
}

/**
 * Each model's results folder below the output, by model — named after its label where LOKAL_MODEL gave one, else
 * after its provider string; empty when the run has one model (today's layout).
 */
export function modelFolders(models: ReadonlyArray<string | undefined>, labels: ReadonlyMap<string | undefined, string> = new Map()): Map<string | undefined, string> {
  const distinct = [...new Set(models)];
  if (distinct.length < 2) return new Map();
  const slugs = modelFolderNames(listed(distinct, labels));
  return new Map(distinct.map((m, i) => [m, slugs[i]!]));
}

/** Each model's name in tables and headings: its label, else the shortest tail of its provider no other model ends with. */
export function modelNames(models: ReadonlyArray<string | undefined>, labels: ReadonlyMap<string | undefined, string> = new Map()): Map<string | undefined, string> {
  const distinct = [...new Set(models)];
  const names = modelLabels(listed(distinct, labels));
  return new Map(distinct.map((m, i) => [m, names[i]!]));
}

export interface ModelOutputsOptions extends Omit<RunOutputsOptions, 'results' | 'objects' | 'incomplete'> {
  /** The results texts written, by model (in the order listed) and then by benchmark name. */
  written: ReadonlyMap<string | undefined, ReadonlyMap<string, string>>;
  /** Incomplete results texts (interrupted, cut short), by model and then by benchmark name: in that model's report. */
  incomplete?: ReadonlyMap<string | undefined, ReadonlyMap<string, string>>;
  folders: ReadonlyMap<string | undefined, string>;
  /** Labels given in LOKAL_MODEL (`qwen3=replay:…`), by provider string. */
  labels?: ReadonlyMap<string | undefined, string>;
  /** Each model's name as the run's tables gave it (modelNames over every model of the run); else worked out here. */
  names?: ReadonlyMap<string | undefined, string>;
  // `report`: `off` turns the per-model reports off; any other path is not used (one file per model).
}

/** MultiLoKo's leaderboard over the models that ran it: a row per model, by name. */
export function leaderboardOfModels(models: ReadonlyArray<{ name: string; results: RunResults }>): string[] {
  const multiloko = (results: RunResults) => results.benchmarks?.multiloko as MultiLoKoResultsJson | undefined;
  const ran = models.filter((m) => multiloko(m.results) !== undefined);
  return modelsLeaderboardLines(ran.map((m) => ({ model: m.name, headline: multiloko(m.results)!.summary?.headline as HeadlineSummary | undefined })));
}

/** Per-model reports, then the comparison of the models whose results are complete; returns compare.html's path. */
export async function writeModelOutputs(options: ModelOutputsOptions): Promise<string | undefined> {
  const { log } = options;
  const sections = options.sections ?? (await reportSections());
  const off = options.report !== undefined && options.report.toLowerCase() === 'off';
  if (options.report !== undefined && !off) log(`lokal: several models: each report.html goes beside its results (LOKAL_REPORT=${options.report} is used only with one model)`);
  // Every model's label (the given one, else the shortest tail of its provider no other model ends with) heads its report.
  const names = options.names ?? modelNames([...options.written.keys()], options.labels);
  for (const [model, texts] of options.written) {
    const output = path.join(options.output, options.folders.get(model) ?? '');
    await writeRunOutputs({ results: texts, incomplete: options.incomplete?.get(model), root: options.root, output, report: off ? 'off' : undefined, baseline: options.baseline, redact: options.redact, stepSummary: options.stepSummary, modelLabel: names.get(model), sections, log });
  }
  // One leaderboard with a row per model, named as in the comparison below (not one single-row table per model).
  for (const line of leaderboardOfModels([...options.written].map(([model, texts]) => ({ name: names.get(model)!, results: runResults(texts, sections) })))) log(line);
  const { MAX_RUNS, MIN_RUNS, compareRuns, compareRunsText } = await import('../report/compareRuns.ts');
  const { runLabels } = await import('./runLabels.ts');
  const listed = [...options.written]
    .map(([model, texts]) => ({ source: path.resolve(options.root, options.output, options.folders.get(model) ?? ''), results: runResults(texts, sections), ...(options.labels?.has(model) ? { label: options.labels.get(model)! } : {}) }))
    .filter((r) => r.results.benchmarks !== undefined);
  const labels = runLabels(listed, sections);
  const runs = listed.map((r, i) => ({ source: r.source, results: r.results, label: labels[i]! }));
  if (runs.length < MIN_RUNS || runs.length > MAX_RUNS) {
    log(`lokal: the models are not compared: ${runs.length} of them have complete results (${MIN_RUNS} to ${MAX_RUNS} needed)`);
    return undefined;
  }
  try {
    const comparison = compareRuns(runs, sections);
    for (const line of compareRunsText(runs, comparison)) log(line);
    const { renderCompareHtml } = await import('../report/compareHtml.ts');
    const file = path.resolve(options.root, options.output, 'compare.html');
    await writeFileAtomic(file, await renderCompareHtml(runs, comparison, 'vitest-lokal · comparing models'));
    log(`lokal: wrote ${path.relative(process.cwd(), file) || file} (the models side by side; the first is the reference)`);
    return file;
  } catch (error) {
    log(`lokal: the models could not be compared: ${(error as Error).message}`);
    return undefined;
  }
}
