// `lokal score`: the official eval.py's scoring of a predictions file, with its problems reported instead of crashing.
import { previewText, summariseList } from '../../../data/errors.ts';
import type { MultiLoKoDataset } from '../data/multiloko.ts';
import type { MultiLoKoQuestion } from '../data/schema.ts';
import type { PredictionRow } from '../../../models/predictionRow.ts';
import { assembleOrderedResults, resultsObject, writeOrderedResultsJson, type LanguageExamples, type OfficialResults, type OrderedResults } from './assembleResults.ts';
import { scoreExample } from '../../../metrics/scoreExample.ts';
import { f1Words } from './f1Words.ts';
import { wordSegmenter } from './wordSegmenter.ts';
import { contentLanguage } from '../data/subsetKey.ts';
import { scoresOf, type ExampleBatch } from './exampleBatch.ts';
import type { ScoreThreads } from './scoreThreads.ts';
import type { ExampleRecord, ExampleScores } from '../../../metrics/metricNames.ts';
import { errorCategory, type ErrorCategory } from '../../../metrics/errorCategory.ts';

export interface ScoreOptions {
  /** What a dataset item without a prediction becomes: scored as '' and flagged (default), or left out as eval.py does. */
  missing?: 'empty' | 'skip';
  /** Match CSV string ids to numeric dataset ids (eval.py would raise KeyError). */
  stringifyIds?: boolean;
  /** Cross-language sums as Python ≤ 3.11 (`fold`, default) or ≥ 3.12 (`neumaier`) computes them. */
  sum?: 'fold' | 'neumaier';
  /** The predictions file, as an example that fails to score is named (`<file>:<line>: <language>/<id>: …`). */
  predictionsFile?: string;
}

export interface ScoreProblems {
  /** Prediction rows whose language key is not in the dataset (eval.py: KeyError). */
  unknownLanguages: Array<{ language: string; line: number }>;
  /** Prediction rows whose id is not in that language's references (eval.py: KeyError). */
  unknownIds: Array<{ language: string; id: string | number; line: number }>;
  /** Dataset items of a predicted language with no prediction. */
  missing: Array<{ language: string; id: string | number }>;
  /** Repeated (language, id) rows; the last one wins, as in eval.py. */
  duplicates: Array<{ language: string; id: string | number; lines: number[] }>;
  /** Dataset subsets with no prediction at all (not scored, as in eval.py). */
  languagesWithoutPredictions: string[];
}

export interface ScoredRecord extends ExampleRecord {
  /** What kind of answer it was (errorCategory), after eval.py's keys and edit_distance_first. */
  error: ErrorCategory;
  /** No prediction was given: scored as the empty answer. */
  missing?: true;
  /** chrF scored only the first CHRF_MAX_HYPOTHESIS_CODE_POINTS code points of a longer prediction. */
  truncated?: true;
}

export type OfficialLayout = OfficialResults;

export interface ScoreOutput {
  /** eval.py's results as an object (integer-like ids reorder as JS object keys; write files with scoreOutputJson). */
  results: OfficialLayout;
  /** The scored records per language, in eval.py's order. */
  languages: LanguageExamples[];
  problems: ScoreProblems;
  sum: 'fold' | 'neumaier';
}

// The results scoreMultiLoKoPredictions assembled, by output, so writing the file does not assemble them again.
const assembled = new WeakMap<ScoreOutput, { languages: LanguageExamples[]; sum: 'fold' | 'neumaier'; ordered: OrderedResults }>();

/** The output file's text: eval.py's exact JSON (key order, `1.0` floats, int-0 f1) plus our `lokal` section. */
export function scoreOutputJson(output: ScoreOutput, trailing: ReadonlyArray<[string, unknown]> = [], lokal: Record<string, unknown> = {}): string {
  const pieces: string[] = [];
  writeScoreOutputJson(output, (piece) => pieces.push(piece), trailing, lokal);
  return pieces.join('');
}

