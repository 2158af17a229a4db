// The loaders' plain record checks against the zod schemas they stand in for: the same verdict on good and bad rows,
// and on good rows the same object (keys, key order, values); quickJsonlRecords against the validating parsers.
import { describe, expect, test } from 'vitest';
import { parseFewshotJsonl, parseMultiLoKoJsonl } from '../../src/benchmarks/multiloko/data/jsonl.ts';
import { quickJsonlRecords } from '../../src/data/jsonlText.ts';
import { checkFewshotItem, checkMultiLoKoItem } from '../../src/benchmarks/multiloko/data/recordCheck.ts';
import { MultiLoKoFewshotItemSchema, MultiLoKoQuestionSchema } from '../../src/benchmarks/multiloko/data/schema.ts';
import { seededRandom } from '../support/seededRandom.ts';

const HAND_PICKED: unknown[] = [
  { id: 'a', targets: ['Roma'] },
  { id: 7, targets: ['Roma', ''], question: 'q?', text: 't', target: 'long', output_type: 'una città' },
  { extra: 1, targets: ['x'], '10': 'int-like', id: 'b', question: 'q', __proto__: null },
  JSON.parse('{"__proto__": {"x": 1}, "id": "p", "targets": ["y"], "answer": "z"}'),
  { id: 1.5, targets: ['x'] },
  { id: -0, targets: ['x'] },
  { id: Infinity, targets: ['x'] },
  { id: NaN, targets: ['x'] },
  { id: null, targets: ['x'] },
  { id: true, targets: ['x'] },
  { id: ['a'], targets: ['x'] },
  { targets: ['x'] },
  { id: 'a' },
  { id: 'a', targets: [] },
  { id: 'a', targets: 'Roma' },
  { id: 'a', targets: ['Roma', 3] },
  { id: 'a', targets: [null] },
  { id: 'a', targets: ['x'], question: 3 },
  { id: 'a', targets: ['x'], question: null },
  { id: 'a', targets: ['x'], text: ['t'] },
  { id: 'a', targets: ['x'], output_type: {} },
  { id: 'a', targets: ['x'], question: undefined },
  { id: undefined, targets: ['x'] },
  { question: 'q', answer: 'a' },
  { question: 'q', target: 't' },
  { question: 'q', targets: ['t'], answer: 'a', target: 't', text: 'x', output_type: 'o', id: 3, more: [1] },
  { question: 'q' },
  { question: 'q', targets: undefined, answer: 'a' },
  { question: 'q', targets: [] , answer: 'a' },
  { question: 3, answer: 'a' },
  { answer: 'a' },
  { question: 'q', answer: 3 },
  { question: 'q', answer: 'a', id: {} },
  null,
  [],
  ['id'],
  'text',
  3,
  true,
];

const FIELDS = ['id', 'targets', 'question', 'text', 'target', 'output_type', 'answer', 'other', '__proto__', '0'];

/** A random JSON value of the kinds the fields may hold, right or wrong. */
function randomValue(random: () => number, depth = 0): unknown {
  const kind = Math.floor(random() * (depth > 1 ? 7 : 9));
  switch (kind) {
    case 0: return 'text';
    case 1: return '';
    case 2: return Math.floor(random() * 100) - 50;
    case 3: return random() < 0.5 ? 1.5 : 1e300 * 10;
    case 4: return null;
    case 5: return random() < 0.5;
    case 6: return Array.from({ length: Math.floor(random() * 3) }, () => (random() < 0.8 ? `t${Math.floor(random() * 9)}` : 0));
    case 7: return Array.from({ length: Math.floor(random() * 3) }, () => randomValue(random, depth + 1));
    default: return randomRecord(random, depth + 1);
  }
}

/** A value of the field's right type (the schemas accept it there). */
function rightValue(random: () => number, field: string): unknown {
  if (field === 'id') return random() < 0.5 ? `id${Math.floor(random() * 9)}` : Math.floor(random() * 9);
  if (field === 'targets') return Array.from({ length: 1 + Math.floor(random() * 3) }, (_, i) => `t${i}`);
  return `v${Math.floor(random() * 9)}`;
}

