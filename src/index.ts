// vitest-lokal's pure API (no Vitest import, usable from plain Node): benchmark definitions and their registry, the
// shared core (settings, gates, statistics), and the building blocks (data, metrics, prompts, models, scoring).
export { defineBenchmark, type BenchmarkDefinition, type BenchmarkPlan, type BenchmarkGroup, type BenchmarkReport, type GroupInfo, type GateRecord, type ItemContext, type ItemResult, type ItemView, type RolledGroup, type ReportContext, type GroupVerdict, type BenchmarkSummary, type BenchmarkMatcher, type BenchmarkMatchers } from './benchmarks/benchmark.ts';
export { BENCHMARKS, registerBenchmark, findBenchmark, multiloko, kalahi } from './benchmarks/index.ts';
export {
  resolveSettingsTree, sectionSettings, sharedSettings, benchmarkModel, readConfigEnv, readConfigFile, LokalConfigError, CONFIG_FILE, SHARED_DEFAULTS, SHARED_SETTINGS_SHAPE, OTHER_LOKAL_VARIABLES, MODEL_SETTING,
  asIs, trimmed, lowerCase, list, number, flag,
  type SettingsTree, type SettingsSection, type SharedSettings, type EnvField, type EnvParse,
} from './core/settings.ts';
export { defineDatasetBenchmark, type DatasetBenchmark, type DatasetSettings } from './benchmarks/dataset/definition.ts';
export { DATASET_METRICS, NORMALIZATIONS, DatasetOptionsError, type DatasetBenchmarkOptions, type DatasetMetric, type DatasetRow, type Normalization, type PromptFunction } from './benchmarks/dataset/options.ts';
export type { DatasetItem } from './benchmarks/dataset/rows.ts';
export type { DatasetRecord, DatasetAggregate } from './benchmarks/dataset/records.ts';
export { GROUPS_LAYOUT, GroupsResultsSchema, isGroupsResults, type GroupsResultsJson, type GroupJson, type GroupItemJson, type DeclaredFigureJson, type FigureValueJson } from './report/groupsResults.ts';
export type { ChatMessage } from './models/types.ts';
// zod, for a benchmark's settings shape: re-exported so that a user's project never installs it separately.
export { z } from 'zod';
export { parseClause, routeClauses, splitClauses, judge, holds, unmeasured, requireKnownScope, ThresholdError, type GateOutcome, type GateOp, type ParsedClause } from './core/gates.ts';
export { mean, standardError, meanSkippingNull } from './core/stats.ts';
export { alignedColumns, markdownTable, displayWidth } from './core/textTable.ts';
export { DEFAULT_MODEL_SPEC, modelSpec, lokalModelOptions, openLokalModel, isChatModel, folderHasChatTemplate, type LokalModel, type LokalModelOptions } from './models/open.ts';
export * as data from './dataNamespace.ts';
export * as metrics from './metricsNamespace.ts';
export * as prompts from './benchmarks/multiloko/prompts/index.ts';
export * as models from './models/index.ts';
export { scoreMultiLoKoPredictions, scoreOutputJson, describeProblems, type ScoreOptions, type ScoreOutput } from './benchmarks/multiloko/score.ts';
export { lokalMatchers, type LokalMatchers, type Targets } from './benchmarks/multiloko/matchers.ts';
export { readPredictions } from './models/predictions.ts';
export type { PredictionRow } from './models/predictionRow.ts';
