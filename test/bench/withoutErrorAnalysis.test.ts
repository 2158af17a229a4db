// The errors-runs bench's baseline: the stub must land on the one declaration it names, or the bench must stop.
import { describe, expect, test } from 'vitest';
import { stubFunction } from '../../bench/withoutErrorAnalysis.ts';

const stub = { name: 'f1Words', returns: '0' };

describe('stubFunction', () => {
  test('makes an early return the first statement of the named function, module or bundle alike', () => {
    const code = 'const a = 1;\nexport function f1Words(pred, targets, segmenter) {\n  return 0.5;\n}\nfunction f1WordsOther(x) {\n  return 2;\n}\n';
    const stubbed = stubFunction(code, stub, 'f1Words.js');
    expect(stubbed).toBe(code.replace('export function f1Words(pred, targets, segmenter) {', 'export function f1Words(pred, targets, segmenter) { return 0;'));
    const run = new Function(`${stubbed.replace('export ', '')}\nreturn f1Words('a', ['a'], undefined) + f1WordsOther();`) as () => number;
    expect(run()).toBe(2);
  });

  test('refuses a build where the declaration is missing or repeated', () => {
    expect(() => stubFunction('function f1Wordz(a) {\n}\n', stub, 'score.js')).toThrow('score.js: expected one declaration of f1Words, found 0');
    expect(() => stubFunction('function f1Words(a) {\n}\nfunction f1Words(b) {\n}\n', stub, 'score.js')).toThrow('found 2');
  });
});
