// What makes two runs comparable, recorded in every results file: the data, the prompt, answer extraction, the scorer,
// decoding and protocol (a difference changes the scores: the baseline gate and `lokal compare` refuse it unless
// LOKAL_BASELINE_ALLOW accepts it), and the model's identity (what the comparison is for: reported, never refused).
import { z } from 'zod';
import type { GateOutcome } from './gates.ts';

/** A field's value: a scalar, or named parts (data files by subset, decoding settings, …). null: not known for this run. */
const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const Parts = z.record(z.string(), Scalar);
const FieldValue = z.union([Scalar, Parts]);

/** The fields that change scores, in the order differences are named. */
export const SCORE_FIELDS = ['data', 'prompt', 'template', 'shots', 'fewshot', 'extraction', 'scorer', 'decoding', 'protocol'] as const;
type ScoreField = (typeof SCORE_FIELDS)[number];

const FingerprintSchema = z.looseObject({
  version: z.literal(1),
  benchmark: z.string(),
  /** Data file → SHA-256 (hex) of its bytes; keyed by subset (MultiLoKo) or variant (Kalahi). */
  data: Parts,
  /** Prompt mode (`base`, `chat`, `mixed`); null when no prompt was sent (replayed answers). */
  prompt: Scalar,
  /** Per prompt language, SHA-256 of the templates, answer tokens and demonstrations the prompts were made from. */
  template: FieldValue,
  shots: Scalar,
  fewshot: Scalar,
  extraction: Scalar,
  /** The scoring code's version: changed whenever a score of the same answer would change. */
  scorer: Scalar,
  /** Generation budget, temperature and stops; null for replayed answers. */
  decoding: FieldValue,
  /** The benchmark's protocol (Kalahi: MC protocol, generation budget, chrF variant); null where there is none. */
  protocol: FieldValue,
  /** The model's identity: provider, model, revision, dtype, file SHA-256, server fingerprint. */
  model: Parts,
  /** The runtime's ICU and Unicode versions (runtimeVersions.ts); absent in files written before they were recorded. */
  runtime: Parts.optional(),
});
export type Fingerprint = z.infer<typeof FingerprintSchema>;
type FingerprintField = ScoreField | 'model' | 'runtime';

export { sha256 } from './sha256.ts';

/** A fingerprint that is there but is not one: the field at fault (`summary.fingerprint.shots`) and what is wrong. */
export class FingerprintError extends Error {
  constructor(
    readonly field: string,
    readonly detail: string,
  ) {
    super(`field "${field}": ${detail}`);
    this.name = 'FingerprintError';
  }
}

const SCALAR = 'a string, number, boolean or null';
const PARTS = 'an object of named strings, numbers, booleans or nulls';
/** What each field holds, in words (FingerprintSchema). */
const EXPECTED: Record<string, string> = {
  version: '1 (the fingerprint version this vitest-lokal reads)',
  benchmark: 'a string',
  data: PARTS,
  model: PARTS,
  ...Object.fromEntries(['prompt', 'shots', 'fewshot', 'extraction', 'scorer'].map((f) => [f, SCALAR])),
  ...Object.fromEntries(['template', 'decoding', 'protocol'].map((f) => [f, `${SCALAR}, or ${PARTS}`])),
  runtime: PARTS,
};

/** What a JSON value is, with a short preview of a scalar: `a string ("five")`, `a list`, `nothing`. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value} (${fieldPreview(JSON.stringify(value) ?? String(value), 40)})`;
}

/**
 * The fingerprint at `field` of a results file (`summary.fingerprint`, `lokal.fingerprint`, `fingerprint`): undefined
 * when there is none (absent or null: eval.py's files, older versions); a FingerprintError naming the field when there
 * is one that is malformed — taking it for a missing one would switch the comparability check off for a false reason.
 */
export function parseFingerprint(value: unknown, field: string): Fingerprint | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = FingerprintSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const at = parsed.error.issues[0]!.path.map(String);
  const actual = at.reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), value);
  const expected = at.length === 0 ? `an object of the fingerprint's fields (${Object.keys(EXPECTED).join(', ')})` : at.length === 1 ? EXPECTED[at[0]!]! : SCALAR;
  throw new FingerprintError([field, ...at.map((key) => fieldPreview(key))].join('.'), `is ${kindOf(actual)}; expected ${expected}`);
}

