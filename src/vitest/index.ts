// vitest-lokal's Vitest layer: suites, the model fixture, matchers, gates and the roll-up helpers.
import './meta.ts';
export { multilokoSuite, askModel, verdictLine, type MultiLoKoSuiteOptions, type ItemAnswer } from './suite.ts';
export { lokalTest, ModelPool } from './fixtures.ts';
export { DEFAULT_MODEL_SPEC, modelSpec, lokalModelOptions, openLokalModel, isChatModel, folderHasChatTemplate, type LokalModel, type LokalModelOptions } from './model.ts';
export { lokalMatchers, type LokalMatchers, type Targets } from './matchers.ts';
export {
  resolveLokalConfig, resolveLokalSettings, readConfigEnv, readConfigFile, LokalConfigSchema, LokalConfigError, LOKAL_DEFAULTS,
  CONFIG_FILE, SUBSET_KINDS, PROMPT_MODES, FEWSHOT_SETTINGS, type LokalConfig, type LokalConfigInput,
} from './config.ts';
export { parseThresholds, parseGate, judge, holds, ThresholdError, type Gate, type GateOutcome, type GateScope } from './thresholds.ts';
export { readBaseline, parseBaseline, BaselineError, type Baseline } from './baseline.ts';
export { selectSubsets, type SelectedSubset } from './select.ts';
export { subsetName, subsetLanguage, itemTestName, multilokoItemKey, GATE_TEST_NAME } from './names.ts';
export {
  renderItemPrompt, chooseFewshot, resolvePromptMode, extractsAnswers, scoredAnswer, promptUse, type ItemPrompt, type PromptMode, type RenderedItemPrompt,
} from './prompt.ts';
export { summariseHeadline, type HeadlineSummary, type EffectFigures } from './headline.ts';
export { headlineLines } from './headlineTable.ts';
export { markdownTable, alignedColumns, displayWidth } from './textTable.ts';
export { summarisePrompts, summariseCalls, describePrompts, type PromptSummary, type CallSummary } from './usage.ts';
export { aggregateSubset, uniqueRecords } from './aggregate.ts';
export { collectSubsets, officialLayout, summariseGroups, summariseRun, judgeRun, standardError, type RunSummary, type GroupSummary } from './rollup.ts';
export type { LokalItemRecord, LokalSubsetInfo, LokalSubsetAggregate, LokalGateRecord, LokalPromptUse } from './meta.ts';
// Kalahi (src/vitest/kalahi*.ts)
import './kalahiMeta.ts';
export { kalahiSuite, type KalahiSuiteOptions } from './kalahiSuite.ts';
export { resolveKalahiConfig, KALAHI_TOKEN_BUDGET, type KalahiConfig } from './kalahiConfig.ts';
export { parseKalahiThresholds, parseKalahiGate, judgeKalahi, type KalahiGate } from './kalahiThresholds.ts';
export { collectKalahi, kalahiResults, type KalahiResults, type RolledKalahiSuite } from './kalahiResults.ts';
export { kalahiTableLines, kalahiGateLines } from './kalahiTable.ts';
export type { KalahiPromptRecord, KalahiMCRecord, KalahiGenerationRecord, KalahiRunInfo, KalahiSuiteAggregate } from './kalahiMeta.ts';