/** scoreOutputJson's text handed to `write` piece by piece, in order (a file need not hold it whole). */
export function writeScoreOutputJson(output: ScoreOutput, write: (piece: string) => void, trailing: ReadonlyArray<[string, unknown]> = [], lokal: Record<string, unknown> = {}): void {
  // Our own section: the problems found, and what else the caller records there (the fingerprint).
  const sections: Array<[string, unknown]> = [['lokal', { problems: output.problems, ...lokal }], ...trailing];
  const known = assembled.get(output);
  const ordered = known && known.languages === output.languages && known.sum === output.sum ? known.ordered : assembleOrderedResults(output.languages, { sum: output.sum });
  writeOrderedResultsJson(ordered, write, { trailing: sections });
}

/** `{ ...scores, targets, prediction }` as one literal: one allocation per item with one shape (ExampleScores' keys). */
function scoredRecord(scores: ExampleScores, targets: string[], prediction: string): ScoredRecord {
  return {
    em: scores.em,
    f1: scores.f1,
    bleu: scores.bleu,
    chrf: scores.chrf,
    edit_distance: scores.edit_distance,
    edit_similarity: scores.edit_similarity,
    edit_distance_first: scores.edit_distance_first,
    targets,
    prediction,
    error: errorCategory(prediction, targets, scores.edit_similarity),
  };
}

// Python dict semantics by Map keys: the id itself keeps 7 and '7' apart (SameValueZero), as eval.py's dict does;
// with --stringify-ids both sides become strings.
const idKey = (id: string | number, stringify: boolean): string | number => (stringify ? String(id) : id);

/** One example to score, in eval.py's order: a dataset item and its last prediction ('' for a missing one). */
interface PlannedExample {
  item: MultiLoKoQuestion;
  prediction: string;
  /** The predictions file's lines that gave this item (empty: no prediction, scored as ''). */
  lines: number[];
}

/** The rows matched to the dataset, per language in first-row order, and what did not line up. */
interface ScorePlan {
  languages: Array<{ key: string; examples: PlannedExample[] }>;
  problems: ScoreProblems;
}

function planScoring(dataset: MultiLoKoDataset, rows: PredictionRow[], options: ScoreOptions): ScorePlan {
  const stringify = options.stringifyIds ?? false;
  const missingMode = options.missing ?? 'empty';
  const subsets = new Map(dataset.subsets.map((s) => [s.key, s]));
  const problems: ScoreProblems = {
    unknownLanguages: [],
    unknownIds: [],
    missing: [],
    duplicates: [],
    languagesWithoutPredictions: [],
  };

  // Per language: its items by id key (a Map, as eval.py's dict: insertion order, the last one wins) and, per item
  // position, the last prediction and every line that gave one; `order` lists the predicted positions in first-row
  // order (a Python dict keeps the first insertion's place when a later row overwrites the value).
  interface LanguageState {
    items: readonly MultiLoKoQuestion[];
    index: Map<string | number, number>;
    predictions: string[];
    lines: number[][];
    order: number[];
  }
  const byLanguage = new Map<string, LanguageState>();
  const itemIndex = new Map<string, LanguageState>();
  // Indexed loops over the rows and items: before V8 optimises a loop, each for-of step allocates an iterator result.
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    let state = itemIndex.get(row.language);
    if (!state) {
      const subset = subsets.get(row.language);
      if (!subset) {
        problems.unknownLanguages.push({ language: row.language, line: row.line });
        continue;
      }
      const index = new Map<string | number, number>();
      for (let i = 0; i < subset.items.length; i++) index.set(idKey(subset.items[i]!.id, stringify), i);
      state = { items: subset.items, index, predictions: [], lines: [], order: [] };
      itemIndex.set(row.language, state);
    }
    const at = state.index.get(idKey(row.id, stringify));
    if (at === undefined) {
      problems.unknownIds.push({ language: row.language, id: row.id, line: row.line });
      continue;
    }
    if (!byLanguage.has(row.language)) byLanguage.set(row.language, state);
    state.predictions[at] = row.prediction;
    const seen = state.lines[at];
    if (seen) seen.push(row.line);
    else {
      state.lines[at] = [row.line];
      state.order.push(at);
    }
  }

  const languages: ScorePlan['languages'] = [];
  for (const [language, state] of byLanguage) {
    const examples: PlannedExample[] = [];
    for (let o = 0; o < state.order.length; o++) {
      const at = state.order[o]!;
      const item = state.items[at]!;
      const lines = state.lines[at]!;
      if (lines.length > 1) problems.duplicates.push({ language, id: item.id, lines });
      examples.push({ item, prediction: state.predictions[at]!, lines });
    }
    for (const at of state.index.values()) {
      if (state.lines[at] !== undefined) continue;
      const item = state.items[at]!;
      problems.missing.push({ language, id: item.id });
      if (missingMode === 'empty') examples.push({ item, prediction: '', lines: [] });
    }
    languages.push({ key: language, examples });
  }
  problems.languagesWithoutPredictions = dataset.subsets.map((s) => s.key).filter((k) => !byLanguage.has(k));

  if (languages.length === 0) {
    throw new Error(
      'No prediction matched the dataset: ' +
        describeProblems(problems, dataset).join('; ') +
        '. Check the `language` keys (folder names such as "italian", or "italian_translated_human_english") and the split.',
    );
  }
  return { languages, problems };
}

