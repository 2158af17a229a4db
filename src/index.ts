// vitest-lokal's pure API (no Vitest import, usable from plain Node): benchmark definitions and their registry, the
// shared core (settings, gates, statistics), and the building blocks (data, metrics, prompts, models, scoring).
export { defineBenchmark, type BenchmarkDefinition, type BenchmarkPlan, type BenchmarkGroup, type BenchmarkReport, type GroupInfo, type GateRecord, type ItemContext, type ItemResult, type ItemView, type RolledGroup, type ReportContext, type GroupVerdict, type BenchmarkSummary, type BenchmarkMatcher, type BenchmarkMatchers } from './core/benchmark.ts';
export { BENCHMARKS, registerBenchmark, findBenchmark, multiloko, kalahi } from './benchmarks/index.ts';
export { resolveSettingsTree, sectionSettings, sharedSettings, readConfigEnv, readConfigFile, LokalConfigError, CONFIG_FILE, SHARED_DEFAULTS, OTHER_LOKAL_VARIABLES, type SettingsTree, type SettingsSection, type SharedSettings } from './core/settings.ts';
export { parseClause, routeClauses, splitClauses, judge, holds, ThresholdError, type GateOutcome, type GateOp, type ParsedClause } from './core/gates.ts';
export { mean, standardError, meanSkippingNull } from './core/stats.ts';
export { alignedColumns, markdownTable, displayWidth } from './core/textTable.ts';
export { DEFAULT_MODEL_SPEC, modelSpec, lokalModelOptions, openLokalModel, isChatModel, folderHasChatTemplate, type LokalModel, type LokalModelOptions } from './models/open.ts';
export * as data from './data/index.ts';
export * as metrics from './metrics/index.ts';
export * as prompts from './benchmarks/multiloko/prompts/index.ts';
export * as models from './models/index.ts';
export { scoreMultiLoKoPredictions, scoreOutputJson, describeProblems, type ScoreOptions, type ScoreOutput } from './benchmarks/multiloko/score.ts';
export { lokalMatchers, type LokalMatchers, type Targets } from './benchmarks/multiloko/matchers.ts';
export { readPredictions, type PredictionRow } from './benchmarks/multiloko/data/predictions.ts';
