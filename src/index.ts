// vitest-lokal's pure API (no Vitest import, usable from plain Node): benchmark definitions and their registry,
// settings and gate helpers, the data loaders, the metrics, prompts, model providers and scoring. docs/api.md lists it.
export { defineBenchmark, type BenchmarkDefinition, type BenchmarkPlan, type BenchmarkGroup, type BenchmarkReport, type GroupInfo, type GateRecord, type ItemContext, type ItemResult, type ItemView, type RolledGroup, type ReportContext, type GroupVerdict, type BenchmarkSummary, type BenchmarkMatcher, type BenchmarkMatchers } from './benchmarks/benchmark.ts';
export { BENCHMARKS, registerBenchmark, findBenchmark, multiloko, kalahi } from './benchmarks/index.ts';
export {
  resolveSettingsTree, sectionSettings, sharedSettings, benchmarkModel, LokalConfigError, MODEL_SETTING,
  asIs, trimmed, lowerCase, list, number, flag,
  type SettingsTree, type SettingsSection, type SharedSettings, type EnvField, type EnvParse,
} from './core/settings.ts';
export { defineDatasetBenchmark, type DatasetBenchmark, type DatasetSettings } from './benchmarks/dataset/definition.ts';
export { DATASET_METRICS, NORMALIZATIONS, DatasetOptionsError, type DatasetBenchmarkOptions, type DatasetMetric, type DatasetRow, type Normalization, type PromptFunction } from './benchmarks/dataset/options.ts';
export type { DatasetItem } from './benchmarks/dataset/rows.ts';
export type { DatasetRecord, DatasetAggregate } from './benchmarks/dataset/records.ts';
export { GroupsResultsSchema, isGroupsResults, type GroupsResultsJson, type GroupJson, type GroupItemJson } from './report/groupsResults.ts';
// zod, for a benchmark's settings shape: re-exported so that a user's project never installs it separately.
export { z } from 'zod';
export { judge, unmeasured, requireKnownScope, ThresholdError, type GateOutcome, type GateOp } from './core/gates.ts';
export { alignedColumns, markdownTable } from './core/textTable.ts';
export { DEFAULT_MODEL_SPEC, openLokalModel, type LokalModel, type LokalModelOptions } from './models/open.ts';
export { createProvider } from './models/index.ts';
export { ProviderError, type ChatMessage, type GenerateRequest, type GenerateResult, type ModelProvider } from './models/types.ts';
export { DataError } from './data/errors.ts';
export { fetchData } from './benchmarks/fetchData.ts';
export { loadMultiLoKo, type MultiLoKoDataset, type MultiLoKoSubset, type MultiLoKoQuestion } from './benchmarks/multiloko/index.ts';
export { loadKalahi, type KalahiDataset, type KalahiRow } from './benchmarks/kalahi/index.ts';
export {
  MetricsError, normalizeAnswer, exactMatch, tokenF1, sentenceBleu, chrfScore, editDistance, editSimilarity, scoreExample,
} from './metrics/index.ts';
export { normalizeAnswerForLanguage } from './benchmarks/multiloko/index.ts';
export { renderMultilokoPrompt, extractAnswer } from './benchmarks/multiloko/prompts/index.ts';
export { scoreMultiLoKoPredictions, type ScoreOptions, type ScoreOutput } from './benchmarks/multiloko/metrics/score.ts';
export { lokalMatchers, type LokalMatchers, type Targets } from './benchmarks/multiloko/metrics/matchers.ts';
export { readPredictions } from './models/predictions.ts';
export type { PredictionRow } from './models/predictionRow.ts';
