// Dataset, predictions and replies files: only regular files are read (a FIFO or /dev/zero is refused before a byte
// is read), every file has a size limit with a clear error, predictions are read line by line, an empty file says so,
// a wrong type names the field and the type found, and ids above 2^53 are refused.
import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DataError } from '../../src/data/index.ts';
import { loadKalahi, readKalahiResponses } from '../../src/benchmarks/kalahi/index.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/index.ts';
import { decodeUtf8 } from '../../src/data/jsonl.ts';
import { parsePredictionsJsonl, readPredictions } from '../../src/models/predictions.ts';
import { parsePredictionsCsv } from '../../src/models/predictionsCsv.ts';
import { parseKalahiCsv, parseKalahiResponsesJsonl } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { removeDir, tempDir } from './helpers.ts';

const KALAHI_HEADER = 'prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers';
const hasMkfifo = (() => {
  try {
    execFileSync('mkfifo', ['--version'], { stdio: 'ignore' });
    return process.platform !== 'win32';
  } catch {
    return false;
  }
})();
const hasDevZero = process.platform === 'linux';

let work: string;
let n = 0;
beforeAll(async () => {
  work = await tempDir('lokal-files-');
});
afterAll(async () => {
  await removeDir(work);
});

async function write(name: string, content: string | Uint8Array): Promise<string> {
  const dir = path.join(work, `f${n++}`);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

function fifo(name: string): string {
  const dir = path.join(work, `fifo${n++}`);
  execFileSync('mkdir', ['-p', dir]);
  const file = path.join(dir, name);
  execFileSync('mkfifo', [file]);
  return file;
}

async function errorOf(run: () => unknown): Promise<DataError> {
  let error: unknown;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DataError);
  return error as DataError;
}

const row = (prediction: unknown, id: unknown = '1') => `{"language":"italian","id":${JSON.stringify(id)},"prediction":${JSON.stringify(prediction)}}`;

describe('only regular files are read', () => {
  test.skipIf(!hasMkfifo)('a FIFO as predictions, replies, Kalahi CSV or dataset file is refused at once', { timeout: 10_000 }, async () => {
    const predictions = fifo('p.jsonl');
    const e1 = await errorOf(() => readPredictions(predictions));
    expect(e1.code).toBe('not-regular-file');
    expect(e1.message).toBe(`${predictions}: cannot read predictions file: it is a FIFO (named pipe); only regular files are read`);
    expect((await errorOf(() => readPredictions(fifo('p.csv')))).code).toBe('not-regular-file');
    expect((await errorOf(() => readKalahiResponses(fifo('r.jsonl')))).code).toBe('not-regular-file');
    expect((await errorOf(() => loadKalahi(fifo('filipino.csv')))).code).toBe('not-regular-file');
    const root = path.join(work, `tree${n++}`, 'benchmark_data');
    await mkdir(path.join(root, 'italian'), { recursive: true });
    execFileSync('mkfifo', [path.join(root, 'italian', 'dev.jsonl')]);
    const e2 = await errorOf(() => loadMultiLoKo(root, 'dev', { env: {} }));
    expect(e2.message).toMatch(/italian\/dev\.jsonl: cannot read the dataset file: it is a FIFO/);
  });

  test.skipIf(!hasDevZero)('a symlink to /dev/zero is refused without reading it', { timeout: 10_000 }, async () => {
    const dir = path.join(work, `zero${n++}`);
    await mkdir(dir);
    const link = path.join(dir, 'p.jsonl');
    await symlink('/dev/zero', link);
    const error = await errorOf(() => readPredictions(link));
    expect(error.message).toBe(`${link}: cannot read predictions file: it is a character device; only regular files are read`);
    const csv = path.join(dir, 'filipino.csv');
    await symlink('/dev/zero', csv);
    expect((await errorOf(() => loadKalahi(csv))).code).toBe('not-regular-file');
  });

  test('a folder where a file is expected names the path and EISDIR', async () => {
    const dir = path.join(work, `dir${n++}.jsonl`);
    await mkdir(dir);
    const error = await errorOf(() => readPredictions(dir));
    expect(error.message).toBe(`${dir}: cannot read predictions file: it is a folder (EISDIR); only regular files are read`);
    expect((await errorOf(() => readKalahiResponses(dir))).message).toContain(`${dir}: cannot read the responses file: it is a folder (EISDIR)`);
  });
});

