// defineBenchmark: one typed definition of a benchmark's pipeline — settings, data grouped into describes, how an
// item runs, how records aggregate, its gates, its roll-up and, for a results file of a layout of its own, its section
// of the report. The Vitest layer (src/vitest) turns any definition into describes, item tests and gate tests; the
// reporter rolls every registered definition up.
import type { LokalModel } from '../models/open.ts';
import type { GenerateRequest, ModelDescription } from '../models/types.ts';
import type { CapabilityName } from '../models/capabilities.ts';
import type { GateOutcome, ParsedClause } from '../core/gates.ts';
import type { SettingsSection } from '../core/settings.ts';
import type { ReportSection } from '../report/section.ts';

/** What every group (one describe) carries in its gate test's meta from collection on; serialisable. */
export interface GroupInfo {
  benchmark: string;
  /** Stable key of the group within its benchmark (a MultiLoKo subset key, a Kalahi variant). */
  key: string;
  /** The describe name. */
  name: string;
  /** Position among the benchmark's groups, for ordering. */
  order: number;
  /** Items selected for the run and in the source. */
  selected: number;
  total: number;
  /** The run's provider string. */
  model: string | undefined;
  /** The run's gate clauses, so a later `--merge-reports` judges by the same ones. */
  thresholds: string | undefined;
}

/** One describe: its info, its items, and optionally nested describes (e.g. Kalahi's categories). */
export interface BenchmarkGroup<Item, Info extends GroupInfo> {
  info: Info;
  items: readonly Item[];
  sections?: ReadonlyArray<{ name: string; items: readonly Item[] }>;
}

/** The outcome of one item test as aggregation sees it (a runner task or a reporter test case). */
export interface ItemView<Rec> {
  record: Rec | undefined;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
}

/** What a gate test leaves in its meta. */
export interface GateRecord {
  /** describe() of the model that answered (never contains an API key). */
  model?: ModelDescription;
  outcomes: Array<Omit<GateOutcome, 'value'> & { value: number | null }>;
  notApplied: string[];
}

/** A custom matcher in the shape of Vitest's `expect.extend` (its `this` is the matcher state). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type BenchmarkMatcher = (this: any, actual: unknown, ...args: any[]) => { pass: boolean; message: () => string; actual?: unknown; expected?: unknown };

/**
 * The matchers registered benchmarks add to `expect`, for typing: a benchmark declares its own by augmenting this
 * interface (MultiLoKo's `toExactMatch` etc.); the Vitest layer merges it into Vitest's `Matchers`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unused-vars
export interface BenchmarkMatchers<R = unknown> {}

/** The compact roll-up Vitest UI shows under an eval file's `summary` test: text, and optionally an image. */
export interface BenchmarkSummary {
  text: string;
  /** Shown inline under the text when its type is an `image/*` one (e.g. an SVG chart). */
  attachment?: { contentType: string; body: string };
  /** The gates the summed-up groups miss (run-wide and baseline ones too): the summary test fails on those no group's gate test shows. */
  missed?: MissedGate[];
}

/** A missed gate as a summary or the reporter names it. */
export type MissedGate = Pick<GateOutcome, 'gate' | 'figure' | 'message'> & { value: number | null };

/** What an item's run gets from the test it runs in. */
export interface ItemContext {
  /** The run's model (built once per worker; response cache included). */
  model(): Promise<LokalModel>;
  /** A verdict line for Vitest UI (`type` is a short tag such as `correct`). */
  annotate(message: string, type: string): Promise<void>;
  /** The test's own expect (with the benchmarks' matchers), so matcher results are recorded on this test. */
  expect(actual: unknown): BenchmarkMatchers<void>;
}

/** An item's outcome: the record kept in meta, and the failures that fail its test (after the record is kept). */
export interface ItemResult<Rec> {
  record: Rec;
  failures?: string[];
  /** An assertion run after the record is kept (strict mode's matcher), so a failed item still has its record. */
  assert?: () => void;
  /** Set when the answer is wrong: its verdict line, the error of the item test in Vitest UI (unless LOKAL_STRICT is set). */
  wrong?: string;
}

/** A group's gate test: the one-line summary and the gates judged on the group alone. */
export interface GroupVerdict {
  summary: string;
  outcomes: GateOutcome[];
  notApplied?: string[];
  /** A reason the gates cannot be judged (e.g. items failed without a score): fails the gate test. */
  blocked?: string;
}

/** Something the run's tasks need of the model (checked once, at collection), and the line to print when it cannot. */
export interface ModelRequirement {
  capability: CapabilityName;
  /** The one line naming what is missing and the settings that work; `how` says what the model answered. */
  problem(how: string): string;
}

/** The model a prompt is rendered for: its provider kind, and whether it takes chat messages (`LokalModel` fits). */
export interface PromptModel {
  kind: string;
  chat(): Promise<boolean>;
}

/** A prompt an item sends, as `lokal plan` counts it. */
export type PlannedPrompt = Pick<GenerateRequest, 'prompt' | 'messages'>;

