// Kalahi's section of the report (src/report/section.ts), which its definition hands the registry: how kalahi.json is
// recognised and read (through resultsSchema.ts), its part of the HTML report (reportHtml.ts), of the step summary
// (reportMarkdown.ts) and of `lokal compare` (reportCompare.ts), its fingerprint, and a baseline's texts hashed for a
// redacted run.
import { parseFingerprint } from '../../../../core/fingerprint.ts';
import { withoutMCProtocol } from '../../../../core/mcProtocol.ts';
import { hashFields, hashFlips, hashInputs, isObject, type Json } from '../../../../report/redactResults.ts';
import type { BenchmarkReportSection } from '../../../benchmark.ts';
import { compareKalahiRuns } from './reportCompare.ts';
import { kalahiHtml } from './reportHtml.ts';
import { kalahiStepSummary } from './reportMarkdown.ts';
import { KalahiResultsSchema, type KalahiResultsJson } from '../../resultsSchema.ts';

/** The prompt records' texts (topic, prompt, answers, replies, trials' replies), model inputs and the baseline flips, hashed in place. */
function redactKalahi(results: KalahiResultsJson): void {
  for (const variant of Object.values(results.variants ?? {})) {
    for (const record of Array.isArray(variant?.records) ? (variant.records as unknown[]) : []) {
      if (!isObject(record)) continue;
      hashFields(record, ['topic', 'prompt']);
      const { mc, generation } = record;
      if (isObject(mc)) {
        if (Array.isArray(mc.references)) for (const reference of mc.references) if (isObject(reference)) hashFields(reference, ['text']);
        if (isObject(mc.preferred)) hashFields(mc.preferred, ['text']);
        if (isObject(mc.letter)) {
          hashFields(mc.letter, ['response']);
          if (Array.isArray(mc.letter.options)) for (const option of mc.letter.options) if (isObject(option)) hashFields(option, ['text']);
        }
        hashInputs(mc, ['modelInput']);
        // With trials (run/plan.ts redacts a run's own the same way): the options shown and each trial's reply.
        if (isObject(mc.trials)) {
          if (Array.isArray(mc.trials.options)) for (const option of mc.trials.options) if (isObject(option)) hashFields(option, ['text']);
          if (Array.isArray(mc.trials.trials)) for (const trial of mc.trials.trials) if (isObject(trial)) hashFields(trial, ['response']);
        }
      }
      if (isObject(generation)) {
        hashFields(generation, ['response']);
        hashInputs(generation, ['modelInput']);
        if (isObject(generation.trials)) {
          if (Array.isArray(generation.trials.trials)) for (const trial of generation.trials.trials) if (isObject(trial)) hashFields(trial, ['response']);
          hashFields(generation.trials, ['majority']);
        }
      }
    }
  }
  hashFlips((results as Json).baseline);
}

export const kalahiReportSection: BenchmarkReportSection<KalahiResultsJson> = {
  schema: KalahiResultsSchema,
  recognises: (value) => isObject(value.variants),
  recognisedBy: '"variants"',
  model: (results) => Object.values(results.variants ?? {})[0]?.model,
  // The MC protocol is checked per variant, its MC figures left out where it differs (reportCompare.ts).
  fingerprint: (results) => withoutMCProtocol(parseFingerprint(results.fingerprint, 'fingerprint')),
  html: kalahiHtml,
  markdown: kalahiStepSummary,
  redact: redactKalahi,
  compareRuns: compareKalahiRuns,
};
