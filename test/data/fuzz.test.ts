// Property-based fuzzing of every loader with a seeded generator of its own (no dependency): random bytes, random JSON
// values and random CSV rows. Every outcome is a valid result or a DataError with a one-line message; never a
// TypeError, RangeError or any other uncaught exception. The streaming readers must agree with the whole-text parsers
// on every input. Each property runs a fixed number of cases from the fixed seed, so every machine checks the same inputs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DataError } from '../../src/data/errors.ts';
import { decodeUtf8 } from '../../src/data/jsonl.ts';
import { parseFewshotJsonl, parseMultiLoKoJsonl } from '../../src/benchmarks/multiloko/data/jsonl.ts';
import { parsePredictionsJsonl, readPredictions } from '../../src/models/predictions.ts';
import { parsePredictionsCsv } from '../../src/models/predictionsCsv.ts';
import { parseKalahiCsv, parseKalahiResponsesJsonl, readKalahiResponses } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { readCacheFile } from '../../src/models/cache.ts';
import { seededRandom } from '../support/seededRandom.ts';

// FUZZ_SEED / FUZZ_CASES explore further by hand; CI runs the fixed seed and counts within a few seconds.
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_613);
/** Cases per synchronous property; the file-reading properties run a third of it. */
const CASES = Number(process.env.FUZZ_CASES ?? 600);
const dir = mkdtempSync(path.join(tmpdir(), 'lokal-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const random = seededRandom(SEED);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

const FIELDS = ['language', 'id', 'prediction', 'targets', 'question', 'answer', 'target', 'text', 'output_type', 'prompt_variation_id', 'response', 'key', 'kind', 'latencyMs', 'logprob', 'tokenCount', '__proto__', 'constructor', 'toString', ''];
const STRINGS = ['', ' ', 'italian', 'Roma', '0101000100', '1', '007', '\u0000', '\uFEFF', '\ud800', '😀', 'a,b', '"q"', 'x\ny', 'x\r\ny', '\u2028', 'generate', 'score', '{', '[]', 'TRUE', 'false', 'A;B', 'Oo.', ' ; '];
const NUMBERS = [0, -0, 1, -1, 1.5, 2 ** 53 - 1, 2 ** 53 + 2, 1e300, -1e-300, 12345678901234567890, 7];

function randomString(): string {
  if (random() < 0.6) return pick(STRINGS);
  let out = '';
  for (let i = int(12); i > 0; i--) out += String.fromCodePoint(pick([int(128), 0x80 + int(0x780), 0x4e00 + int(100), 0x1f600 + int(50), 0xd800 + int(0x800)]));
  return out;
}

function randomJson(depth: number): unknown {
  const roll = random();
  if (depth <= 0 || roll < 0.45) {
    return pick<() => unknown>([() => null, () => random() < 0.5, () => pick(NUMBERS), randomString])();
  }
  if (roll < 0.7) return Array.from({ length: int(4) }, () => randomJson(depth - 1));
  const object: Record<string, unknown> = {};
  for (let i = int(5); i > 0; i--) object[random() < 0.8 ? pick(FIELDS) : randomString()] = randomJson(depth - 1);
  return object;
}

/** A record with the given fields, each a right-looking value most of the time and a random one otherwise. */
function recordLike(fields: Record<string, () => unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [field, good] of Object.entries(fields)) {
    const roll = random();
    if (roll < 0.1) continue;
    record[field] = roll < 0.75 ? good() : randomJson(2);
  }
  if (random() < 0.2) record[pick(FIELDS)] = randomJson(2);
  return record;
}

const SHAPES: Array<() => Record<string, unknown>> = [
  () => recordLike({ language: () => pick(['italian', 'kalahi', '']), id: () => (random() < 0.5 ? pick(NUMBERS) : randomString()), prediction: randomString }),
  () => recordLike({ id: () => pick(['a', 'b', 1, 2]), targets: () => Array.from({ length: int(3) }, randomString), question: randomString, answer: randomString }),
  () => recordLike({ prompt_variation_id: () => pick(['0101000100', '1', '']), response: randomString }),
  () => recordLike({ key: () => pick(['k1', 'k2']), kind: () => pick(['generate', 'score', 'x']), text: randomString, latencyMs: () => pick(NUMBERS), logprob: () => pick(NUMBERS), tokenCount: () => pick(NUMBERS) }),
];

function jsonLine(): string {
  const roll = random();
  if (roll < 0.05) return '['.repeat(2000 + int(3000)) + ']'.repeat(2000 + int(3000));
  if (roll < 0.1) return `{"prediction":${'['.repeat(3000)}${']'.repeat(3000)}}`;
  const text = JSON.stringify(roll < 0.7 ? pick(SHAPES)() : randomJson(4)) ?? 'null';
  // Sometimes cut short or spliced, as a torn write or a bad edit would leave it.
  if (random() < 0.1) return text.slice(0, int(text.length + 1));
  return text;
}

function jsonlText(): string {
  const lines = Array.from({ length: int(6) }, () => (random() < 0.1 ? pick(['', ' ', '\t']) : jsonLine()));
  return lines.map((line) => line + pick(['\n', '\n', '\r\n', '\r'])).join('') + (random() < 0.3 ? jsonLine() : '');
}

function csvField(): string {
  const value = randomString();
  if (random() < 0.5) return `"${value.replaceAll('"', '""')}"`;
  return random() < 0.8 ? value.replace(/[",\r\n]/g, '') : value;
}

function csvText(columns: readonly string[]): string {
  const header = random() < 0.8 ? [...columns] : Array.from({ length: 1 + int(4) }, () => pick([...columns, 'extra', '']));
  if (random() < 0.2) header.splice(int(header.length), 1);
  const rows = Array.from({ length: int(5) }, () => {
    const width = random() < 0.85 ? header.length : int(header.length + 2);
    return Array.from({ length: width }, (_, i) => (i === 0 && random() < 0.7 ? `${1 + int(3)}` : csvField())).join(',');
  });
  return [header.join(','), ...rows].join(pick(['\n', '\r\n'])) + (random() < 0.5 ? '\n' : '');
}

// Well-formed inputs, a share of the cases: the random generators above rarely build a whole valid file (every line
// of a predictions file right, a Kalahi row whose best answer is among its relevant ones), and accepting is half the
// contract.
const ANSWERS = ['Oo.', 'Hindi.', 'Siguro po.', 'Roma 😀.'];

function wellFormedJsonl(): string {
  const replies = random() < 0.5;
  const lines = Array.from({ length: 1 + int(4) }, (_, i) =>
    JSON.stringify(replies ? { prompt_variation_id: `01010001${i}0`, response: randomString() } : { language: pick(['italian', 'french']), id: i + 1, prediction: randomString() }),
  );
  return lines.map((line) => line + pick(['\n', '\r\n'])).join('');
}

function wellFormedKalahiCsv(): string {
  const base = random() < 0.3;
  const header = ['prompt_variation_id', 'prompt_id', ...(base ? ['base'] : []), 'category', 'topic', 'prompt', 'best_answer', 'relevant_answers', 'irrelevant_answers'];
  const rows = Array.from({ length: 1 + int(4) }, (_, i) => {
    const relevant = ANSWERS.slice(0, 1 + int(ANSWERS.length));
    const cells = [`01010001${i}0`, '01010001', ...(base ? [pick(['TRUE', 'FALSE'])] : []), pick(['ethics', 'social']), 'topic', `"Tanong ${i}, ""quoted""\nline two"`, pick(relevant), relevant.join(';'), pick(ANSWERS)];
    return cells.join(',');
  });
  return [header.join(','), ...rows].join('\n') + '\n';
}

function randomBytes(): Uint8Array {
  const bytes: number[] = [];
  for (let i = int(200); i > 0; i--) {
    const roll = random();
    if (roll < 0.5) bytes.push(...Buffer.from(pick(['{', '}', '[', ']', '"', ',', ':', '\n', '\r', 'language', 'id', '1', ' ', 'null'])));
    else if (roll < 0.8) bytes.push(...Buffer.from(String.fromCodePoint(pick([int(0x80), 0xe0 + int(20), 0x4e00 + int(50)]))));
    else bytes.push(int(256));
  }
  return Uint8Array.from(bytes);
}

/** Runs `parse` on the input: a result, or a DataError with a message on one line. Anything else fails the test. */
function outcome<T>(parse: () => T, input: unknown): { ok: true; value: T } | { ok: false; message: string } {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    if (!(error instanceof DataError)) {
      throw new Error(`not a DataError for input ${JSON.stringify(input)?.slice(0, 300)}: ${String(error)}`, { cause: error });
    }
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.message.length).toBeLessThan(2000);
    expect(error.message).not.toMatch(/[\n\r]/);
    return { ok: false, message: error.message };
  }
}

async function asyncOutcome<T>(parse: () => Promise<T>, input: unknown) {
  try {
    return { ok: true as const, value: await parse() };
  } catch (error) {
    return outcome(() => {
      throw error;
    }, input);
  }
}

/** Outcomes per parser: a generator whose inputs every parser refuses (or accepts) would test half of the contract. */
function tally() {
  const counts = new Map<string, { accepted: number; refused: number }>();
  return {
    add(name: string, result: { ok: boolean }) {
      const c = counts.get(name) ?? { accepted: 0, refused: 0 };
      c[result.ok ? 'accepted' : 'refused']++;
      counts.set(name, c);
    },
    /** Parsers that saw no accepted input or no refused one. */
    oneSided: () => [...counts].filter(([, c]) => c.accepted === 0 || c.refused === 0).map(([name, c]) => `${name} ${c.accepted}/${c.refused}`),
    counts,
  };
}

function forCases(run: () => void, cases = CASES): void {
  for (let i = 0; i < cases; i++) run();
}

async function forCasesAsync(run: () => Promise<void>, cases = Math.ceil(CASES / 3)): Promise<void> {
  for (let i = 0; i < cases; i++) await run();
}

describe(`loaders on random input (seed ${SEED})`, () => {
  test('MultiLoKo question and few-shot JSONL: random bytes and random JSON lines', () => {
    const seen = tally();
    forCases(() => {
      const bytes = random() < 0.4 ? randomBytes() : Buffer.from(jsonlText());
      seen.add('questions', outcome(() => parseMultiLoKoJsonl(bytes, 'm.jsonl'), Buffer.from(bytes).toString('latin1')));
      seen.add('fewshot', outcome(() => parseFewshotJsonl(bytes, 'f.jsonl'), Buffer.from(bytes).toString('latin1')));
    });
    expect(seen.oneSided()).toEqual([]);
  });

  test('predictions JSONL and CSV, Kalahi replies and Kalahi CSV: random text', () => {
    const seen = tally();
    forCases(() => {
      const roll = random();
      const jsonl = roll < 0.2 ? Buffer.from(randomBytes()).toString('utf8') : roll < 0.35 ? wellFormedJsonl() : jsonlText();
      seen.add('predictions jsonl', outcome(() => parsePredictionsJsonl(jsonl, 'p.jsonl'), jsonl));
      seen.add('replies', outcome(() => parseKalahiResponsesJsonl(jsonl, 'r.jsonl'), jsonl));
      const predictionsCsv = csvText(['language', 'id', 'prediction']);
      seen.add('predictions csv', outcome(() => parsePredictionsCsv(predictionsCsv, 'p.csv'), predictionsCsv));
      const kalahiCsv = random() < 0.2 ? wellFormedKalahiCsv() : csvText(['prompt_variation_id', 'prompt_id', 'category', 'topic', 'prompt', 'best_answer', 'relevant_answers', 'irrelevant_answers', ...(random() < 0.3 ? ['base'] : [])]);
      seen.add('kalahi csv', outcome(() => parseKalahiCsv(kalahiCsv, 'filipino.csv'), kalahiCsv));
    });
    expect(seen.oneSided()).toEqual([]);
  });

  test('the streaming readers agree with the whole-text parsers', async () => {
    const seen = tally();
    let file = 0;
    await forCasesAsync(async () => {
      const csv = random() < 0.3;
      const roll = random();
      const bytes = roll < 0.2 ? randomBytes() : Buffer.from(csv ? csvText(['language', 'id', 'prediction']) : roll < 0.4 ? wellFormedJsonl() : jsonlText());
      const name = path.join(dir, `p${file++}.${csv ? 'csv' : 'jsonl'}`);
      writeFileSync(name, bytes);
      const chunkBytes = 1 + int(64);
      const streamed = await asyncOutcome(() => readPredictions(name, { chunkBytes }), bytes.toString());
      const whole = outcome(() => {
        const text = decodeUtf8(bytes, name);
        return csv ? parsePredictionsCsv(text, name) : parsePredictionsJsonl(text, name);
      }, bytes.toString());
      // Both accept (with equal rows) or both refuse; reading record by record may report a different first problem.
      expect(streamed.ok).toBe(whole.ok);
      seen.add(csv ? 'csv' : 'jsonl', whole);
      if (whole.ok) expect(streamed).toEqual(whole);
      if (!csv) {
        // The file reader and the whole-text parser agree: the same rows, or both refuse.
        const replies = await asyncOutcome(() => readKalahiResponses(name), bytes.toString());
        const wholeReplies = outcome(() => parseKalahiResponsesJsonl(decodeUtf8(bytes, name), name), bytes.toString());
        expect(replies.ok).toBe(wholeReplies.ok);
        seen.add('replies', wholeReplies);
        if (wholeReplies.ok) expect(replies).toEqual(wholeReplies);
      }
    });
    // Agreement on refusals alone would hold for readers that refuse everything.
    expect(seen.oneSided()).toEqual([]);
  });

  test('the response cache: random lines and bytes are skipped with warnings, never thrown', () => {
    let file = 0;
    forCases(() => {
      const name = path.join(dir, `c${file++}.jsonl`);
      writeFileSync(name, random() < 0.3 ? randomBytes() : jsonlText());
      const result = outcome(() => readCacheFile(name, () => undefined), name);
      expect(result.ok).toBe(true);
    });
  });
});
