// What every benchmark's report section shares in its view of a results file: an item's verdict, the gate outcomes
// as the sections show them, the interval of a figure over items, the prompt as fed, and a recorded field read as
// text or as a finite number.
import { boundedMeanInterval, wilsonInterval, type Interval } from '../core/statistics/index.ts';
import type { GateOutcomeJson } from '../core/resultsFile.ts';

export type Verdict = 'correct' | 'wrong' | 'missing';

export interface GateRow {
  gate: string;
  figure: string;
  value: number | null;
  op: string;
  bound: number | null;
  pass: boolean;
  message: string;
}

/** The prompt as fed, as the report shows it: its text, or only its SHA-256 (LOKAL_RECORD_PROMPTS=hash, redaction). */
export type ItemPrompt = { text: string } | { sha256: string };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A recorded value as text: a string as it is, an object as its JSON, nothing as undefined (a malformed file's fields still show). */
export function recordedText(v: unknown): string | undefined {
  return typeof v === 'string' ? v : v === null || v === undefined ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** A recorded number when it is a finite one, else null. */
export function finiteOrNull(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** A recorded model input (`{text}`, `{messages}` or `{sha256}`) as the report shows it; undefined when none was recorded. */
export function itemPrompt(value: unknown): ItemPrompt | undefined {
  if (typeof value === 'string') return { text: value };
  if (!isObject(value)) return undefined;
  if (typeof value.text === 'string') return { text: value.text };
  if (typeof value.sha256 === 'string') return { sha256: value.sha256 };
  if (Array.isArray(value.messages)) return { text: value.messages.map((m) => (isObject(m) ? `${recordedText(m.role) ?? ''}: ${recordedText(m.content) ?? ''}` : (recordedText(m) ?? ''))).join('\n\n') };
  return undefined;
}

/** Wilson's interval when every score is 0 or 1 (EM always is), else the quasi-Wilson interval of the mean on [0, 1]. */
export function proportionInterval(values: readonly number[], confidence: number): Interval | undefined {
  if (values.length === 0) return undefined;
  if (values.every((v) => v === 0 || v === 1)) return wilsonInterval(values.filter((v) => v === 1).length, values.length, confidence);
  return boundedMeanInterval(values, 1, confidence);
}

/** A results file's gate outcomes as rows (a malformed entry's fields as text, or null where a number is expected). */
export function gateRows(gates: unknown): GateRow[] {
  if (!Array.isArray(gates)) return [];
  return gates.filter(isObject).map((g: GateOutcomeJson) => ({
    gate: recordedText(g.gate) ?? '',
    figure: recordedText(g.figure) ?? '',
    value: finiteOrNull(g.value),
    op: recordedText(g.op) ?? '',
    bound: finiteOrNull(g.bound),
    pass: g.pass === true,
    message: recordedText(g.message) ?? '',
  }));
}