/**
 * A metric failing on one example, named by where the example came from: the predictions file's line of its (last)
 * prediction, or the dataset item when it had none. The same text whichever thread scored it.
 */
function exampleError(failure: { name: string; message: string }, language: string, example: PlannedExample, file: string): Error {
  const line = example.lines.at(-1);
  const where = line === undefined ? `${language}/${shown(example.item.id)} (no prediction, scored as '')` : `${file}:${line}: ${language}/${shown(example.item.id)}`;
  const error = new Error(`${where}: ${failure.message}`);
  error.name = failure.name;
  return error;
}

/** The output from the plan and every example's scores, in plan order. */
function finishScoring(plan: ScorePlan, options: ScoreOptions, scoredAt: (language: number, example: number) => ReturnType<typeof scoreExample>): ScoreOutput {
  const languages: LanguageExamples[] = [];
  for (let l = 0; l < plan.languages.length; l++) {
    const { key, examples: planned } = plan.languages[l]!;
    const { segmenter } = wordSegmenter(contentLanguage(key));
    const examples: Array<{ id: string | number; record: ScoredRecord }> = [];
    for (let e = 0; e < planned.length; e++) {
      const example = planned[e]!;
      const { scores, prediction, targets, truncated } = scoredAt(l, e);
      const record = scoredRecord(scores, targets, prediction);
      // Beside eval.py's f1: the same F1 over words of the text's language (ICU word segments).
      record.f1_words = f1Words(prediction, targets, segmenter);
      if (truncated) record.truncated = truncated;
      if (example.lines.length === 0) record.missing = true;
      examples.push({ id: example.item.id, record });
    }
    languages.push({ key, examples });
  }
  const sum = options.sum ?? 'fold';
  const ordered = assembleOrderedResults(languages, { sum });
  let results: OfficialResults | undefined;
  const output: ScoreOutput = {
    // Built on first read: `lokal score` writes the file from the assembled results and never reads this object.
    get results() {
      return (results ??= resultsObject(ordered));
    },
    languages,
    problems: plan.problems,
    sum,
  };
  assembled.set(output, { languages, sum, ordered });
  return output;
}

export function scoreMultiLoKoPredictions(
  dataset: MultiLoKoDataset,
  rows: PredictionRow[],
  options: ScoreOptions = {},
): ScoreOutput {
  const plan = planScoring(dataset, rows, options);
  const file = options.predictionsFile ?? 'predictions';
  return finishScoring(plan, options, (l, e) => {
    const { key, examples } = plan.languages[l]!;
    const example = examples[e]!;
    try {
      return scoreExample(example.prediction, example.item.targets);
    } catch (error) {
      throw exampleError(error instanceof Error ? error : new Error(String(error)), key, example, file);
    }
  });
}

