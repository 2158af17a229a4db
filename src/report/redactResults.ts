// With redaction on, the baseline run a report compares with (LOKAL_BASELINE) is published beside the run: its texts
// are hashed as the run's own are (src/core/redact.ts), so an unredacted baseline's questions, targets and answers
// never reach the report or the step summary. A redacted baseline's hashes stay as they are, so equal texts still match.
import { redactedOnce } from '../core/redact.ts';
import { sha256 } from '../core/sha256.ts';
import { modelInputSha256 } from '../models/recordedInput.ts';
import type { ChatMessage } from '../models/types.ts';
import type { KalahiResultsJson } from '../benchmarks/kalahi/resultsSchema.ts';
import type { MultiLoKoResultsJson } from '../benchmarks/multiloko/resultsSchema.ts';
import type { RunResults } from './types.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A recorded text hashed; a value of another kind (an odd file) hashed as its JSON, so nothing is shown as it is. */
function hashed(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  return redactedOnce(typeof value === 'string' ? value : JSON.stringify(value));
}

function hashFields(record: Json, fields: readonly string[]): void {
  for (const field of fields) if (Object.hasOwn(record, field)) record[field] = hashed(record[field]);
}

/** A recorded model input as LOKAL_RECORD_PROMPTS=hash records it: `{ sha256 }` of its canonical form. */
function hashedInput(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (isObject(value) && typeof value.sha256 === 'string' && Object.keys(value).length === 1) return value;
  if (typeof value === 'string') return { sha256: modelInputSha256({ text: value }) };
  if (isObject(value) && typeof value.text === 'string') return { sha256: modelInputSha256({ text: value.text }) };
  if (isObject(value) && Array.isArray(value.messages) && value.messages.every(isObject))
    return { sha256: modelInputSha256({ messages: value.messages as unknown as ChatMessage[] }) };
  return { sha256: sha256(JSON.stringify(value)) };
}

function hashInputs(record: Json, fields: readonly string[]): void {
  for (const field of fields) if (Object.hasOwn(record, field)) record[field] = hashedInput(record[field]);
}

/** `summary.baseline.flips` / `baseline.flips` of the file: what it was compared with, both sides. */
function hashFlips(comparison: unknown): void {
  if (!isObject(comparison) || !isObject(comparison.flips)) return;
  for (const sides of Object.values(comparison.flips)) {
    if (!isObject(sides)) continue;
    for (const list of [sides.worse, sides.better]) if (Array.isArray(list)) for (const flip of list) if (isObject(flip)) hashFields(flip, ['baseline', 'current']);
  }
}

const MULTILOKO_NOT_SUBSETS = new Set(['group_metrics', 'summary', 'lokal']);
const MULTILOKO_TEXTS = ['question', 'prediction', 'raw_prediction', 'rawPrediction', 'answer'];

function redactMultiLoKo(results: MultiLoKoResultsJson): void {
  for (const [key, entry] of Object.entries(results)) {
    if (MULTILOKO_NOT_SUBSETS.has(key) || !isObject(entry)) continue;
    for (const record of Object.values(entry)) {
      if (!isObject(record)) continue;
      hashFields(record, MULTILOKO_TEXTS);
      if (Object.hasOwn(record, 'targets')) record.targets = Array.isArray(record.targets) ? record.targets.map(hashed) : hashed(record.targets);
      hashInputs(record, ['model_input', 'prompt']);
    }
  }
  const texts = isObject(results.lokal) ? results.lokal.items : undefined;
  if (isObject(texts)) for (const subset of Object.values(texts)) if (isObject(subset)) for (const item of Object.values(subset)) if (isObject(item)) hashFields(item, Object.keys(item));
  hashFlips(results.summary?.baseline);
}

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
      }
      if (isObject(generation)) {
        hashFields(generation, ['response']);
        hashInputs(generation, ['modelInput']);
      }
    }
  }
  hashFlips((results as Json).baseline);
}

/**
 * A baseline's results as a redacted run may show them: MultiLoKo's and Kalahi's texts hashed; results in the groups
 * layout are left out (the report compares only MultiLoKo and Kalahi with a baseline).
 */
export function redactedBaseline(baseline: RunResults): RunResults {
  const out: RunResults = {};
  if (baseline.multiloko) redactMultiLoKo((out.multiloko = structuredClone(baseline.multiloko)));
  if (baseline.kalahi) redactKalahi((out.kalahi = structuredClone(baseline.kalahi)));
  return out;
}
