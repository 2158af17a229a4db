// MultiLoKo's section of the report (src/report/section.ts), which its definition hands the registry: how a results
// file is recognised and read (multiloko.json and `lokal score` output, through resultsSchema.ts), its part of the
// HTML report (reportHtml.ts), of the step summary (reportMarkdown.ts) and of `lokal compare` (reportCompare.ts), its
// fingerprint, and a baseline's texts hashed for a redacted run.
import { parseFingerprint } from '../../../../core/fingerprint.ts';
import { hashed, hashFields, hashFlips, hashInputs, isObject } from '../../../../report/redactResults.ts';
import type { BenchmarkReportSection } from '../../../benchmark.ts';
import { compareMultiLoKoRuns } from './reportCompare.ts';
import { multilokoHtml } from './reportHtml.ts';
import { multilokoStepSummary } from './reportMarkdown.ts';
import { NOT_SUBSETS } from './reportView.ts';
import { MultiLoKoResultsSchema, type MultiLoKoResultsJson } from '../../resultsSchema.ts';

/** A language entry with its mean, or an item record: an object with a numeric `em`. */
const hasEm = (value: unknown) => isObject(value) && typeof value.em === 'number';

const MULTILOKO_TEXTS = ['question', 'prediction', 'raw_prediction', 'rawPrediction', 'answer'];

/** The item records' texts and prompts, `lokal score`'s item texts and the baseline flips, hashed in place. */
function redactMultiLoKo(results: MultiLoKoResultsJson): void {
  for (const [key, entry] of Object.entries(results)) {
    if (NOT_SUBSETS.has(key) || !isObject(entry)) continue;
    for (const record of Object.values(entry)) {
      if (!isObject(record)) continue;
      hashFields(record, MULTILOKO_TEXTS);
      if (Object.hasOwn(record, 'targets')) record.targets = Array.isArray(record.targets) ? record.targets.map(hashed) : hashed(record.targets);
      hashInputs(record, ['model_input', 'prompt']);
      if (Array.isArray(record.trials)) for (const trial of record.trials) if (isObject(trial)) hashFields(trial, ['prediction']);
    }
  }
  const texts = isObject(results.lokal) ? results.lokal.items : undefined;
  if (isObject(texts)) for (const subset of Object.values(texts)) if (isObject(subset)) for (const item of Object.values(subset)) if (isObject(item)) hashFields(item, Object.keys(item));
  hashFlips(results.summary?.baseline);
}

export const multilokoReportSection: BenchmarkReportSection<MultiLoKoResultsJson> = {
  alsoReads: ['`lokal score` output'],
  schema: MultiLoKoResultsSchema,
  recognises: (value) => Object.values(value).some((entry) => hasEm(entry) || (isObject(entry) && Object.values(entry).some(hasEm))),
  recognisedBy: 'a language entry holding "em" or item records',
  // eval.py's layout has no marker of its own: a lone file no other section claims is read as MultiLoKo's.
  fallback: true,
  model: (results) => results.summary?.model,
  // `lokal score` output keeps its fingerprint in its own `lokal` section.
  fingerprint: (results) => parseFingerprint(results.summary?.fingerprint, 'summary.fingerprint') ?? parseFingerprint((results.lokal as { fingerprint?: unknown } | undefined)?.fingerprint, 'lokal.fingerprint'),
  html: multilokoHtml,
  markdown: multilokoStepSummary,
  redact: redactMultiLoKo,
  compareRuns: compareMultiLoKoRuns,
};
