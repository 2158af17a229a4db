// Kalahi as a benchmark definition: one group per variant (`kalahi · full`), a nested describe per category, one item
// per prompt — multiple choice by log-probabilities and/or a greedy reply scored by the generation metrics.
// Only what the registry needs loads with it (name, settings, aggregation); `prepare`, `report` and `reportSection`
// (its part of the HTML report, the step summary and `lokal compare`) load their modules when they run.
import { defineBenchmark } from '../benchmark.ts';
import { aggregateKalahi, orderedRecords } from './results/aggregate.ts';
import type { KalahiSettings } from './run/config.ts';
import type { KalahiRow } from './data/kalahi.ts';
import type { KalahiPromptRecord, KalahiRunInfo, KalahiSuiteAggregate } from './run/records.ts';
import { KALAHI_SETTINGS } from './settings.ts';

export const kalahi = defineBenchmark<KalahiSettings, KalahiRow, KalahiRunInfo, KalahiPromptRecord, KalahiSuiteAggregate>({
  name: 'kalahi',
  title: 'Kalahi',
  settings: KALAHI_SETTINGS,
  resultsFile: 'kalahi.json',
  dataHint: 'set LOKAL_KALAHI to the folder of the Kalahi CSVs, or run `npx lokal data fetch --only kalahi`',
  dataConfigured: (settings) => settings.data !== undefined,

  async prepare(settings, clauses) {
    const { prepareKalahi } = await import('./run/plan.ts');
    return prepareKalahi(settings, clauses);
  },

  aggregate: (info, items, gate) => aggregateKalahi(info, items, gate),
  uniqueRecords: orderedRecords,

  async report(rolled, context) {
    const { reportKalahi } = await import('./results/report.ts');
    return reportKalahi(rolled, context);
  },

  async summary(rolled, context) {
    const { summaryKalahi } = await import('./results/report.ts');
    return summaryKalahi(rolled, context);
  },

  async reportSection() {
    const { kalahiReportSection } = await import('./results/section/reportSection.ts');
    return kalahiReportSection;
  },
});
