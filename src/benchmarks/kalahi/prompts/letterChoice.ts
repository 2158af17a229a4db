// Kalahi multiple choice as a lettered question answered in text (LOKAL_KALAHI_MC=letter): SEA-HELM's `kalahi-mc` task
// (aisingapore/SEA-HELM, seahelm_tasks/cultural/kalahi/config.yaml v1.1: the Filipino preamble and task template,
// `Sagot:` as the answer tag, 32 new tokens) and its answer parsing (src/metrics/f1_acc_metric.py and
// seahelm_metric.py: the first `Sagot:` followed by a letter, else the whole reply, normalised, else no answer).
// SEA-HELM reads its options pre-built from the gated aisingapore/Cultural-Evaluation-Kalahi; here they are built from
// the CSV row: the best answer and the first three irrelevant answers, the best answer at a place fixed by its id.
import type { KalahiRow } from '../data/kalahi.ts';
import type { ChatMessage } from '../../../models/types.ts';

/** SEA-HELM's labels for Kalahi (A–D) and its answer tag. */
export const LETTERS = ['A', 'B', 'C', 'D'] as const;
export const ANSWER_TAG = 'Sagot:';
/** SEA-HELM's generation budget for kalahi-mc (`max_tokens: 32`). */
export const LETTER_MAX_NEW_TOKENS = 32;

/** The preamble of SEA-HELM's kalahi-mc prompt with `{answer_tag}` filled in. */
export const LETTER_PREAMBLE = [
  'Piliin ang pinaka-angkop na sagot sa sumusunod na tanong.',
  '',
  'Sumagot gamit ang sumusunod na format.',
  `"${ANSWER_TAG} ANSWER"`,
  'Palitan ang ANSWER gamit ang napiling sagot. Gumamit lang ng letrang A, B, C, o D sa sagot mo.',
].join('\n');

export interface LetterOption {
  letter: string;
  kind: 'relevant' | 'irrelevant';
  /** Position in its list of the row (relevant or irrelevant answers). */
  index: number;
  text: string;
  best: boolean;
}

/** FNV-1a (32 bit) of a string's UTF-16 units: a fixed, platform-independent place for the best answer. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** The lettered options: the best answer at place fnv1a(id) mod n among the first three irrelevant answers (file order). */
export function letterOptions(row: Pick<KalahiRow, 'promptVariationId' | 'relevantAnswers' | 'irrelevantAnswers' | 'bestIndex'>): LetterOption[] {
  const wrong = row.irrelevantAnswers.slice(0, LETTERS.length - 1).map((text, index) => ({ kind: 'irrelevant' as const, index, text, best: false }));
  const best = { kind: 'relevant' as const, index: row.bestIndex, text: row.relevantAnswers[row.bestIndex]!, best: true };
  const place = fnv1a(row.promptVariationId) % (wrong.length + 1);
  const ordered = [...wrong.slice(0, place), best, ...wrong.slice(place)];
  return ordered.map((option, i) => ({ letter: LETTERS[i]!, ...option }));
}

/** SEA-HELM's user turn: preamble, a blank line, then the task template `Tanong:` with the question and options fenced. */
export function letterPrompt(row: Pick<KalahiRow, 'prompt'>, options: readonly LetterOption[]): string {
  const mcq = options.map((o) => `${o.letter}. ${o.text}`).join('\n');
  const task = ['Tanong:', '```', row.prompt, '', mcq, '```'].join('\n');
  return `${LETTER_PREAMBLE}\n\n${task}`.trim();
}

export function letterMessages(row: Pick<KalahiRow, 'prompt'>, options: readonly LetterOption[]): ChatMessage[] {
  return [{ role: 'user', content: letterPrompt(row, options) }];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
/** Python's string.punctuation, stripped from both ends with spaces and newlines (SeaHelmMetric.normalize_answer). */
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const STRIP = new Set([...PUNCTUATION, ' ', '\n']);
/** `<tag>[\s\*]*(A|B|C|D)+`, case-insensitive: the repeated group keeps its last letter, as Python's re does. */
const ANSWER = new RegExp(`${escapeRegExp(ANSWER_TAG)}[\\s\\*]*(?:${LETTERS.join('|')})*(${LETTERS.join('|')})`, 'iu');

function stripEnds(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && STRIP.has(text[start]!)) start++;
  while (end > start && STRIP.has(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/**
 * The letter a reply chose, or null: the first match of the answer pattern, else the whole reply; then stripped,
 * lower-cased, its ends stripped of punctuation, spaces and newlines, whitespace runs joined; a label or nothing.
 */
export function parseLetter(reply: string): string | null {
  const match = ANSWER.exec(reply);
  const output = (match ? match[1]! : reply).trim();
  const normalised = stripEnds(output.toLowerCase()).split(/\s+/u).filter((w) => w !== '').join(' ');
  return LETTERS.find((letter) => letter.toLowerCase() === normalised) ?? null;
}