/** One differing field: its name (with the part, e.g. `data.italian`), and both values as shown. */
interface FingerprintDifference {
  field: FingerprintField;
  part?: string;
  baseline: string;
  current: string;
}

export interface Comparability {
  /** Score-changing differences not accepted by the allow list: the comparison is refused. */
  refused: FingerprintDifference[];
  /** Score-changing differences the allow list accepts. */
  allowed: FingerprintDifference[];
  /** Model differences: what a comparison is for. */
  model: FingerprintDifference[];
  /** Runtime differences (ICU, Unicode): a note, never refused, since f1 and EM depend on neither. */
  runtime: FingerprintDifference[];
  /** Fields one run does not know (an older file, a replay): not compared. */
  unknown: string[];
  /** Whether the baseline carried a fingerprint at all. */
  checked: boolean;
}

/** Longest value shown whole in a difference, a gate line or the report; a longer one is cut to a preview. */
const FIELD_PREVIEW_CHARACTERS = 60;

/**
 * `text` when short, else its first FIELD_PREVIEW_CHARACTERS characters and its length (`abc… (20971520 characters)`): a
 * results file is not trusted text, and a 20 MiB field would otherwise be copied whole into every line naming it.
 */
export function fieldPreview(text: string, max = FIELD_PREVIEW_CHARACTERS): string {
  if (text.length <= max) return text;
  // A cut between a surrogate pair's halves would leave half a character.
  const high = text.charCodeAt(max - 1);
  const end = high >= 0xd800 && high <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

const shown = (v: z.infer<typeof Scalar>): string => (typeof v === 'string' && /^[0-9a-f]{64}$/u.test(v) ? v.slice(0, 8) : fieldPreview(String(v)));

function differences(field: FingerprintField, current: z.infer<typeof FieldValue> | undefined, baseline: z.infer<typeof FieldValue> | undefined, unknown: string[]): FingerprintDifference[] {
  if (current === undefined || current === null || baseline === undefined || baseline === null) {
    if (current !== baseline) unknown.push(field);
    return [];
  }
  const isParts = (v: unknown): v is Record<string, z.infer<typeof Scalar>> => typeof v === 'object' && v !== null;
  if (isParts(current) && isParts(baseline)) {
    // Parts held by one run only (a subset one run did not select) are not a difference: pairing leaves them out.
    return Object.keys(current)
      .filter((part) => part in baseline && current[part] !== null && baseline[part] !== null && current[part] !== baseline[part])
      .map((part) => ({ field, part, baseline: shown(baseline[part]!), current: shown(current[part]!) }));
  }
  if (isParts(current) || isParts(baseline)) return [{ field, baseline: fieldPreview(JSON.stringify(baseline)), current: fieldPreview(JSON.stringify(current)) }];
  return current === baseline ? [] : [{ field, baseline: shown(baseline), current: shown(current) }];
}

/**
 * Parts of the model's identity that change scores like a score field: `numerics` (a quantised model run one prompt
 * at a time or batched gives different answers, src/models/graphNumerics.ts). Accepted as `model.numerics`.
 */
export const SCORE_MODEL_PARTS = ['model.numerics'] as const;
const scoreModelPart = (d: FingerprintDifference) => d.field === 'model' && (SCORE_MODEL_PARTS as readonly string[]).includes(`model.${d.part}`);

/** What differs between a run and its baseline; `allow` names score fields accepted (LOKAL_BASELINE_ALLOW). */
export function compareFingerprints(current: Fingerprint | undefined, baseline: Fingerprint | undefined, allow: readonly string[] = []): Comparability {
  if (!current || !baseline) return { refused: [], allowed: [], model: [], runtime: [], unknown: [], checked: false };
  const unknown: string[] = [];
  const model = differences('model', current.model, baseline.model, unknown);
  const score = [...SCORE_FIELDS.flatMap((f) => differences(f, current[f], baseline[f], unknown)), ...model.filter(scoreModelPart)];
  const accepted = (d: FingerprintDifference) =>
    (d.field !== 'model' && allow.includes(d.field)) || (d.part !== undefined && allow.includes(`${d.field}.${d.part}`));
  return {
    refused: score.filter((d) => !accepted(d)),
    allowed: score.filter(accepted),
    model: model.filter((d) => !scoreModelPart(d)),
    // A file from before the runtime was recorded has none: nothing to note (not an unknown field either).
    runtime: current.runtime && baseline.runtime ? differences('runtime', current.runtime, baseline.runtime, []) : [],
    unknown,
    checked: true,
  };
}

/** `prompt base→chat`, `data.italian 1a2b3c4d→5e6f7a8b`. */
export function differenceText(d: FingerprintDifference): string {
  return `${d.part === undefined ? d.field : `${d.field}.${fieldPreview(d.part)}`} ${d.baseline}→${d.current}`;
}

/** The one line naming every refused difference: `not comparable: prompt base→chat; shots 5→0 (…)`. */
export function notComparableLine(c: Comparability, direction = 'baseline→this run', accept = (fields: string) => `LOKAL_BASELINE_ALLOW=${fields}`): string | undefined {
  if (c.refused.length === 0) return undefined;
  const fields = [...new Set(c.refused.map((d) => (d.field === 'model' ? `model.${d.part}` : d.field)))].join(',');
  return `not comparable: ${c.refused.map(differenceText).join('; ')} (${direction}; ${accept(fields)} accepts it)`;
}

/** Lines for the roll-up beside the gates (a refusal is a gate outcome): what was accepted, how the models differ. */
export function comparabilityLines(c: Comparability, baselineFile: string): string[] {
  if (!c.checked) return [`comparability not checked: ${baselineFile} carries no fingerprint (written by an older version, eval.py or lokal score)`];
  const lines: string[] = [];
  if (c.allowed.length) lines.push(`accepted differences (LOKAL_BASELINE_ALLOW): ${c.allowed.map(differenceText).join('; ')}`);
  if (c.model.length) lines.push(`models differ (reported, not refused): ${c.model.map(differenceText).join('; ')}`);
  const note = runtimeNote(c);
  if (note) lines.push(note);
  if (c.unknown.length) lines.push(`not known in one of the runs, not compared: ${[...new Set(c.unknown)].join(', ')}`);
  return lines;
}

/**
 * The note on a runtime difference: `runtime differs (a note, not refused: …): runtime.icu 74.2→78.2`. f1_words follows
 * ICU's word segmentation and the error categories' script rule the Unicode version; f1 and EM depend on neither.
 */
export function runtimeNote(c: Comparability): string | undefined {
  if (c.runtime.length === 0) return undefined;
  return `runtime differs (a note, not refused: f1_words follows ICU's word segmentation, the script rule the Unicode version; f1 and EM depend on neither): ${c.runtime.map(differenceText).join('; ')}`;
}

/** What results files keep of the check. */
export function comparabilityJson(c: Comparability) {
  return {
    checked: c.checked,
    comparable: c.refused.length === 0,
    refused: c.refused.map(differenceText),
    allowed: c.allowed.map(differenceText),
    model: c.model.map(differenceText),
    // Only when the runtimes differ, so files of runs on the same runtime keep their shape.
    ...(c.runtime.length ? { runtime: c.runtime.map(differenceText) } : {}),
    unknown: [...new Set(c.unknown)],
  };
}
export type ComparabilityJson = ReturnType<typeof comparabilityJson>;

/**
 * The baseline's comparability as a gate outcome: fails with the not-comparable line when a score-changing field
 * differs (value: the number of refused differences, which must be 0); undefined when nothing was refused.
 */
export function comparabilityOutcome(c: Comparability, baselineFile: string): GateOutcome | undefined {
  const line = notComparableLine(c);
  if (line === undefined) return undefined;
  return { gate: 'comparable', figure: 'fingerprint vs baseline', value: c.refused.length, op: '<=', bound: 0, pass: false, message: `${line}; baseline ${baselineFile}` };
}
