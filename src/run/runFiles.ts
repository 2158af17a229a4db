// The files an evals run reads and writes, checked at start: the report path must not be a folder, and no output
// (results files, the report, compare.html) may be an input (a predictions file, a dataset file, the baseline, the
// response cache) or another output — LOKAL_REPORT=results/multiloko.json would replace the results with HTML.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { BenchmarkDefinition } from '../benchmarks/benchmark.ts';
import { incompleteResultsFile } from '../core/incomplete.ts';
import { listModels, modelFolderNames, splitModelList } from '../core/modelList.ts';
import { outputClash, type RunPath } from '../core/runPaths.ts';
import { LokalConfigError, sectionSettings, sharedSettings, type SettingsTree } from '../core/settings.ts';
import { DEFAULT_CACHE_FILE } from '../models/cache.ts';
import { answerFile } from '../models/providers.ts';
import { reportPath } from './runOutputs.ts';

/** The files a dataset loader reads in its folder (JSONL, CSV, the encrypted archive and its stages). */
const DATASET_FILES = /\.(?:jsonl|csv|enc|xz|tar)$/iu;
/** The files a baseline folder gives (LOKAL_BASELINE=<folder>). */
const BASELINE_FILES = /\.json$/iu;

const REPORT_SETTING = 'LOKAL_REPORT (setting "report")';

function isFolder(target: string): boolean {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
}

/** The run's inputs: predictions files of replayed models, dataset locations, the baseline, the response cache. */
function runInputs(tree: SettingsTree, benchmarks: readonly BenchmarkDefinition[], root: string, env: Readonly<Record<string, string | undefined>> = process.env): RunPath[] {
  const shared = sharedSettings(tree);
  const inputs: RunPath[] = [];
  const models = new Set<string>(splitModelList(shared.model ?? ''));
  for (const definition of benchmarks) {
    const own = sectionSettings<{ model?: string; data?: string }>(tree, definition.settings);
    for (const model of splitModelList(own.model ?? '')) models.add(model);
    if (own.data !== undefined) inputs.push({ path: path.resolve(root, own.data), role: `a file of the ${definition.title} data`, folder: DATASET_FILES });
  }
  inputs.push({ path: path.resolve(root, 'data'), role: 'a file of the default data folder', folder: DATASET_FILES });
  for (const model of models) {
    const file = answerFile(model);
    if (file !== undefined) inputs.push({ path: path.resolve(root, file), role: 'the predictions file of LOKAL_MODEL' });
  }
  if (shared.baseline !== undefined) inputs.push({ path: path.resolve(root, shared.baseline), role: 'the baseline (LOKAL_BASELINE)', folder: BASELINE_FILES });
  inputs.push({ path: path.resolve(root, shared.cacheFile ?? env.LOKAL_CACHE_FILE ?? DEFAULT_CACHE_FILE), role: 'the response cache (LOKAL_CACHE_FILE)' });
  return inputs;
}

/** The results files (complete and incomplete) of every benchmark, in every model's folder of a several-model run. */
function resultsOutputs(tree: SettingsTree, benchmarks: readonly BenchmarkDefinition[], root: string): RunPath[] {
  const shared = sharedSettings(tree);
  const listed = listModels(shared.model ?? '');
  const folders = listed.length > 1 ? modelFolderNames(listed) : [''];
  return folders.flatMap((folder) =>
    benchmarks.flatMap((definition) => [
      { path: path.resolve(root, shared.output, folder, definition.resultsFile), role: `the ${definition.title} results file` },
      { path: path.resolve(root, shared.output, folder, incompleteResultsFile(definition.resultsFile)), role: `the ${definition.title} incomplete results file` },
    ]),
  );
}

/**
 * Throws a LokalConfigError naming the setting when the report path is a folder, or when an output of the run would
 * replace an input or another output. Results files may replace the baseline: a run that updates its own baseline
 * reads it before writing.
 */
export function requireSeparateOutputs(tree: SettingsTree, benchmarks: readonly BenchmarkDefinition[], root: string, env: Readonly<Record<string, string | undefined>> = process.env): void {
  const shared = sharedSettings(tree);
  const inputs = runInputs(tree, benchmarks, root, env);
  const results = resultsOutputs(tree, benchmarks, root);
  const stepSummary: RunPath[] = env.GITHUB_STEP_SUMMARY ? [{ path: path.resolve(root, env.GITHUB_STEP_SUMMARY), role: 'the step summary (GITHUB_STEP_SUMMARY)' }] : [];
  const notBaseline = inputs.filter((i) => !i.role.startsWith('the baseline'));
  for (const output of results) {
    const clash = outputClash(output, notBaseline, stepSummary);
    if (clash) throw new LokalConfigError('LOKAL_OUTPUT (setting "output")', undefined, `${clash} (checked before anything is written)`);
  }
  const several = splitModelList(shared.model ?? '').length > 1;
  const report = several ? undefined : reportPath(shared.report, root, shared.output);
  if (report !== undefined) {
    if (isFolder(report)) throw new LokalConfigError(REPORT_SETTING, undefined, `${report}: is a folder; give a file name (such as ${path.join(report, 'report.html')}) or off`);
    const clash = outputClash({ path: report, role: 'the HTML report' }, inputs, [...results, ...stepSummary]);
    if (clash) throw new LokalConfigError(REPORT_SETTING, undefined, `${clash} (checked before anything is written)`);
  }
  if (several) {
    const compare = { path: path.resolve(root, shared.output, 'compare.html'), role: 'the models comparison (compare.html)' };
    const clash = outputClash(compare, inputs, [...results, ...stepSummary]);
    if (clash) throw new LokalConfigError('LOKAL_OUTPUT (setting "output")', undefined, `${clash} (checked before anything is written)`);
  }
}
