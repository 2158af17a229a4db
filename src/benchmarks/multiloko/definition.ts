// MultiLoKo as a benchmark definition: one group per subset (`italian · local`, `italian → english · human`), one
// item per question; the item asks the model with the official prompt and scores the answer exactly as eval.py.
// Only what the registry needs loads with it (name, settings, aggregation): the runner and the reporter import the
// registry in every process, and `prepare` (data, prompts, scoring), `report` (tables, results file) and
// `reportSection` (its part of the HTML report, the step summary and `lokal compare`) load their modules when they run.
import { defineBenchmark } from '../benchmark.ts';
import { aggregateSubset, uniqueRecords } from './results/aggregate.ts';
import { multilokoGate } from './run/gates.ts';
import type { MultiLoKoQuestion } from './data/schema.ts';
import type { LokalItemRecord, LokalSubsetAggregate, LokalSubsetInfo } from './run/records.ts';
import { MULTILOKO_SETTINGS, type MultiLoKoSettings } from './settings.ts';

export const multiloko = defineBenchmark<MultiLoKoSettings, MultiLoKoQuestion, LokalSubsetInfo, LokalItemRecord, LokalSubsetAggregate>({
  name: 'multiloko',
  title: 'MultiLoKo',
  settings: MULTILOKO_SETTINGS,
  resultsFile: 'multiloko.json',
  dataHint: 'set LOKAL_MULTILOKO to benchmark_data.tar.xz.enc or the extracted folder, or run `npx lokal data fetch --only multiloko`',
  dataConfigured: (settings) => settings.data !== undefined,
  checkClause: (clause) => void multilokoGate(clause),

  async prepare(settings, clauses) {
    const { prepareMultiLoKo } = await import('./run/plan.ts');
    return prepareMultiLoKo(settings, clauses);
  },

  aggregate: aggregateSubset,
  uniqueRecords,

  async report(rolled, context) {
    const { reportMultiLoKo } = await import('./results/report.ts');
    return reportMultiLoKo(rolled, context);
  },

  async summary(rolled, context) {
    const { summaryMultiLoKo } = await import('./results/report.ts');
    return summaryMultiLoKo(rolled, context);
  },

  async reportSection() {
    const { multilokoReportSection } = await import('./results/section/reportSection.ts');
    return multilokoReportSection;
  },

  async matchers() {
    const { lokalMatchers } = await import('./metrics/matchers.ts');
    return lokalMatchers;
  },
});
