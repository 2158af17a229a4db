// `defineDatasetBenchmark`: a benchmark from a data file in a few lines — a defineBenchmark definition like the
// built-in ones (items as tests, the model fixture and cache, thresholds and the baseline gate, per-group intervals,
// the roll-up table, `results/<name>.json`, replay by id, the report section, the step summary, `lokal compare`).
import path from 'node:path';
import { z } from 'zod';
import { defineBenchmark, type BenchmarkDefinition, type BenchmarkPlan, type GroupInfo } from '../benchmark.ts';
import { redactedText, resolveRedaction } from '../../core/redact.ts';
import { MODEL_SETTING, SHARED_SETTINGS_SHAPE, type SettingsSection, type SharedSettings } from '../../core/settings.ts';
import { previewText } from '../../data/errors.ts';
import { recordedInput } from '../../models/recordedInput.ts';
import { askModel } from '../../models/askModel.ts';
import { shorten } from '../../core/shorten.ts';
import { aggregateDataset, uniqueDatasetRecords } from './aggregate.ts';
import { datasetGates, judgeDatasetGates } from './gates.ts';
import { checkDatasetOptions, DatasetOptionsError, type DatasetBenchmarkOptions, type DatasetRow } from './options.ts';
import { promptBytes, renderPrompt, templateSlots, type PromptSpec } from './prompt.ts';
import type { DatasetAggregate, DatasetRecord } from './records.ts';
import { datasetResults, reportDataset, type DatasetReportSpec } from './report.ts';
import { readDataset, readDatasetGroups, SINGLE_GROUP, type DatasetItem, type RowFields } from './rows.ts';
import { scoreAnswer } from './scoring.ts';

/** A dataset benchmark's own settings (`{ <name>: { data, model } }` in benchmarkSuite's options or lokal.config.json). */
export interface DatasetSettings extends SharedSettings {
  /** The data file or folder instead of the definition's `data`. */
  data?: string;
  /** This benchmark's own model instead of the shared one. */
  model?: string;
}

export type DatasetBenchmark = BenchmarkDefinition<DatasetSettings, DatasetItem, GroupInfo, DatasetRecord, DatasetAggregate>;

const quote = (text: string) => previewText(text, 60);

/** Few-shot rows given in code, checked like data rows: the targets field must hold an answer to show. */
function shotsInCode(rows: readonly DatasetRow[], options: DatasetBenchmarkOptions): PromptSpec['shots'] {
  return rows.map((row, i) => {
    const targets = row[options.targets];
    const answer = Array.isArray(targets) ? targets[0] : targets;
    if (typeof answer !== 'string' || answer === '') throw new DatasetOptionsError(options.name, `fewShot.${i}.${options.targets}`, 'expected the accepted answer(s) to show: a string or a non-empty list of strings');
    return { row, answer };
  });
}