describe('size limits', () => {
  test('predictions and replies over maxStreamBytes', async () => {
    const file = await write('p.jsonl', `${row('Roma')}\n`.repeat(20));
    const error = await errorOf(() => readPredictions(file, { maxStreamBytes: 100 }));
    expect(error.code).toBe('too-large');
    expect(error.message).toMatch(/the file is \d+ bytes, more than the limit of 100 bytes \(raise it with the maxStreamBytes option\)/);
    expect((await readPredictions(file, { maxStreamBytes: 10_000 })).length).toBe(20);
    const replies = await write('r.jsonl', '{"prompt_variation_id":"1","response":"Oo."}\n'.repeat(20));
    expect((await errorOf(() => readKalahiResponses(replies, { maxStreamBytes: 50 }))).code).toBe('too-large');
  });

  test('dataset files and Kalahi CSVs over maxFileBytes', async () => {
    const root = path.join(work, `tree${n++}`, 'benchmark_data');
    await mkdir(path.join(root, 'italian'), { recursive: true });
    await writeFile(path.join(root, 'italian', 'dev.jsonl'), `${JSON.stringify({ id: 'q1', targets: ['A'], text: 'x'.repeat(500) })}\n`);
    const error = await errorOf(() => loadMultiLoKo(root, 'dev', { env: {}, maxFileBytes: 100 }));
    expect(error.code).toBe('too-large');
    expect(error.message).toContain('italian/dev.jsonl: the file is');
    expect(error.message).toContain('(raise it with the maxFileBytes option)');
    const csv = await write('filipino.csv', `${KALAHI_HEADER}\n1,1,ethics,t,P,A,A,C\n`);
    expect((await errorOf(() => loadKalahi(csv, undefined, { maxFileBytes: 20 }))).code).toBe('too-large');
  });
});

describe('predictions are read line by line', () => {
  test('chunk boundaries inside CRLF, multi-byte characters and a BOM change nothing', async () => {
    const text = `\uFEFF${row('Roma ✓')}\r\n\r\n${row('😀 città', 7)}\r${row('x\u2028y', 'é')}\n   \n${row('last')}`;
    const file = await write('p.jsonl', text);
    const whole = parsePredictionsJsonl(decodeUtf8(Buffer.from(text), file), file);
    expect(whole.map((r) => r.line)).toEqual([1, 3, 4, 6]);
    for (const chunkBytes of [1, 2, 3, 5, 7, 64]) expect(await readPredictions(file, { chunkBytes })).toEqual(whole);
    const csvText = `\uFEFFlanguage,id,prediction\r\nitalian,1,"a\r\nb ✓"\r\nitalian,2,😀\r\n`;
    const csv = await write('p.csv', csvText);
    const wholeCsv = parsePredictionsCsv(decodeUtf8(Buffer.from(csvText), csv), csv);
    for (const chunkBytes of [1, 3, 7, 64]) expect(await readPredictions(csv, { chunkBytes })).toEqual(wholeCsv);
  });

  test('invalid UTF-8 split across chunks is still an error naming the file', async () => {
    const file = await write('p.jsonl', Buffer.concat([Buffer.from(`${row('ok')}\n{"language":"italian","id":"2","prediction":"R`), Buffer.from([0xc3]), Buffer.from('"}\n')]));
    for (const chunkBytes of [1, 4, 1024]) {
      const error = await errorOf(() => readPredictions(file, { chunkBytes }));
      expect(error.message).toBe(`${file}: is not valid UTF-8 text`);
    }
  });

  // A valid file over 512 MiB (V8's longest string) must load: run with LARGE_FILE_TESTS=1 (writes 520 MiB to tmp).
  test.skipIf(!process.env.LARGE_FILE_TESTS)('a valid 520 MiB predictions file loads (skipped without LARGE_FILE_TESTS=1; .ci/run sets it)', { timeout: 300_000 }, async () => {
    const { open } = await import('node:fs/promises');
    const file = path.join(work, 'big.jsonl');
    const handle = await open(file, 'w');
    const padding = ' '.repeat(2 ** 20 - 100);
    for (let i = 0; i < 520; i++) await handle.write(`${row(`answer ${i}`, i)}${padding}\n`);
    await handle.close();
    const rows = await readPredictions(file);
    expect(rows.length).toBe(520);
    expect(rows[519]).toEqual({ language: 'italian', id: 519, prediction: 'answer 519', line: 520 });
  });
});

