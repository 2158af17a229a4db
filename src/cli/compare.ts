// `lokal compare <results>...`: 2–10 runs side by side in the terminal, and as an HTML file with the chart and each
// later run's paired tests against the first. A run is a results folder (multiloko.json / kalahi.json) or one file.
import { labelledPath } from '../core/modelList.ts';
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { terminalLines, terminalText } from '../data/terminalText.ts';
import { runLabels } from '../run/runLabels.ts';
import { checkOutputPath } from './output.ts';
import { holdsAny } from '../report/types.ts';

const COMPARE_USAGE = `usage: lokal compare [name=]<results.json|results folder> [name=]<results.json|folder>... [-o compare.html] [--no-html] [--allow <field,…>]
  2 to 10 runs (a run's multiloko.json, kalahi.json, a dataset benchmark's <name>.json, \`lokal score\` output, or
  the folder holding them), each optionally labelled (qwen3=results/qwen3; else the model its results name); the first is
  the reference: every other run is compared with it on the items both hold by the baseline gate's tests (McNemar's
  exact test for 0/1 scores of independent items, a paired cluster bootstrap otherwise, Holm-adjusted with the pooled
  figures). Prints the side-by-side table and writes the HTML report
  (default compare.html; -o to move it, --no-html to skip it).
  A benchmark of a run made differently (its fingerprint differs from #1's in data, prompt, template, shots, fewshot,
  extraction, scorer, decoding, protocol or model.numerics) is left out of the comparison, naming each field; --allow
  (or LOKAL_BASELINE_ALLOW) accepts the fields it lists. Kalahi MC figures of two MC protocols are never compared (the
  run's other figures are). Every comparable table is shown; exit 1 only when nothing comparable is left. Other model
  differences are what a comparison is for: they are printed, never refused.
`;

export async function compareCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { output: { type: 'string', short: 'o' }, 'no-html': { type: 'boolean' }, allow: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(COMPARE_USAGE);
    return 0;
  }
  const { MAX_RUNS, MIN_RUNS, compareRuns, compareRunsText, comparesAnything } = await import('../report/compareRuns.ts');
  if (positionals.length < MIN_RUNS || positionals.length > MAX_RUNS) {
    process.stderr.write(`lokal compare: give ${MIN_RUNS} to ${MAX_RUNS} runs (got ${positionals.length})\n\n${COMPARE_USAGE}`);
    return 2;
  }
  const output = values['no-html'] ? undefined : (values.output ?? 'compare.html');
  if (output && (await stat(output).catch(() => undefined))?.isDirectory()) throw new Error(`--output ${output}: is a folder (EISDIR); give a file name`);
  // `qwen3=results/qwen3/` labels a run, as LOKAL_MODEL's `qwen3=replay:…` does (a file really named so is read as one).
  const given = await Promise.all(positionals.map(async (argument) => {
    const labelled = labelledPath(argument);
    const exists = labelled !== undefined && (await stat(argument).catch(() => undefined)) !== undefined;
    return labelled === undefined || exists ? { source: argument } : { source: labelled.path, label: labelled.label };
  }));
  // A run given as a folder is read for its multiloko.json / kalahi.json.
  await checkOutputPath('lokal compare', output, given.map(({ source }) => ({ path: source, role: 'a run being compared', folder: /\.json$/iu })));
  const { readRunResults } = await import('../report/index.ts');
  const { reportSections } = await import('../benchmarks/index.ts');
  // Each registered benchmark's report section reads its results file and sets out its part of the comparison.
  const sections = await reportSections();
  const runs = given.map(({ source, label: name }) => {
    let results;
    try {
      results = readRunResults(source, sections);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(`${source}: cannot be read as a results file or folder (${code ?? (error as Error).message.split('\n')[0]})`);
    }
    if (!holdsAny(results)) throw new Error(`${source}: holds neither ${sections.map((s) => s.resultsFile).join(', ')} nor a benchmark's results in the groups layout`);
    // Labelled below, once every run's model is known (a label is the shortest tail no other run ends with).
    return { label: '', source, results, ...(name !== undefined ? { name } : {}) };
  });
  runLabels(runs.map((r) => ({ results: r.results, source: r.source, label: r.name })), sections).forEach((label, i) => (runs[i]!.label = label));
  const { readConfigEnv } = await import('../core/settings.ts');
  // The one settings reader validates the list (an unknown field is an error naming the nearest one).
  const allow = readConfigEnv({ LOKAL_BASELINE_ALLOW: values.allow ?? process.env.LOKAL_BASELINE_ALLOW }, []).baselineAllow ?? [];
  const { comparableRuns, runsComparability } = await import('../report/runsComparability.ts');
  const { notComparableLine, differenceText, runtimeNote } = await import('../core/fingerprint.ts');
  const checks = runsComparability(runs, sections, allow);
  // A benchmark refused for a run is left out of that run alone: every comparable table is still shown (and the HTML lists it).
  const refusedLines: string[] = [];
  for (const c of checks) {
    const line = notComparableLine(c.comparability, `#1→#${c.index + 1}`, (fields) => `--allow ${fields}`);
    if (line) refusedLines.push(`${runs[c.index]!.label} (${c.benchmark}) is left out: ${line}`);
  }
  // Labels and fingerprint values come from the results files: each line escaped (terminalText), one line each.
  const say = (line: string) => process.stderr.write(`lokal compare: ${terminalText(line)}\n`);
  for (const line of refusedLines) say(line);
  for (const c of checks) {
    const { allowed, model, checked, refused } = c.comparability;
    if (refused.length > 0) continue;
    const label = `${runs[c.index]!.label} (${c.benchmark})`;
    if (!checked) say(`${label}: not checked for comparability (a results file without a fingerprint)`);
    if (allowed.length) say(`${label}: accepted differences: ${allowed.map(differenceText).join('; ')}`);
    if (model.length) say(`${label}: models differ (reported, not refused): ${model.map(differenceText).join('; ')}`);
    const note = runtimeNote(c.comparability);
    if (note) say(`${label}: ${note}`);
  }
  const compared = comparableRuns(runs, checks);
  const comparison = compareRuns(compared, sections);
  for (const line of comparison.leftOut) process.stderr.write(`${terminalLines(`lokal compare: ${line}`)}\n`);
  // Nothing left to set side by side: every benchmark of every later run was refused.
  if (!comparesAnything(comparison)) {
    process.stderr.write('lokal compare: nothing comparable is left (see the lines above)\n');
    return 1;
  }
  // Every line escaped, the "Runs:" lines with each run's summary.model included (a results file is not trusted text).
  process.stdout.write(`${terminalLines(compareRunsText(compared, comparison).join('\n'))}\n`);
  if (output) {
    const { renderCompareHtml } = await import('../report/compareHtml.ts');
    const { writeFileAtomic } = await import('../core/io.ts');
    await writeFileAtomic(output, await renderCompareHtml(compared, { ...comparison, leftOut: [...refusedLines, ...comparison.leftOut] }));
    say(`wrote ${output}`);
  }
  return 0;
}
