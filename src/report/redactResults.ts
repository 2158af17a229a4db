// With redaction on, the baseline run a report compares with (LOKAL_BASELINE) is published beside the run: its texts
// are hashed as the run's own are (src/core/redact.ts), so an unredacted baseline's questions, targets and answers
// never reach the report or the step summary. A redacted baseline's hashes stay as they are, so equal texts still match.
// Each section redacts its own results (ReportSection.redact) with the helpers here.
import { redactedOnce } from '../core/redact.ts';
import { sha256 } from '../core/sha256.ts';
import { modelInputSha256 } from '../models/recordedInput.ts';
import type { ChatMessage } from '../models/types.ts';
import type { ReportSection } from './section.ts';
import type { RunResults } from './types.ts';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A recorded text hashed; a value of another kind (an odd file) hashed as its JSON, so nothing is shown as it is. */
export function hashed(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  return redactedOnce(typeof value === 'string' ? value : JSON.stringify(value));
}

/** Each of the record's `fields` it has, hashed in place. */
export function hashFields(record: Json, fields: readonly string[]): void {
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

/** Each of the record's `fields` it has, a recorded model input, hashed in place as LOKAL_RECORD_PROMPTS=hash records it. */
export function hashInputs(record: Json, fields: readonly string[]): void {
  for (const field of fields) if (Object.hasOwn(record, field)) record[field] = hashedInput(record[field]);
}

/** `summary.baseline.flips` / `baseline.flips` of the file: what it was compared with, both sides. */
export function hashFlips(comparison: unknown): void {
  if (!isObject(comparison) || !isObject(comparison.flips)) return;
  for (const sides of Object.values(comparison.flips)) {
    if (!isObject(sides)) continue;
    for (const list of [sides.worse, sides.better]) if (Array.isArray(list)) for (const flip of list) if (isObject(flip)) hashFields(flip, ['baseline', 'current']);
  }
}

/**
 * A baseline's results as a redacted run may show them: each section's texts hashed by its own `redact`; results in the
 * groups layout are left out (the report compares only the sections' results with a baseline).
 */
export function redactedBaseline(baseline: RunResults, sections: readonly ReportSection[]): RunResults {
  const benchmarks: Record<string, object> = {};
  for (const section of sections) {
    const results = baseline.benchmarks?.[section.name];
    if (results === undefined) continue;
    const copy = structuredClone(results);
    section.redact(copy);
    benchmarks[section.name] = copy;
  }
  return Object.keys(benchmarks).length > 0 ? { benchmarks } : {};
}
