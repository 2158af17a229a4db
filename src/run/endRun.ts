// The end of an evals run, from what it collected: each benchmark's tables, its results file (or, for a run whose
// groups did not all finish, `<benchmark>.incomplete.json` beside the complete one, which it leaves alone), its gates
// (those over unfinished groups fail unjudged), a folder per model when the run listed several, then the report,
// the step summary and compare.html. Plain inputs, no Vitest: reporters/lokal-reporter.ts gathers them.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { BenchmarkDefinition } from '../benchmarks/benchmark.ts';
import { routeClauses } from '../core/gates.ts';
import { gatesOfIncompleteRun, incompleteResultsFile, incompleteResultsText, type Incompleteness } from '../core/incomplete.ts';
import { writeFileAtomic } from '../core/io.ts';
import { listModels, splitModelList } from '../core/modelList.ts';
import { resolveRedaction } from '../core/redact.ts';
import { resolveSettingsTree, sectionSettings, sharedSettings, type SettingsTree } from '../core/settings.ts';
import { summariseList } from '../data/errors.ts';
import type { CollectedBenchmark, CollectedRun } from './collected.ts';
import { ExitReasons } from './exitLine.ts';
import { modelFolders, modelNames, writeModelOutputs } from './modelOutputs.ts';
import { writeRunOutputs } from './runOutputs.ts';

export interface RunEndInput {
  /** The run's groups by benchmark and model (src/vitest/collect.ts), with the gates it recorded and its warnings. */
  run: CollectedRun;
  /** The registered benchmarks: their settings sections, and the order gate clauses are routed in. */
  registry: readonly BenchmarkDefinition[];
  /** Eval files that never finished and left no group behind (a worker died while collecting), by path. */
  lost: readonly string[];
  /** Why groups did not finish, ending in "before these groups finished" (src/vitest/completeness.ts incompleteReason). */
  reason: string;
  /** The signal that interrupted the run (src/run/interrupt.ts), if any: every unfinished group is then missing. */
  signal?: string | undefined;
  /** The run's `-t` filter, if any: a group that lost items to it is missing. */
  filter?: string | undefined;
  /** Settings given to the reporter; LOKAL_* variables and lokal.config.json are read again here. */
  settings?: SettingsTree | undefined;
  root: string;
  /** Where the LOKAL_* variables are read (process.env unless given). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The file GITHUB_STEP_SUMMARY names, if any. */
  stepSummary?: string | undefined;
  /** Each line for the terminal. */
  log(line: string): void;
}

interface RunEnd {
  /** lokal fails the run (exit 1). */
  failed: boolean;
  /** Why, for the run's last line. */
  exit: ExitReasons;
  /** The results files written, by benchmark (`<benchmark> <model>` in a run of several models). */
  files: Map<string, string>;
  /** Present when the run had one model and got as far as its report: the report written, if any. */
  reportFile?: string | undefined;
  /** Present when the run had several models and got as far as comparing them: compare.html, if written. */
  compareFile?: string | undefined;
}

/** The reason a benchmark's run is incomplete, and the groups it is missing; undefined when it is whole. */
export function incompleteness(benchmark: CollectedBenchmark, input: Pick<RunEndInput, 'reason' | 'signal' | 'filter'>): Incompleteness | undefined {
  const { missing: unfinished, skippedItems, items, cutGroups } = benchmark;
  const { signal, filter } = input;
  const why = signal ? `the run was interrupted (${signal}) before these groups finished` : input.reason;
  // A -t filter that keeps part of a benchmark, or an interrupt that skipped the tests not yet started, leaves a
  // partial run: its groups that lost items are missing like those whose worker died.
  const cut = signal !== undefined || filter !== undefined ? cutGroups : [];
  const missing = [...unfinished, ...cut.filter((k) => !unfinished.includes(k))];
  const byFilter = unfinished.length === 0 && signal === undefined && cut.length > 0;
  const reason = byFilter ? `a -t filter (${filter}) kept ${items - skippedItems} of ${items} items` : why;
  return missing.length > 0 ? { missing, reason } : undefined;
}

