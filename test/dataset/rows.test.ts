// Dataset benchmarks' inputs: rows from JSONL, CSV and folders with errors that name the file, the line and the field;
// the options checked at definition; prompts rendered from templates with few-shot rows; answers scored by name.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { defineDatasetBenchmark } from '../../src/index.ts';
import { renderPrompt, templateSlots } from '../../src/benchmarks/dataset/prompt.ts';
import { readDataset, type RowFields } from '../../src/benchmarks/dataset/rows.ts';
import { scoreAnswer } from '../../src/benchmarks/dataset/scoring.ts';
import { datasetGates } from '../../src/benchmarks/dataset/gates.ts';
import { parseClause } from '../../src/core/gates.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-dataset-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIELDS: RowFields = { id: 'id', targets: 'answers', groupBy: 'topic', slots: ['question'] };

function file(name: string, text: string): string {
  const target = path.join(dir, name);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, text);
  return target;
}

const errorOf = async (promise: Promise<unknown>) => promise.then(() => undefined, (error: Error) => error.message);

describe('rows', () => {
  test('JSONL and CSV rows, a string target as a list of one, a CSV cell split by the separator, a folder in name order', async () => {
    const folder = path.join(dir, 'both');
    file('both/b.csv', 'id,topic,question,answers\nc1,geo,"Capital of\nItaly?",Rome|Roma\n');
    file('both/a.jsonl', '{"id": 1, "topic": "geo", "question": "Capital of France?", "answers": "Paris"}\n\n{"id": "x", "topic": 7, "question": 3, "answers": ["a", "b"]}\n');
    file('both/notes.txt', 'not data');
    const items = await readDataset(folder, { ...FIELDS, separator: '|' });
    expect(items.map((i) => [i.id, i.group, i.targets, path.basename(i.file), i.line])).toEqual([
      [1, 'geo', ['Paris'], 'a.jsonl', 1],
      ['x', '7', ['a', 'b'], 'a.jsonl', 3],
      ['c1', 'geo', ['Rome', 'Roma'], 'b.csv', 2],
    ]);
  });

  test('a missing or empty field, a repeated id, a missing CSV column and malformed JSON name file, line and field', async () => {
    const missing = file('missing.jsonl', '{"id": 1, "topic": "a", "question": "q", "answers": ["x"]}\n{"id": 2, "topic": "a", "question": "q"}\n');
    expect(await errorOf(readDataset(missing, FIELDS))).toBe(`${missing}:2 field "answers": missing`);
    const empty = file('empty.jsonl', '{"id": 1, "topic": "a", "question": "q", "answers": []}\n');
    expect(await errorOf(readDataset(empty, FIELDS))).toBe(`${empty}:1 field "answers": no accepted answer (expected a string or a non-empty list of strings)`);
    const typed = file('typed.jsonl', '{"id": 1.5, "topic": "a", "question": "q", "answers": "x"}\n');
    expect(await errorOf(readDataset(typed, FIELDS))).toBe(`${typed}:1 field "id": expected a string or an integer`);
    const huge = file('huge.jsonl', '{"id": 9007199254740993, "topic": "a", "question": "q", "answers": "x"}\n');
    expect(await errorOf(readDataset(huge, FIELDS))).toBe(`${huge}:1 field "id": integer id 9007199254740992 is larger than 2^53 and cannot be represented exactly; write it as a string`);
    const number = file('number.jsonl', '{"id": 1, "topic": "a", "question": "q", "answers": 5}\n');
    expect(await errorOf(readDataset(number, FIELDS))).toBe(`${number}:1 field "answers": expected a string or a list of strings`);
    const slot = file('slot.jsonl', '{"id": 1, "topic": "a", "answers": "x"}\n');
    expect(await errorOf(readDataset(slot, FIELDS))).toBe(`${slot}:1 field "question": missing`);
    const twice = file('twice.jsonl', '{"id": 1, "topic": "a", "question": "q", "answers": "x"}\n{"id": "1", "topic": "b", "question": "q", "answers": "y"}\n');
    expect(await errorOf(readDataset(twice, FIELDS))).toBe(`${twice}:2 field "id": id "1" is used twice (first at ${twice}:1); replay files and baselines pair items by it`);
    const column = file('column.csv', 'id,topic,question\n1,a,q\n');
    expect(await errorOf(readDataset(column, FIELDS))).toBe(`${column}:1 field "answers": missing column (header: "id", "topic", "question")`);
    const csvEmpty = file('csvempty.csv', 'id,topic,question,answers\n1,a,q,x\n2,,q,y\n');
    expect(await errorOf(readDataset(csvEmpty, FIELDS))).toBe(`${csvEmpty}:3 field "topic": an empty group`);
    const broken = file('broken.jsonl', '{"id": 1,\n');
    expect(await errorOf(readDataset(broken, FIELDS))).toMatch(new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}:1: malformed JSON`, 'u'));
    expect(await errorOf(readDataset(path.join(dir, 'absent.jsonl'), FIELDS))).toBe(`${path.join(dir, 'absent.jsonl')}: does not exist`);
  });
});

describe('options', () => {
  const base = { name: 'qa', data: 'qa.jsonl', prompt: 'Q: {question}\nA:', targets: 'answers', metrics: ['em'] as const };

  test('a mistake fails the definition, naming the option', () => {
    expect(() => defineDatasetBenchmark({ ...base, metrics: ['em', 'rouge' as 'em'] })).toThrow(/^defineDatasetBenchmark\("qa"\) option "metrics\.1": Invalid option: expected one of "em"\|"f1"\|"chrf"\|"bleu"\|"edit_similarity"/u);
    expect(() => defineDatasetBenchmark({ ...base, name: 'My QA' })).toThrow('defineDatasetBenchmark("My QA") option "name": a lower-case name');
    expect(() => defineDatasetBenchmark({ ...base, name: 'kalahi' })).toThrow('option "name": "kalahi" is taken');
    expect(() => defineDatasetBenchmark({ ...base, name: 'limit' })).toThrow('option "name": "limit" is taken');
    expect(() => defineDatasetBenchmark({ ...base, prompt: 'Q: {question\nA:' })).toThrow('option "prompt": prompt template "Q: {question\\nA:": an unmatched brace');
    expect(() => defineDatasetBenchmark({ ...base, metrics: [] })).toThrow('option "metrics"');
  });

  test('a gate must name a metric of the benchmark, a known group, and a bound on its scale', () => {
    const gates = (text: string) => datasetGates([parseClause(text, ['qa'], '')], 'qa', ['em', 'chrf'], ['Europe', 'asia']);
    expect(gates('qa.europe.em>=0.5')[0]).toMatchObject({ metric: 'em', group: 'europe' });
    expect(gates('qa.chrf>=45')[0]).toMatchObject({ metric: 'chrf', group: undefined });
    expect(() => gates('qa.emm>=0.5')).toThrow('qa measures em, chrf; did you mean "em"?');
    expect(() => gates('qa.africa.em>=0.5')).toThrow('"africa" is not a group of qa; did you mean "asia"?');
    expect(() => gates('qa.em>=50')).toThrow('EM is on a 0–1 scale, 50 is out of range');
  });
});

describe('prompts', () => {
  test('slots, literal braces, few-shot rows for completion and chat', () => {
    expect(templateSlots('{q} and {{x}} then {q} {ctx}')).toEqual(['q', 'ctx']);
    const shots = [{ row: { q: 'Germany?' }, answer: 'Berlin' }];
    const completion = renderPrompt({ prompt: 'Q: {q} {{json}}\nA:', chat: false, system: undefined, shots, shotSeparator: '\n\n' }, { q: 'Italy?' });
    expect(completion).toEqual({ prompt: 'Q: Germany? {json}\nA: Berlin\n\nQ: Italy? {json}\nA:' });
    const chat = renderPrompt({ prompt: 'Q: {q}', chat: true, system: 'Answer briefly.', shots, shotSeparator: '\n\n' }, { q: 'Italy?' });
    expect(chat).toEqual({
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'Q: Germany?' },
        { role: 'assistant', content: 'Berlin' },
        { role: 'user', content: 'Q: Italy?' },
      ],
    });
    const fn = renderPrompt({ prompt: (row) => [{ role: 'user', content: `Capital of ${String(row.q)}` }], chat: false, system: undefined, shots: [], shotSeparator: '' }, { q: 'Italy' });
    expect(fn).toEqual({ messages: [{ role: 'user', content: 'Capital of Italy' }] });
  });
});

describe('scoring', () => {
  test("MultiLoKo's normalisation or none; the named metrics only", () => {
    // normalize_answer: lower case, punctuation and English articles removed: "The Rome." → "rome".
    expect(scoreAnswer(' The Rome. ', ['Rome'], ['em', 'f1'], 'multiloko')).toEqual({ prediction: 'rome', targets: ['rome'], scores: { em: 1, f1: 1 }, error: 'correct' });
    // Unnormalised, "Rome" is inside "The Rome.": verbose.
    expect(scoreAnswer(' The Rome. ', ['Rome'], ['em'], 'none')).toEqual({ prediction: 'The Rome.', targets: ['Rome'], scores: { em: 0 }, error: 'verbose' });
    // Token F1 by hand: "new york city" against "york": precision 1/3, recall 1, F1 = 2·(1/3)/(4/3) = 0.5.
    expect(scoreAnswer('New York City', ['York'], ['f1'], 'multiloko').scores.f1).toBe(0.5);
    // Edit similarity: difflib's ratio 2·M/T; "roma" vs "rome": 3 matching of 8 characters → 0.75.
    expect(scoreAnswer('Roma', ['Rome'], ['edit_similarity'], 'multiloko').scores.edit_similarity).toBe(0.75);
    // The category needs edit similarity even when it is not named: 0.75 ≥ 0.7, near.
    expect(scoreAnswer('Roma', ['Rome'], ['em'], 'multiloko').error).toBe('near');
  });
});
