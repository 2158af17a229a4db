// The HTML report: render it from parsed results, or read a results folder and write `report.html` beside them. The
// sections given (section.ts; the registry's, src/benchmarks/index.ts reportSections()) say which files are whose.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../core/io.ts';
import { requireShallow } from '../core/jsonDepth.ts';
import { renderHtmlReport } from './html.ts';
import { orList, type ReportSection } from './section.ts';
import type { ReportInput, RunResults } from './types.ts';
import { GROUPS_LAYOUT, GroupsResultsSchema, isGroupsResults } from './groupsResults.ts';
import { parseResultsFile } from '../core/resultsFile.ts';

export { renderHtmlReport } from './html.ts';
export { escapeHtml } from './escape.ts';
export { barChartSpec, renderChart, unsafeSvg, type BarDatum } from './charts.ts';
export type { ReportSection } from './section.ts';
export type { ReportInput, RunResults } from './types.ts';
export { GROUPS_LAYOUT, isGroupsResults, type GroupsResultsJson, type GroupJson, type GroupItemJson, type DeclaredFigureJson, type FigureValueJson } from './groupsResults.ts';

/**
 * The results of one run from disk: a folder holding each section's results file (`multiloko.json`, `kalahi.json`)
 * and other benchmarks' results in the groups layout, or one such file. A lone file in the groups layout is that
 * benchmark's; one naming a section's benchmark in its `benchmark` field is that section's; one naming another
 * benchmark, in no layout the report knows, is an error; anything else is read by the first section that recognises it
 * (a fallback section last: MultiLoKo's, which includes `lokal score` output).
 */
export function readRunResults(location: string, sections: readonly ReportSection[]): RunResults {
  const read = (file: string) => {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    // Bounded depth (the walks below are recursive) and an object that holds a benchmark's results.
    requireShallow(value, file);
    return value;
  };
  // Sections with a marker of their own first, then the fallback ones.
  const ordered = [...sections.filter((s) => !s.fallback), ...sections.filter((s) => s.fallback)];
  const check = (file: string, value: unknown) => {
    if (!isObject(value) || !ordered.some((s) => s.recognises(value))) {
      const expected = orList([...sections.map((s) => s.resultsFile), ...sections.flatMap((s) => s.alsoReads ?? [])]);
      throw new Error(`${file}: holds no benchmark results (expected the object of a ${expected}, found ${describeKind(value, ordered)})`);
    }
    return value;
  };
  // Each file against its schema: a wrong field is an error naming the file and the field's path.
  const parse = (section: ReportSection, file: string, value: unknown) => parseResultsFile(section.schema, check(file, value), file) as object;
  const groups = (file: string, value: unknown) => parseResultsFile(GroupsResultsSchema, value, file);
  if (isFolder(location)) {
    const benchmarks: Record<string, object> = {};
    const out: RunResults = {};
    const names = readdirSync(location).filter((n) => n.endsWith('.json') && !n.endsWith('.incomplete.json')).sort();
    for (const name of names) {
      const file = path.join(location, name);
      const section = sections.find((s) => s.resultsFile === name);
      if (section) benchmarks[section.name] = parse(section, file, read(file));
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
    if (Object.keys(benchmarks).length > 0) out.benchmarks = benchmarks;
    if (!out.benchmarks && !out.others) throw new Error(`${location}: holds no results file (${[...sections.map((s) => s.resultsFile), "or a benchmark's <name>.json in the groups layout"].join(', ')})`);
    return out;
  }
  const value = read(location);
  if (isGroupsResults(value) || claimsGroupsLayout(value)) return { others: [groups(location, value)] };
  const declared = isObject(value) && typeof value.benchmark === 'string' ? value.benchmark : undefined;
  if (declared !== undefined && !sections.some((s) => s.name === declared)) {
    const layouts = [...sections.map((s) => `${s.title}'s`), `or the groups layout "${GROUPS_LAYOUT}" that defineDatasetBenchmark writes`].join(', ');
    throw new Error(`${location}: holds results of the benchmark "${declared}", which are not in a layout the report reads (${layouts}); a custom benchmark gets a report section, a step summary and \`lokal compare\` by writing its results in the groups layout`);
  }
  const parsed = check(location, value);
  const section = ordered.find((s) => s.name === declared) ?? ordered.find((s) => s.recognises(parsed))!;
  return { benchmarks: { [section.name]: parse(section, location, parsed) } };
}

function isFolder(location: string): boolean {
  try {
    return statSync(location).isDirectory();
  } catch {
    return false;
  }
}

function describeKind(value: unknown, sections: readonly ReportSection[]): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const looked = sections.map((s) => s.recognisedBy);
  return `an object with ${looked.length === 1 ? `no ${looked[0]!}` : `neither ${looked.slice(0, -1).join(', ')} nor ${looked.at(-1)!}`}`;
}

/** A file whose `layout` names the groups layout: read as one, so a wrong field is an error rather than a skipped file. */
function claimsGroupsLayout(value: unknown): boolean {
  return isObject(value) && value.layout === GROUPS_LAYOUT;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Renders and writes the report atomically (a half-written report is never left at `file`); returns the HTML. */
export async function writeHtmlReport(file: string, input: ReportInput, sections: readonly ReportSection[]): Promise<string> {
  const text = await renderHtmlReport(input, sections);
  // The results writer's: a failed write (ENOSPC, a folder in the way) leaves no temp file, and stale ones are removed.
  await writeFileAtomic(file, text);
  return text;
}