/** Rolls the run up and writes what it settled; every error is logged and fails the run rather than thrown. */
export async function endRun(input: RunEndInput): Promise<RunEnd> {
  const { run, registry, signal, root, log } = input;
  const end: RunEnd = { failed: false, exit: new ExitReasons(), files: new Map() };
  for (const warning of run.warnings) log(`lokal: ${warning}`);
  const why = signal ? `the run was interrupted (${signal}) before these groups finished` : input.reason;
  for (const id of input.lost) log(`lokal: ${path.relative(process.cwd(), id) || id} did not finish: ${why.replace(/ before these groups finished$/u, '')}; its results were not written`);
  if (input.lost.length > 0) {
    end.failed = true;
    end.exit.add(`${input.lost.length} eval file${input.lost.length === 1 ? '' : 's'} did not finish`);
  }
  if (run.benchmarks.length === 0) return end;
  try {
    const tree = resolveSettingsTree(registry.map((b) => b.settings), input.settings, { cwd: root, ...(input.env ? { env: input.env } : {}) });
    // Gates given now win; otherwise those the test run recorded (so a merge judges like its shards).
    const names = registry.map((b) => b.name);
    const clauses = routeClauses(tree.thresholds ?? run.thresholds, names, names[0]!);
    const shared = sharedSettings(tree);
    const output = shared.output;
    // Several models: each model's results in its own folder below the output (modelOutputs.ts).
    const listed = splitModelList(shared.model ?? '');
    // A benchmark's own model (`kalahi.model`) beside the shared one is one model per benchmark: one folder still.
    const severalPerBenchmark = listed.length > 1 || run.benchmarks.some((b) => run.benchmarks.some((c) => c.definition === b.definition && c.model !== b.model));
    // Labels given in LOKAL_MODEL (`qwen3=replay:…`) name each model's folder, tables and report.
    const labels = new Map<string | undefined, string>(listModels(shared.model ?? '').flatMap((m) => (m.label === undefined ? [] : [[m.spec, m.label] as [string, string]])));
    const models = [...(listed.length > 1 ? listed : []), ...run.benchmarks.map((b) => b.model)];
    const folders = severalPerBenchmark ? modelFolders(models, labels) : new Map<string | undefined, string>();
    const modelNamesByModel = modelNames(models, labels);
    const writtenByModel = new Map<string | undefined, Map<string, string>>();
    // Incomplete results, by model: the HTML report shows them under its "Incomplete" verdict; the step summary does not.
    const incompleteByModel = new Map<string | undefined, Map<string, string>>();
    const objects = new Map<string, object>();
    let keptItems = 0;
    for (const benchmark of run.benchmarks) {
      const { definition, groups, model } = benchmark;
      const output = path.join(shared.output, folders.get(model) ?? '');
      const fileKey = folders.size > 0 ? `${definition.name} ${model ?? ''}` : definition.name;
      const written = writtenByModel.get(model) ?? new Map<string, string>();
      writtenByModel.set(model, written);
      const name = folders.size > 0 ? modelNamesByModel.get(model) : undefined;
      if (folders.size > 0) log(`\nlokal: model ${name === undefined || name === model ? (model ?? '?') : `${name} (${model})`}`);
      keptItems += groups.reduce((n, g) => n + g.records.length, 0);
      try {
        // A run whose groups did not all finish: gates over missing groups fail, results go beside the complete file.
        const incomplete = incompleteness(benchmark, input);
        const missing = incomplete?.missing ?? [];
        const own = clauses.get(definition.name) ?? [];
        const finishedKeys = groups.map((g) => g.aggregate.key).filter((k) => !missing.includes(k));
        const gates = incomplete ? gatesOfIncompleteRun(definition.name, own, finishedKeys, incomplete) : { judged: own, failed: [] };
        const report = await definition.report(groups, { settings: sectionSettings(tree, definition.settings), root, clauses: gates.judged, ...(name !== undefined ? { modelLabel: name } : {}) });
        for (const line of report.lines) log(line);
        const complete = path.resolve(root, output, definition.resultsFile);
        if (incomplete) {
          log(`lokal: ${definition.name}: INCOMPLETE run: ${incomplete.reason}: ${summariseList(missing)}`);
          for (const outcome of gates.failed) log(`  ✗ ${outcome.message}`);
          const file = path.resolve(root, output, incompleteResultsFile(definition.resultsFile));
          const kept = groups.reduce((n, g) => n + g.records.length, 0);
          if (kept === 0) {
            // Nothing to keep: an earlier run's incomplete file, with the items it did finish, stays.
            log(`lokal: ${definition.name}: no item finished, so no results file is written (${path.relative(process.cwd(), complete) || complete} and ${path.basename(file)} left as they were)`);
          } else {
            const text = incompleteResultsText(definition.name, report.resultsText, incomplete, gates.failed);
            await writeFileAtomic(file, text);
            incompleteByModel.set(model, (incompleteByModel.get(model) ?? new Map<string, string>()).set(definition.name, text));
            end.files.set(fileKey, file);
            log(`lokal: wrote ${path.relative(process.cwd(), file) || file} (complete: false; the ${kept} ${kept === 1 ? 'item' : 'items'} that finished; ${path.relative(process.cwd(), complete) || complete} left as it was)`);
          }
          end.failed = true;
          end.exit.add(`${definition.name}: incomplete run`);
        } else if (report.resultsText !== undefined) {
          await writeFileAtomic(complete, report.resultsPieces ?? report.resultsText);
          // A complete run supersedes an earlier incomplete one.
          await rm(path.resolve(root, output, incompleteResultsFile(definition.resultsFile)), { force: true });
          end.files.set(fileKey, complete);
          written.set(definition.name, report.resultsText);
          if (report.results && folders.size === 0) objects.set(definition.name, report.results);
          log(`lokal: wrote ${path.relative(process.cwd(), complete) || complete}`);
        }
        if (!report.passed) {
          end.failed = true;
          if (report.missed?.length) end.exit.missed(definition.title, report.missed);
          else end.exit.add(`${definition.name} failed (see its lines above)`);
        }
      } catch (error) {
        log(`lokal: ${(error as Error).message}`);
        end.failed = true;
        end.exit.add(`${definition.name}: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    // Vitest's counts (gate and summary tests too; stopped tests as skipped) are not the items kept: said once.
    if (signal) log(`lokal: ${signal}: ${keptItems} ${keptItems === 1 ? 'item' : 'items'} finished and kept in all; Vitest's test counts above also count gate and summary tests, and list the tests the interrupt stopped as skipped`);
    const common = { root, output, report: shared.report, baseline: shared.baseline, redact: resolveRedaction(shared.redact).on, stepSummary: input.stepSummary, log };
    if (folders.size > 0) {
      end.compareFile = await writeModelOutputs({ ...common, written: writtenByModel, incomplete: incompleteByModel, folders, labels, names: modelNamesByModel });
      return end;
    }
    const written = new Map([...writtenByModel.values()].flatMap((texts) => [...texts]));
    const incompleteTexts = new Map([...incompleteByModel.values()].flatMap((texts) => [...texts]));
    end.reportFile = (await writeRunOutputs({ ...common, results: written, incomplete: incompleteTexts, objects })).report;
  } catch (error) {
    log(`lokal: ${(error as Error).message}`);
    end.failed = true;
    end.exit.add((error as Error).message.split('\n')[0]!);
  }
  return end;
}
