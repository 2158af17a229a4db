// vitest-lokal's Vitest layer: suites, the model fixture, matchers, gates and the roll-up helpers.
import './meta.ts';
export { multilokoSuite, askModel, verdictLine, type MultiLoKoSuiteOptions, type ItemAnswer } from './suite.ts';
export { lokalTest, ModelPool, NO_MODEL_MESSAGE } from './fixtures.ts';
export { lokalMatchers, type LokalMatchers, type Targets } from './matchers.ts';
export {
  resolveLokalConfig, resolveLokalSettings, readConfigEnv, readConfigFile, LokalConfigSchema, LokalConfigError, LOKAL_DEFAULTS,
  CONFIG_FILE, SUBSET_KINDS, type LokalConfig, type LokalConfigInput,
} from './config.ts';
export { parseThresholds, parseGate, judge, holds, ThresholdError, type Gate, type GateOutcome, type GateScope } from './thresholds.ts';
export { readBaseline, parseBaseline, BaselineError, type Baseline } from './baseline.ts';
export { selectSubsets, type SelectedSubset } from './select.ts';
export { subsetName, subsetLanguage, itemTestName, multilokoItemKey, GATE_TEST_NAME } from './names.ts';
export { renderItemPrompt, type ItemPrompt } from './prompt.ts';
export { aggregateSubset, uniqueRecords } from './aggregate.ts';
export { collectSubsets, officialLayout, summariseGroups, summariseRun, judgeRun, standardError, type RunSummary, type GroupSummary } from './rollup.ts';
export type { LokalItemRecord, LokalSubsetInfo, LokalSubsetAggregate, LokalGateRecord } from './meta.ts';