export function defineDatasetBenchmark(input: DatasetBenchmarkOptions): DatasetBenchmark {
  const options = checkDatasetOptions(input, Object.keys(SHARED_SETTINGS_SHAPE));
  const { name } = options;
  const title = options.title ?? name;
  let slots: string[] = [];
  try {
    slots = typeof options.prompt === 'string' ? templateSlots(options.prompt) : [];
  } catch (error) {
    throw new DatasetOptionsError(name, 'prompt', (error as Error).message);
  }
  const metrics = options.metrics;
  const normalize = options.normalize ?? 'multiloko';
  const fields: RowFields = { id: options.id ?? 'id', targets: options.targets, slots, ...(options.groupBy ? { groupBy: options.groupBy } : {}), ...(options.separator ? { separator: options.separator } : {}) };
  const chat = options.chat ?? false;
  const settings: SettingsSection = {
    key: name,
    shape: { data: z.string().min(1).optional(), model: MODEL_SETTING },
    // No LOKAL_* variables of its own: every eval file's worker reads the environment, and only the files that run
    // this benchmark know its name (an unknown LOKAL_* variable is an error).
    env: {},
    defaults: {},
  };

  return defineBenchmark<DatasetSettings, DatasetItem, GroupInfo, DatasetRecord, DatasetAggregate>({
    name,
    title,
    settings,
    resultsFile: `${name}.json`,
    dataHint: `put the data at ${options.data} (relative to the project root), or give its location as benchmarkSuite(${name}, { ${name}: { data: '…' } })`,
    dataConfigured: (s) => s.data !== undefined,

    async prepare(s, clauses): Promise<BenchmarkPlan<DatasetItem, GroupInfo, DatasetRecord, DatasetAggregate>> {
      const root = process.cwd();
      const rows = await readDatasetGroups(path.resolve(root, s.data ?? options.data), fields, s.limit);
      const shots =
        options.fewShot === undefined
          ? []
          : typeof options.fewShot === 'string'
            ? (await readDataset(path.resolve(root, options.fewShot), { ...fields, groupBy: undefined } as RowFields)).map((row) => ({ row: row.fields, answer: row.targets[0]! }))
            : shotsInCode(options.fewShot, options);
      const prompt: PromptSpec = { prompt: options.prompt, chat, system: options.system, shots, shotSeparator: options.fewShotSeparator ?? '\n\n' };
      const gates = datasetGates(clauses, name, metrics, rows.map((g) => g.key));
      const groups = rows.map(({ key, items, total }, order) => {
        const info: GroupInfo = { benchmark: name, key, name: key === SINGLE_GROUP && !options.groupBy ? name : `${name} · ${key}`, order, selected: items.length, total, model: s.model, thresholds: s.thresholds };
        return { info, items };
      });
      const redact = resolveRedaction(s.redact).on;
      const firstSlot = slots[0];
      const stop = options.stop ? [...options.stop] : typeof options.prompt === 'string' && !chat ? ['\n'] : undefined;
      return {
        groups,
        itemId: (item) => String(item.id),
        // Parts are balanced by the prompt's UTF-8 bytes (the same in every shard); a row whose prompt fails weighs one, and its test says why.
        itemWeight: (item) => {
          try {
            return promptBytes(renderPrompt(prompt, item.fields));
          } catch {
            return 1;
          }
        },
        testName: (item) => (redact || firstSlot === undefined ? String(item.id) : `${String(item.id)} · ${shorten(String(item.fields[firstSlot]), 60)}`),
        async runItem(item, _info, context) {
          const itemKey = `${name}/${String(item.id)}`;
          const model = await context.model();
          const request = { ...renderPrompt(prompt, item.fields), maxNewTokens: options.maxNewTokens ?? s.maxNewTokens, itemKey, ...(stop ? { stop } : {}) };
          const answer = await askModel(model.provider, request);
          const scored = scoreAnswer(answer.text, item.targets, metrics, normalize);
          const correct = scoreAnswer(answer.text, item.targets, ['em'], normalize).scores.em === 1;
          const record: DatasetRecord = {
            id: item.id,
            group: item.group,
            ...(firstSlot === undefined ? {} : { question: redact ? redactedText(String(item.fields[firstSlot])) : String(item.fields[firstSlot]) }),
            accepted: redact ? item.targets.map(redactedText) : [...item.targets],
            answer: redact ? redactedText(answer.text) : answer.text,
            prediction: redact ? redactedText(scored.prediction) : scored.prediction,
            targets: redact ? scored.targets.map(redactedText) : scored.targets,
            scores: scored.scores,
            correct,
            error: scored.error,
            missing: answer.missing,
            cached: answer.cached,
            modelInput: recordedInput(answer.input, redact && s.recordPrompts !== 'off' ? 'hash' : s.recordPrompts),
          };
          const figures = metrics.map((m) => `${m} ${Number(scored.scores[m]!.toFixed(3))}`).join(' · ');
          const said = answer.missing ? 'no prediction (scored as empty)' : redact ? record.answer : `said ${quote(answer.text.trim())}`;
          // A wrong answer's verdict ends with its error category, as MultiLoKo's does.
          const error = !correct && !answer.missing ? ` · error ${scored.error}` : '';
          const verdict = `${answer.missing ? '∅' : correct ? '✓' : '✗'} ${figures} · ${said}${redact ? '' : ` · targets ${item.targets.slice(0, 3).map(quote).join(' | ')}`}${error}`;
          await context.annotate(verdict, answer.missing ? 'missing' : correct ? 'correct' : 'wrong');
          if (s.strict && !correct) return { record, failures: [`strict mode: ${answer.missing ? 'no prediction' : 'wrong answer'} for ${itemKey}: ${verdict}`] };
          // Vitest UI fails a wrong answer with its verdict line (src/vitest decides), as for the built-in benchmarks.
          return correct ? { record } : { record, wrong: verdict };
        },
        judgeGroup(aggregate) {
          const { outcomes, notApplied } = judgeDatasetGates(gates.filter((g) => g.group?.toLowerCase() === aggregate.key.toLowerCase()), title, [aggregate]);
          const means = metrics.map((m) => `${m} ${aggregate.means[m] === null || aggregate.means[m] === undefined ? '–' : aggregate.means[m]!.toFixed(3)}`).join(' · ');
          const summary = `${aggregate.name}: ${means} over ${aggregate.scored} items${aggregate.missing ? ` (${aggregate.missing} without a prediction)` : ''}`;
          const blocked = outcomes.length > 0 && aggregate.failed > 0 ? `${aggregate.name}: ${aggregate.failed} item tests failed without a score, so the gates cannot be judged` : undefined;
          return { summary, outcomes, notApplied, ...(blocked ? { blocked } : {}) };
        },
      };
    },

    aggregate: (info, items) => aggregateDataset(info, items, metrics),
    uniqueRecords: uniqueDatasetRecords,

    report(groups, context) {
      return reportDataset(reportSpec(), groups, context);
    },

    async summary(groups, context) {
      const { groupsSummaryText } = await import('../../report/groupsSummary.ts');
      const spec = reportSpec();
      const judged = judgeDatasetGates(datasetGates(context.clauses, name, metrics, []), title, groups.map((g) => g.aggregate));
      return { text: groupsSummaryText(datasetResults(spec, groups, judged)), missed: judged.outcomes.filter((o) => !o.pass) };
    },
  });

  function reportSpec(): DatasetReportSpec {
    return { name, title, resultsFile: `${name}.json`, metrics, groups: [] };
  }
}
