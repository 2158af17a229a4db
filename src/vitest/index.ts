// vitest-lokal's Vitest layer: suites, the model fixture, matchers, gates and the roll-up helpers.
import '../benchmarks/multiloko/records.ts';
export { multilokoSuite, askModel, verdictLine, type MultiLoKoSuiteOptions, type ItemAnswer } from '../benchmarks/multiloko/item.ts';
export { lokalTest, ModelPool } from './fixtures.ts';
export { DEFAULT_MODEL_SPEC, modelSpec, lokalModelOptions, openLokalModel, isChatModel, folderHasChatTemplate, type LokalModel, type LokalModelOptions } from '../models/open.ts';
export { lokalMatchers, type LokalMatchers, type Targets } from './matchers.ts';
export {
  resolveLokalConfig, resolveLokalSettings, readConfigEnv, readConfigFile, LokalConfigSchema, LokalConfigError, LOKAL_DEFAULTS,
  CONFIG_FILE, SUBSET_KINDS, PROMPT_MODES, FEWSHOT_SETTINGS, type LokalConfig, type LokalConfigInput,
} from '../core/settings.ts';
export { parseThresholds, parseGate, judge, holds, ThresholdError, type Gate, type GateOutcome, type GateScope } from '../benchmarks/multiloko/gates.ts';
export { readBaseline, parseBaseline, BaselineError, type Baseline } from '../benchmarks/multiloko/baseline.ts';
export { selectSubsets, type SelectedSubset } from '../benchmarks/multiloko/select.ts';
export { subsetName, subsetLanguage, itemTestName, multilokoItemKey, GATE_TEST_NAME } from '../benchmarks/multiloko/names.ts';
export {
  renderItemPrompt, chooseFewshot, resolvePromptMode, extractsAnswers, scoredAnswer, promptUse, type ItemPrompt, type PromptMode, type RenderedItemPrompt,
} from '../benchmarks/multiloko/itemPrompt.ts';
export { summariseHeadline, type HeadlineSummary, type EffectFigures } from '../benchmarks/multiloko/headline.ts';
export { headlineLines } from '../benchmarks/multiloko/headlineTable.ts';
export { markdownTable, alignedColumns, displayWidth } from '../core/textTable.ts';
export { summarisePrompts, summariseCalls, describePrompts, type PromptSummary, type CallSummary } from '../benchmarks/multiloko/usage.ts';
export { aggregateSubset, uniqueRecords } from '../benchmarks/multiloko/aggregate.ts';
export { collectSubsets, officialLayout, summariseGroups, summariseRun, judgeRun, standardError, type RunSummary, type GroupSummary } from '../benchmarks/multiloko/rollup.ts';
export type { LokalItemRecord, LokalSubsetInfo, LokalSubsetAggregate, LokalGateRecord, LokalPromptUse } from '../benchmarks/multiloko/records.ts';
// Kalahi (src/vitest/kalahi*.ts)
import '../benchmarks/kalahi/records.ts';
export { kalahiSuite, type KalahiSuiteOptions } from '../benchmarks/kalahi/item.ts';
export { resolveKalahiConfig, KALAHI_TOKEN_BUDGET, type KalahiConfig } from '../benchmarks/kalahi/config.ts';
export { parseKalahiThresholds, parseKalahiGate, judgeKalahi, type KalahiGate } from '../benchmarks/kalahi/gates.ts';
export { collectKalahi, kalahiResults, type KalahiResults, type RolledKalahiSuite } from '../benchmarks/kalahi/results.ts';
export { kalahiTableLines, kalahiGateLines } from '../benchmarks/kalahi/table.ts';
export type { KalahiPromptRecord, KalahiMCRecord, KalahiGenerationRecord, KalahiRunInfo, KalahiSuiteAggregate } from '../benchmarks/kalahi/records.ts';