function randomRecord(random: () => number, depth = 0): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const field of FIELDS) {
    if (random() < 0.45) continue;
    // Mostly right values, so that both verdicts are common; `__proto__` defined as an own key, as JSON.parse does.
    const value = random() < 0.85 ? rightValue(random, field) : randomValue(random, depth);
    Object.defineProperty(record, field, { value, enumerable: true, writable: true, configurable: true });
  }
  return record;
}

/** The verdict and output of a check, and of the schema, in a form toEqual compares key order by. */
function viaCheck(check: (v: unknown) => unknown, value: unknown): unknown {
  const out = check(value);
  return out === undefined ? 'rejected' : [Object.keys(out as object), out];
}
function viaSchema(schema: { safeParse(v: unknown): { success: boolean; data?: unknown } }, value: unknown): unknown {
  const result = schema.safeParse(value);
  return result.success ? [Object.keys(result.data as object), result.data] : 'rejected';
}

describe('plain record checks agree with the zod schemas', () => {
  const random = seededRandom(1010);
  const values = [...HAND_PICKED, ...Array.from({ length: 3000 }, () => (random() < 0.9 ? randomRecord(random) : randomValue(random)))];

  test('question records (MultiLoKoQuestionSchema)', () => {
    let accepted = 0;
    for (const value of values) {
      const expected = viaSchema(MultiLoKoQuestionSchema, value);
      expect(viaCheck(checkMultiLoKoItem, value), JSON.stringify(value)).toEqual(expected);
      if (expected !== 'rejected') accepted++;
    }
    // Both verdicts occur often enough for the comparison to mean something.
    expect(accepted).toBeGreaterThan(50);
    expect(values.length - accepted).toBeGreaterThan(50);
  });

  test('few-shot records (MultiLoKoFewshotItemSchema)', () => {
    let accepted = 0;
    for (const value of values) {
      const expected = viaSchema(MultiLoKoFewshotItemSchema, value);
      expect(viaCheck(checkFewshotItem, value), JSON.stringify(value)).toEqual(expected);
      if (expected !== 'rejected') accepted++;
    }
    expect(accepted).toBeGreaterThan(50);
    expect(values.length - accepted).toBeGreaterThan(50);
  });

  test('the checks return copies: the targets list is not the input array', () => {
    const value = { id: 'a', targets: ['x'] };
    expect(checkMultiLoKoItem(value)!.targets).not.toBe(value.targets);
  });
});

describe('quickJsonlRecords against the validating parsers', () => {
  const item = (id: unknown, targets: unknown = ['Roma']) => JSON.stringify({ id, targets, question: 'q?' });
  const files: Array<string | Uint8Array> = [
    `${item('a')}\n${item(2)}\n\n{"id":"c","targets":[""],"extra":{"k":1}}\r\n`,
    `\ufeff${item('a')}\r${item('b')}`,
    `${item(7)}\n${item('7')}\n`,
    `${item('a')}\n${item('a')}\n`,
    `${item(2 ** 53)}\n`,
    `${item('a')}\n{"id": "b", "targets": "Roma"}\n`,
    `${item('a')}\nnot json\n`,
    new Uint8Array([0x7b, 0xff, 0x7d, 0x0a]),
    '',
  ];

  test('the same records where the file is good, undefined where the parser throws (it then names the problem)', () => {
    for (const [parse, check] of [[parseMultiLoKoJsonl, checkMultiLoKoItem], [parseFewshotJsonl, checkFewshotItem]] as const) {
      for (const file of files) {
        const bytes = typeof file === 'string' ? Buffer.from(file) : file;
        let expected: unknown;
        try {
          expected = parse(bytes, 'f.jsonl');
        } catch {
          expected = undefined;
        }
        const quick = quickJsonlRecords(bytes, check as (v: unknown) => unknown, (r) => (r as { id?: string | number }).id);
        expect(quick, JSON.stringify(file)).toEqual(expected);
      }
    }
  });
});
