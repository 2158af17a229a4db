// The HTML report: render it from parsed results, or read a results folder and write `report.html` beside them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/io.ts';
import { requireShallow } from '../core/jsonDepth.ts';
import { renderHtmlReport } from './html.ts';
import type { ReportInput, RunResults } from './types.ts';
import { GROUPS_LAYOUT, GroupsResultsSchema, isGroupsResults } from './groupsResults.ts';
import { parseResultsFile } from '../core/resultsFile.ts';
import { MultiLoKoResultsSchema } from '../benchmarks/multiloko/resultsSchema.ts';
import { KalahiResultsSchema } from '../benchmarks/kalahi/resultsSchema.ts';

export { renderHtmlReport } from './html.ts';
export { escapeHtml } from './escape.ts';
export { barChartSpec, renderChart, unsafeSvg, type BarDatum } from './charts.ts';
export { multilokoView, multilokoSubsets, emDifference, type MultiLoKoView, type MultiLoKoSubset, type MultiLoKoItemView, type Verdict } from './multiloko.ts';
export { kalahiView, kalahiFigures, type KalahiView, type KalahiVariantView, type KalahiPrompt } from './kalahi.ts';
export { compareMultiLoKo, compareKalahi, type Comparison, type Flip } from './compare.ts';
export type { ReportInput, RunResults } from './types.ts';
export { GROUPS_LAYOUT, isGroupsResults, type GroupsResultsJson, type GroupJson, type GroupItemJson, type DeclaredFigureJson, type FigureValueJson } from './groupsResults.ts';

/**
 * The results of one run from disk: a folder holding `multiloko.json`, `kalahi.json` and other benchmarks' results in
 * the groups layout, or one such file (a file in the groups layout is that benchmark's; one with `variants` is
 * Kalahi's; one naming another benchmark in its `benchmark` field and in no layout the report knows is an error;
 * anything else is read as MultiLoKo's, which includes `lokal score` output).
 */
export function readRunResults(location: string): RunResults {
  const read = (file: string) => {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    // Bounded depth (the walks below are recursive) and an object that holds a benchmark's results.
    requireShallow(value, file);
    return value;
  };
  const check = (file: string, value: unknown) => {
    if (!holdsResults(value)) throw new Error(`${file}: holds no benchmark results (expected the object of a multiloko.json, kalahi.json or \`lokal score\` output, found ${describeKind(value)})`);
    return value;
  };
  // Each file against its schema: a wrong field is an error naming the file and the field's path.
  const multiloko = (file: string, value: unknown) => parseResultsFile(MultiLoKoResultsSchema, check(file, value), file);
  const kalahi = (file: string, value: unknown) => parseResultsFile(KalahiResultsSchema, check(file, value), file);
  const groups = (file: string, value: unknown) => parseResultsFile(GroupsResultsSchema, value, file);
  if (isFolder(location)) {
    const out: RunResults = {};
    const names = readdirSync(location).filter((n) => n.endsWith('.json') && !n.endsWith('.incomplete.json')).sort();
    for (const name of names) {
      const file = path.join(location, name);
      if (name === 'multiloko.json') out.multiloko = multiloko(file, read(file));
      else if (name === 'kalahi.json') out.kalahi = kalahi(file, read(file));
      else {
        // Other JSON files of the folder are read only when they are results in the groups layout.
        let value: unknown;
        try {
          value = read(file);
        } catch {
          continue;
        }
        if (isGroupsResults(value) || claimsGroupsLayout(value)) (out.others ??= []).push(groups(file, value));
      }
    }
    if (!out.multiloko && !out.kalahi && !out.others) throw new Error(`${location}: holds no results file (multiloko.json, kalahi.json, or a benchmark's <name>.json in the groups layout)`);
    return out;
  }
  const value = read(location);
  if (isGroupsResults(value) || claimsGroupsLayout(value)) return { others: [groups(location, value)] };
  const declared = isObject(value) && typeof value.benchmark === 'string' ? value.benchmark : undefined;
  if (declared !== undefined && declared !== 'multiloko' && declared !== 'kalahi') {
    throw new Error(`${location}: holds results of the benchmark "${declared}", which are not in a layout the report reads (MultiLoKo's, Kalahi's, or the groups layout "${GROUPS_LAYOUT}" that defineDatasetBenchmark writes); a custom benchmark gets a report section, a step summary and \`lokal compare\` by writing its results in the groups layout`);
  }
  const parsed = check(location, value);
  return parsed.benchmark === 'kalahi' || 'variants' in parsed ? { kalahi: kalahi(location, parsed) } : { multiloko: multiloko(location, parsed) };
}

function isFolder(location: string): boolean {
  try {
    return statSync(location).isDirectory();
  } catch {
    return false;
  }
}

function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object with neither "variants" nor a language entry holding "em" or item records' : `a ${typeof value}`;
}

/** Kalahi's results (`variants`), or MultiLoKo's: an object with a language entry holding its mean `em` or item records. */
function holdsResults(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (record.variants !== null && typeof record.variants === 'object' && !Array.isArray(record.variants)) return true;
  return Object.values(record).some((entry) => hasEm(entry) || (isObject(entry) && Object.values(entry).some(hasEm)));
}

/** A file whose `layout` names the groups layout: read as one, so a wrong field is an error rather than a skipped file. */
function claimsGroupsLayout(value: unknown): boolean {
  return isObject(value) && value.layout === GROUPS_LAYOUT;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A language entry with its mean, or an item record: an object with a numeric `em`. */
function hasEm(value: unknown): boolean {
  return isObject(value) && typeof value.em === 'number';
}

/** Renders and writes the report atomically (a half-written report is never left at `file`); returns the HTML. */
export async function writeHtmlReport(file: string, input: ReportInput): Promise<string> {
  const text = await renderHtmlReport(input);
  // The results writer's: a failed write (ENOSPC, a folder in the way) leaves no temp file, and stale ones are removed.
  await writeFileAtomic(file, text);
  return text;
}