/**
 * scoreMultiLoKoPredictions with the examples scored on `threads` (its workers and this thread) as well: the same
 * output, byte for byte, and the same error for a failing example.
 */
export async function scoreMultiLoKoPredictionsOnThreads(
  dataset: MultiLoKoDataset,
  rows: PredictionRow[],
  threads: ScoreThreads,
  options: ScoreOptions & { mainThread?: boolean } = {},
): Promise<ScoreOutput> {
  let plan: ScorePlan;
  try {
    plan = planScoring(dataset, rows, options);
  } catch (error) {
    threads.close();
    throw error;
  }
  const texts: string[] = [];
  const starts: number[] = [];
  const firstExample: number[] = [];
  for (const { examples } of plan.languages) {
    firstExample.push(starts.length);
    for (let e = 0; e < examples.length; e++) {
      const { prediction, item } = examples[e]!;
      starts.push(texts.length);
      texts.push(prediction);
      for (let t = 0; t < item.targets.length; t++) texts.push(item.targets[t]!);
    }
  }
  starts.push(texts.length);
  const batch: ExampleBatch = { texts, starts: Int32Array.from(starts) };
  const { scored, failure } = await threads.score(batch, { mainThread: options.mainThread });
  const file = options.predictionsFile ?? 'predictions';
  if (failure) {
    const language = firstExample.findLastIndex((first) => first <= failure.example);
    const { key, examples } = plan.languages[language]!;
    throw exampleError(failure, key, examples[failure.example - firstExample[language]!]!, file);
  }
  return finishScoring(plan, options, (l, e) => {
    const at = firstExample[l]! + e;
    const first = batch.starts[at]!;
    const targets: string[] = [];
    for (let t = first + 1; t < batch.starts[at + 1]!; t++) targets.push(scored.texts[t]!);
    const result: ReturnType<typeof scoreExample> = { scores: scoresOf(scored, at), prediction: scored.texts[first]!, targets };
    if (scored.truncated[at]) result.truncated = true;
    return result;
  });
}

const FIRST_FEW = 5;

/** An id or language as printed in a message: JSON-quoted strings, cut when long. */
const shown = (value: string | number): string => (typeof value === 'string' ? previewText(value, 60) : String(value));

/** Human-readable lines about what did not line up; empty when everything matched. Long lists: count plus first few. */
export function describeProblems(problems: ScoreProblems, dataset?: MultiLoKoDataset): string[] {
  const lines: string[] = [];
  const few = <T>(list: T[], show: (x: T) => string) => summariseList(list, show, FIRST_FEW);
  if (problems.unknownLanguages.length) {
    const names = [...new Set(problems.unknownLanguages.map((p) => p.language))];
    const known = dataset ? ` (dataset has: ${summariseList(dataset.subsets.map((s) => s.key), String, 8)})` : '';
    lines.push(`${problems.unknownLanguages.length} prediction rows name a language not in the dataset: ${few(names, shown)}${known}; skipped`);
  }
  if (problems.unknownIds.length) {
    const hint = problems.unknownIds.some((p) => typeof p.id === 'string' && /^\d+$/.test(p.id))
      ? ' (numeric-looking string ids: if the dataset ids are numbers, pass --stringify-ids)'
      : '';
    lines.push(`${problems.unknownIds.length} prediction rows have an id not in their language: ${few(problems.unknownIds, (p) => `${p.language}/${shown(p.id)} (line ${p.line})`)}; skipped${hint}`);
  }
  if (problems.duplicates.length) {
    lines.push(`${problems.duplicates.length} ids are predicted more than once (the last row wins): ${few(problems.duplicates, (p) => `${p.language}/${shown(p.id)} (lines ${few(p.lines, String)})`)}`);
  }
  if (problems.missing.length) {
    lines.push(`${problems.missing.length} dataset items have no prediction: ${few(problems.missing, (p) => `${p.language}/${shown(p.id)}`)}`);
  }
  return lines;
}