describe('one clear line for a bad file', () => {
  test('an empty or header-only predictions file names the file and says it is empty', async () => {
    for (const [name, content] of [['p.jsonl', ''], ['p.jsonl', '\n \r\n'], ['p.csv', ''], ['p.csv', 'language,id,prediction\n']] as const) {
      const file = await write(name, content);
      const error = await errorOf(() => readPredictions(file));
      expect(error.code).toBe('empty');
      expect(error.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: is empty: no prediction rows`));
    }
    const replies = await write('r.jsonl', '\n');
    expect((await errorOf(() => readKalahiResponses(replies))).message).toMatch(/r\.jsonl: is empty: no responses/);
    expect((await errorOf(() => parseKalahiResponsesJsonl('', 'r.jsonl'))).code).toBe('empty');
  });

  test('a header-only Kalahi CSV says it is empty', async () => {
    const error = await errorOf(() => parseKalahiCsv(`${KALAHI_HEADER}\n`, 'k/filipino.csv'));
    expect(error.message).toBe('k/filipino.csv: is empty: it has a header row but no prompt rows');
  });

  test('wrong types name the field, the type expected and the type found', async () => {
    const cases: Array<[string, string]> = [
      [row(null), 'p.jsonl:1 field "prediction": expected a string, got null'],
      [row(3), 'p.jsonl:1 field "prediction": expected a string, got a number (3)'],
      [row(['a']), 'p.jsonl:1 field "prediction": expected a string, got a list of 1'],
      [row('x', null), 'p.jsonl:1 field "id": expected a non-empty string or a number, got null'],
      [row('x', {}), 'p.jsonl:1 field "id": expected a non-empty string or a number, got an object'],
      ['{"language":false,"id":"1","prediction":"x"}', 'p.jsonl:1 field "language": expected a non-empty string, got a boolean (false)'],
      ['{"language":"italian","id":"1"}', 'p.jsonl:1 field "prediction": is missing (expected {language, id, prediction})'],
      ['["italian","1","x"]', 'p.jsonl:1: expected a JSON object {language, id, prediction}, got a list of 3'],
      ['"just text"', 'p.jsonl:1: expected a JSON object {language, id, prediction}, got a string ("just text")'],
      [`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'p.jsonl:1: expected a JSON object {language, id, prediction}, got a list of 1'],
    ];
    for (const [line, message] of cases) expect((await errorOf(() => parsePredictionsJsonl(`${line}\n`, 'p.jsonl'))).message).toBe(message);
    const nested = `{"prompt_variation_id":"1","response":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    expect((await errorOf(() => parseKalahiResponsesJsonl(nested, 'r.jsonl'))).message).toBe('r.jsonl:1 field "response": expected a string, got a list of 1');
    expect((await errorOf(() => parseKalahiResponsesJsonl('{"prompt_variation_id":"1","response":null}', 'r.jsonl'))).message).toBe(
      'r.jsonl:1 field "response": expected a string, got null',
    );
    expect((await errorOf(() => parseKalahiResponsesJsonl('[1,2]', 'r.jsonl'))).message).toBe(
      'r.jsonl:1: expected a JSON object {prompt_variation_id, response}, got a list of 2',
    );
  });

  test('prediction ids that are integers above 2^53 are refused, not rounded onto another item', async () => {
    const text = `${row('a', 9007199254740993)}\n`.replace('9007199254740992', '9007199254740993');
    const error = await errorOf(() => parsePredictionsJsonl(text, 'p.jsonl'));
    expect(error.field).toBe('id');
    expect(error.message).toMatch(/^p\.jsonl:1 field "id": integer id 9007199254740992 is larger than 2\^53 .*write it as a string/);
    expect((await errorOf(() => parsePredictionsJsonl(`${row('a', 1e300)}\n`, 'p.jsonl'))).field).toBe('id');
    expect(parsePredictionsJsonl(`${row('a', 9007199254740991)}\n`, 'p.jsonl')[0]!.id).toBe(9007199254740991);
  });
});