/** A loaded benchmark, ready to become tests. */
export interface BenchmarkPlan<Item, Info extends GroupInfo, Rec, Agg> {
  groups: Array<BenchmarkGroup<Item, Info>>;
  /** What the run's tasks need of the model named by `spec`; the model is asked only when something is needed. */
  modelRequirements?(spec: string): ModelRequirement[];
  testName(item: Item): string;
  /**
   * The item's own id within its group, the same whatever the settings (redaction changes test names): parts of the
   * benchmark (`benchmarkSuite(b, { part: [i, n] })`) are cut by it. Without it, the test name is used.
   */
  itemId?(item: Item): string;
  /**
   * The item's expected cost from the data alone (never the model: every shard must compute the same): parts of the
   * benchmark are balanced by it (src/benchmarks/parts.ts). Without it, every item weighs one.
   */
  itemWeight?(item: Item, group: Info): number;
  /**
   * The prompts the item sends to `model` (plain prompt or chat messages), rendered by the code runItem renders them
   * with, so that `lokal plan` counts their tokens without calling a model. Without it, its tokens are not counted.
   */
  itemPrompts?(item: Item, group: Info, model: PromptModel): Promise<PlannedPrompt[]>;
  runItem(item: Item, group: Info, context: ItemContext): Promise<ItemResult<Rec>>;
  judgeGroup(aggregate: Agg): GroupVerdict;
  /** Called when the file's tests are done (e.g. to free learned-metric models). */
  close?(): Promise<void>;
}

/** A group as the reporter rolls it up: its aggregate and its records (each item once, in order). */
export interface RolledGroup<Rec, Agg> {
  aggregate: Agg;
  records: Rec[];
}

export interface ReportContext<Settings> {
  settings: Settings;
  /** The project root: results files and a baseline path are resolved against it. */
  root: string;
  /** The run's gate clauses that belong to this benchmark. */
  clauses: ParsedClause[];
  /**
   * In a run of several models: the model's name (its label, `qwen3=…`, else the shortest tail of its provider). Its
   * tables are headed by it, and its leaderboard row goes in the run's one leaderboard rather than a table of its own.
   */
  modelLabel?: string;
}

/** A benchmark's roll-up: lines for the terminal, the results file's text, and whether its gates passed. */
export interface BenchmarkReport {
  lines: string[];
  /** Written to `<output>/<resultsFile>`; undefined when there is nothing to write. */
  resultsText: string | undefined;
  /** resultsText in pieces (src/core/jsonPieces.ts), written as if joined, when the benchmark makes it so. */
  resultsPieces?: readonly string[];
  /** What resultsText is the JSON of, when the benchmark has it at hand (the HTML report then need not parse the text). */
  results?: object;
  passed: boolean;
  /** The gates that failed (the reporter's last line names them when the run exits 1). */
  missed?: MissedGate[];
}

/**
 * A benchmark's section of the report (src/report/section.ts) as its folder makes it (`reportSection.ts`): the
 * registry adds the definition's name, title and results file (src/benchmarks/index.ts reportSections()).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type BenchmarkReportSection<Results extends object = any> = Omit<ReportSection<Results>, 'name' | 'title' | 'resultsFile'>;

export interface BenchmarkDefinition<Settings = any, Item = any, Info extends GroupInfo = any, Rec = any, Agg extends Info = any> {
  /** Lower-case name: settings key, gate prefix (`kalahi.mc1>=0.4`), results file stem. */
  name: string;
  /** Display name (`MultiLoKo`). */
  title: string;
  settings: SettingsSection;
  /** Results file name under the output folder. */
  resultsFile: string;
  /** How to provide the data when it is absent (shown when the benchmark is skipped for want of it). */
  dataHint: string;
  /** Whether the data location was configured (a configured but missing location fails instead of skipping). */
  dataConfigured(settings: Settings): boolean;
  /**
   * Mistakes in one of its LOKAL_THRESHOLDS clauses that need no data (an unknown figure, a bound off the scale), thrown
   * as a ThresholdError before any test runs, so a run stops with one line; scopes are checked by `prepare`.
   */
  checkClause?(clause: ParsedClause): void;
  /** Reads the data and settings; throws a DataError `not-found` when the default data location is absent. */
  prepare(settings: Settings, clauses: ParsedClause[]): Promise<BenchmarkPlan<Item, Info, Rec, Agg>>;
  /** A group's figures from its info and its item tests (runner side and reporter side alike). */
  aggregate(info: Info, items: ReadonlyArray<ItemView<Rec>>, gate: GateRecord | undefined): Agg;
  /** Each item once, in item order (a repeated id keeps its last record, in the first one's place). */
  uniqueRecords(records: readonly Rec[]): Rec[];
  /** The roll-up over every group of the run: tables, gates, results file. */
  report(groups: ReadonlyArray<RolledGroup<Rec, Agg>>, context: ReportContext<Settings>): Promise<BenchmarkReport> | BenchmarkReport;
  /** The eval file's roll-up for Vitest UI, cheaper than `report` (it runs in the test worker); without it, the report's lines. */
  summary?(groups: ReadonlyArray<RolledGroup<Rec, Agg>>, context: ReportContext<Settings>): Promise<BenchmarkSummary>;
  /** Matchers this benchmark adds to Vitest's `expect` (for strict mode and for users' own tests), loaded on use. */
  matchers?(): Promise<Record<string, BenchmarkMatcher>>;
  /**
   * Its own section of the HTML report, the step summary and `lokal compare`, for a results file of a layout of its
   * own (the built-in benchmarks' `reportSection.ts`), loaded on use (it brings the report's modules). Without it, the
   * report shows the results file when it is in the groups layout (src/report/groupsResults.ts), as dataset
   * benchmarks write it.
   */
  reportSection?(): Promise<BenchmarkReportSection>;
}

/** Declares a benchmark; the identity function that gives the definition its types. */
export function defineBenchmark<Settings, Item, Info extends GroupInfo, Rec, Agg extends Info>(
  definition: BenchmarkDefinition<Settings, Item, Info, Rec, Agg>,
): BenchmarkDefinition<Settings, Item, Info, Rec, Agg> {
  return definition;
}
