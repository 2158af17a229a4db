// Terminal output is safe: dataset ids, questions and replay predictions carrying escape sequences, CR, BEL, C1 and
// bidi overrides reach tables, test names, verdicts and failure messages escaped, never raw.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { alignedColumns, gateSection, markdownTable } from '../../src/core/textTable.ts';
import { terminalLines, terminalSafeError, terminalText } from '../../src/data/terminalText.ts';
import { oneLine, previewText } from '../../src/data/errors.ts';
import { MULTILOKO_EVAL, runVitest, writeDataset, writeJsonl } from '../vitest/helpers.ts';

// What a terminal acts on: C0, DEL, C1, U+2028/2029 and the bidi embeddings, overrides and isolates.
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe('terminalText', () => {
  test('each control character becomes its escape, by hand', () => {
    expect(terminalText('\u001b[31mred\u001b[0m')).toBe('\\u001b[31mred\\u001b[0m');
    expect(terminalText('a\rb\nc\td')).toBe('a\\rb\\nc\\td');
    expect(terminalText('bell\u0007')).toBe('bell\\u0007');
    expect(terminalText('\u001b]0;title\u0007')).toBe('\\u001b]0;title\\u0007');
    expect(terminalText('del\u007f csi\u009b2J nel\u0085')).toBe('del\\u007f csi\\u009b2J nel\\u0085');
    expect(terminalText('abc\u202edcba\u202c \u2066x\u2069 \u2028')).toBe('abc\\u202edcba\\u202c \\u2066x\\u2069 \\u2028');
    expect(terminalText('\u0000\b\f')).toBe('\\u0000\\b\\f');
  });

  test('other text is returned unchanged: scripts, accents, emoji, joiners, marks', () => {
    for (const text of ['Roma', 'São Paulo', '東京都', 'مرحبا', 'עברית', '👩‍👩‍👧 smile', 'e\u0301', 'a\u200db', '\u00a0nbsp', '']) {
      expect(terminalText(text)).toBe(text);
    }
  });

  test('terminalLines keeps the line breaks of a message and escapes the rest', () => {
    expect(terminalLines('first \u001b[2J\nsecond\r')).toBe('first \\u001b[2J\nsecond\\r');
  });

  test('terminalSafeError escapes the message and its causes, stack included', () => {
    const cause = new Error('item "a\u202eb"');
    const error = new Error('prompt of \u001b[2J failed', { cause });
    expect(terminalSafeError(error)).toBe(error);
    expect(error.message).toBe('prompt of \\u001b[2J failed');
    expect(error.stack!.split('\n')[0]).toBe('Error: prompt of \\u001b[2J failed');
    expect(cause.message).toBe('item "a\\u202eb"');
    expect(terminalSafeError('not an error')).toBe('not an error');
  });

  test('oneLine and previewText (data errors) escape the same set', () => {
    expect(oneLine('x\u009by\u202ez\u007f')).toBe('x\\u009by\\u202ez\\u007f');
    expect(previewText('id\u001b\u202e')).toBe('"id\\u001b\\u202e"');
  });
});

describe('tables', () => {
  test('cells are escaped before widths are measured, so columns still line up', () => {
    const lines = alignedColumns(
      [
        ['name', 'em'],
        ['it\u001b[2Jaly', '1'],
        ['x', '0.5'],
      ],
      (c) => c > 0,
    );
    expect(lines).toEqual(['name             em', 'it\\u001b[2Jaly    1', 'x               0.5']);
    const md = markdownTable(['Language', 'EM'], [['a\u202eb', '1']]);
    expect(md.every((l) => !RAW_CONTROL.test(l))).toBe(true);
    expect(md[2]).toBe('| a\\u202eb |   1 |');
    expect(gateSection('Gates\u0007', [], ['x\u001b.em>=1'], 'no such subset')).toEqual(['Gates\\u0007', '  - x\\u001b.em>=1: not applied (no such subset)']);
  });
});

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-terminal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a child run on hostile data and predictions', () => {
  test('test names, verdicts, strict failures and the roll-up carry no raw control character', { timeout: 120_000 }, async () => {
    const id = 'id\u001b[2J\u202e1';
    const location = writeDataset(dir, [
      {
        key: 'italian',
        folder: 'italian',
        fileName: 'dev.jsonl',
        items: [
          { id, question: 'Qual è\u0007 la capitale\u009b?\u001b]0;pwned\u0007', targets: ['Roma'] },
          { id: 'plain', question: 'Capitale di Francia?', targets: ['Parigi'] },
        ],
      },
    ]);
    const predictions = path.join(dir, 'p.jsonl');
    writeJsonl(predictions, [
      { language: 'italian', id, prediction: '\u001b[31mMilano\r\u202e' },
      { language: 'italian', id: 'plain', prediction: 'Parigi' },
    ]);
    const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL, '--reporter=verbose'], {
      LOKAL_MULTILOKO: location,
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_OUTPUT: path.join(dir, 'out'),
      LOKAL_STRICT: '1',
    });
    const all = `${run.stdout}\n${run.stderr}`;
    expect(run.code, all).toBe(1);
    const raw = RAW_CONTROL.exec(all);
    expect(raw && `raw U+${raw[0].charCodeAt(0).toString(16)} at …${all.slice(Math.max(0, raw.index - 80), raw.index + 20)}`).toBeNull();
    // The test name shows the id and the question escaped; the failure shows the prediction escaped.
    expect(run.stdout).toContain('id\\u001b[2J\\u202e1 · Qual è\\u0007 la capitale\\u009b?\\u001b]0;pwned\\u0007');
    expect(all).toContain('\\u001b[31mMilano\\r\\u202e');
  });
});
