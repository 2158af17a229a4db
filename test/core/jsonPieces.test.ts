// jsonPieces: joined, the pieces are JSON.stringify(value, null, indent) + '\n' of the same object, character for
// character, whatever its keys (integer-like ones first), values JSON leaves out, nesting and non-Latin-1 text.
import { describe, expect, test } from 'vitest';
import { jsonPieces } from '../../src/core/jsonPieces.ts';

const whole = (value: object, indent: number) => `${JSON.stringify(value, null, indent)}\n`;

describe('jsonPieces', () => {
  test('joined, equal to the whole text for nested objects, arrays, numbers, text and integer-like keys', () => {
    const value = {
      arabic: { '000_a.txt': { em: 0, f1: 0.6666666666666666, targets: ['sha256:b0c27fca74fa', 'x'], prediction: 'y' } },
      '7': [1, [2, { deep: null }], []],
      summary: { groups: [{ id: 'human-to-english', title: '→ english · human' }], empty: {} },
      lokal: { items: { arabic: { '000_a.txt': { question: 'q "quoted" \n line', answer: '東京' } } } },
    };
    for (const indent of [4, 2]) expect(jsonPieces(value, indent).join('')).toBe(whole(value, indent));
    // Integer-like keys come first, as JSON.stringify lists them.
    expect(jsonPieces(value, 4)[1]!.startsWith('    "7": [')).toBe(true);
  });

  test('keys whose values JSON leaves out give no member; an object without members is {}', () => {
    const value = { a: undefined, b: 1, c: () => 2, d: Symbol('e'), f: 'g' };
    expect(jsonPieces(value, 4).join('')).toBe(whole(value, 4));
    expect(jsonPieces(value, 4).join('')).toBe('{\n    "b": 1,\n    "f": "g"\n}\n');
    expect(jsonPieces({}, 4)).toEqual(['{}\n']);
    expect(jsonPieces({ only: undefined }, 4).join('')).toBe(whole({ only: undefined }, 4));
  });

  test('a member without a character above U+00FF is a piece of its own, apart from one that has one', () => {
    const pieces = jsonPieces({ ascii: { a: 'plain' }, arrow: { t: '→' } }, 4);
    expect(pieces).toEqual(['{\n', '    "ascii": {\n        "a": "plain"\n    }', ',\n', '    "arrow": {\n        "t": "→"\n    }', '\n}\n']);
  });
});
