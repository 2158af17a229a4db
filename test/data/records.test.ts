// Record validation: every bad input names the file, the line and the field.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DataError } from '../../src/data/index.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/index.ts';
import { parseFewshotJsonl, parseMultiLoKoJsonl } from '../../src/benchmarks/multiloko/data/jsonl.ts';
import { removeDir, tempDir } from './helpers.ts';

const FILE = 'benchmark_data/italian/dev.jsonl';
const good = (id: string | number, targets: unknown = ['Roma']) => JSON.stringify({ id, question: 'q?', targets });

function errorOf(text: string | Uint8Array, parse: (bytes: Uint8Array, file: string) => unknown = parseMultiLoKoJsonl): DataError {
  try {
    parse(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(DataError);
    return error as DataError;
  }
  throw new Error('expected a DataError');
}

describe('question files', () => {
  test('a valid file parses, keeping JSON types and unknown fields', () => {
    const items = parseMultiLoKoJsonl(Buffer.from(`${good('a')}\n${good(2)}\n{"id":"c","targets":[""],"extra":{"k":1}}\n`), FILE);
    expect(items).toEqual([
      { id: 'a', question: 'q?', targets: ['Roma'] },
      { id: 2, question: 'q?', targets: ['Roma'] },
      { id: 'c', targets: [''], extra: { k: 1 } },
    ]);
  });

  test('CRLF, lone CR, a BOM and blank lines keep line numbers right', () => {
    const text = `\ufeff${good('a')}\r\n\r\n${good('b')}\r${good('a')}\n`;
    const error = errorOf(text);
    // Lines: 1 = a, 2 = blank, 3 = b, 4 = a again.
    expect(error.line).toBe(4);
    expect(error.field).toBe('id');
    expect(error.message).toBe(`${FILE}:4 field "id": duplicate id "a" (first used on line 1)`);
  });

  test('malformed JSON names the line', () => {
    const error = errorOf(`${good('a')}\n{"id": "b", "targets": ["x"]\n`);
    expect(error.code).toBe('invalid-json');
    expect(error.file).toBe(FILE);
    expect(error.line).toBe(2);
    expect(error.field).toBeUndefined();
    expect(error.message.startsWith(`${FILE}:2: malformed JSON:`)).toBe(true);
  });

  test.each([
    ['missing id', { targets: ['x'] }, 'id', 'is required but missing'],
    ['missing targets', { id: 'x' }, 'targets', 'is required but missing'],
    ['id null', { id: null, targets: ['x'] }, 'id', 'must be a string or a number, got null'],
    ['id a list', { id: ['x'], targets: ['x'] }, 'id', 'must be a string or a number, got a list of 1'],
    ['targets a plain string', { id: 'x', targets: 'Roma' }, 'targets', 'must be a list of strings, got a plain string ("Roma")'],
    ['targets empty', { id: 'x', targets: [] }, 'targets', 'must list at least one accepted answer, got an empty list []'],
    ['targets a number', { id: 'x', targets: 5 }, 'targets', 'must be a non-empty list of strings, got a number (5)'],
    ['a non-string target', { id: 'x', targets: ['a', 'b', 3] }, 'targets[2]', 'must be a string, got a number (3)'],
    ['question a number', { id: 'x', targets: ['a'], question: 42 }, 'question', 'must be a string when present, got a number (42)'],
    ['output_type null', { id: 'x', targets: ['a'], output_type: null }, 'output_type', 'must be a string when present, got null'],
    ['text a list', { id: 'x', targets: ['a'], text: [] }, 'text', 'must be a string when present, got an empty list []'],
  ])('%s', (_name, record, field, detail) => {
    const error = errorOf(`${good('first')}\n${good('second')}\n${JSON.stringify(record)}\n`);
    expect(error.code).toBe('invalid-record');
    expect(error.file).toBe(FILE);
    expect(error.line).toBe(3);
    expect(error.field).toBe(field);
    expect(error.message.startsWith(`${FILE}:3 field "${field}": ${detail}`)).toBe(true);
  });

  test('a plain-string targets field says why it is refused', () => {
    const error = errorOf(`${JSON.stringify({ id: 1, targets: 'Roma' })}\n`);
    expect(error.message).toContain('character by character');
    expect(error.message).toContain('["Roma"]');
  });

  test('a line that is not an object', () => {
    const error = errorOf(`${good('a')}\n["a", "b"]\n`);
    expect(error.line).toBe(2);
    expect(error.field).toBeUndefined();
    expect(error.message).toBe(`${FILE}:2: expected a JSON object on this line, got a list of 2`);
  });

  test('duplicate ids: 7 and "7" differ (Python dict keys), 7 twice does not', () => {
    expect(parseMultiLoKoJsonl(Buffer.from(`${good(7)}\n${good('7')}\n`), FILE).map((i) => i.id)).toEqual([7, '7']);
    const error = errorOf(`${good(7)}\n${good('7')}\n${good(7)}\n`);
    expect([error.line, error.field, error.code]).toEqual([3, 'id', 'duplicate-id']);
    expect(error.message).toContain('duplicate id 7 (first used on line 1)');
  });

  test('integer ids beyond 2^53 are refused (they lost digits in JSON.parse)', () => {
    const error = errorOf('{"id": 12345678901234567890, "targets": ["x"]}\n');
    expect([error.line, error.field]).toEqual([1, 'id']);
    expect(error.message).toContain('write it as a string');
  });

  test('invalid UTF-8 names the file', () => {
    const bytes = Buffer.concat([Buffer.from(`${good('a')}\n{"id":"b","targets":["`), Buffer.from([0xc3, 0x28]), Buffer.from('"]}\n')]);
    const error = errorOf(bytes);
    expect(error.code).toBe('invalid-encoding');
    expect(error.message).toBe(`${FILE}: is not valid UTF-8 text`);
  });
});

describe('few-shot files', () => {
  test('question + answer (the official prompt examples shape) or question + targets', () => {
    const items = parseFewshotJsonl(
      Buffer.from(`{"question":"Q1","answer":"A1","output_type":"t"}\n{"id":"x","question":"Q2","targets":["A2"]}\n`),
      FILE,
    );
    expect(items).toEqual([
      { question: 'Q1', answer: 'A1', output_type: 't' },
      { id: 'x', question: 'Q2', targets: ['A2'] },
    ]);
  });

  test('no answer field at all', () => {
    const error = errorOf('{"question":"Q1","answer":"A1"}\n{"question":"Q2"}\n', parseFewshotJsonl);
    expect([error.line, error.field]).toEqual([2, 'targets']);
    expect(error.message).toContain('needs an answer: one of "targets", "answer" or "target"');
  });

  test('missing question, and a plain-string targets', () => {
    const missing = errorOf('{"answer":"A1"}\n', parseFewshotJsonl);
    expect([missing.line, missing.field]).toEqual([1, 'question']);
    expect(missing.message).toContain('is required but missing');
    const plain = errorOf('{"question":"Q","targets":"A"}\n', parseFewshotJsonl);
    expect(plain.field).toBe('targets');
    expect(plain.message).toContain('got a plain string');
  });
});

describe('through loadMultiLoKo, errors name the real file path', () => {
  let root: string;
  beforeAll(async () => {
    root = await tempDir();
  });
  afterAll(async () => {
    await removeDir(root);
  });

  test('a bad record in a translated file', async () => {
    await mkdir(path.join(root, 'french'), { recursive: true });
    await writeFile(path.join(root, 'french', 'dev.jsonl'), `${good('a')}\n`);
    const bad = path.join(root, 'french', 'dev_translated_human_english.jsonl');
    await writeFile(bad, `${good('a')}\n\n${JSON.stringify({ id: 'b', targets: 'Paris' })}\n`);
    const error = (await loadMultiLoKo(root).catch((e: unknown) => e)) as DataError;
    expect(error).toBeInstanceOf(DataError);
    expect([error.file, error.line, error.field]).toEqual([bad, 3, 'targets']);
  });

  test('a bad few-shot file', async () => {
    const dir = path.join(root, 'fewshot-case');
    await mkdir(path.join(dir, 'german'), { recursive: true });
    await writeFile(path.join(dir, 'german', 'dev.jsonl'), `${good('a')}\n`);
    const bad = path.join(dir, 'german', 'knowledge_fewshot.jsonl');
    await writeFile(bad, '{"question":"Q","answer":"A"}\n{"question": 3, "answer":"B"}\n');
    const error = (await loadMultiLoKo(dir).catch((e: unknown) => e)) as DataError;
    expect([error.file, error.line, error.field]).toEqual([bad, 2, 'question']);
  });
});
