// A dataset benchmark's item weight for balanced parts: the UTF-8 bytes of its rendered prompt, counted by hand.
import { describe, expect, test } from 'vitest';
import { promptBytes, renderPrompt } from '../../src/benchmarks/dataset/prompt.ts';

describe('promptBytes', () => {
  test('a completion prompt: é and ü are 2 bytes each in UTF-8, 日 is 3', () => {
    expect(promptBytes({ prompt: 'Café über 日' })).toBe(4 + 1 + 6 + 1 + 3);
  });

  test('chat messages: every message\'s content, few-shot turns included', () => {
    const rendered = renderPrompt({ prompt: 'Capital of {country}?', chat: true, system: 'Be brief.', shots: [{ row: { country: 'Peru' }, answer: 'Lima' }], shotSeparator: '\n\n' }, { country: 'Chad' });
    // 'Be brief.' 9 + 'Capital of Peru?' 16 + 'Lima' 4 + 'Capital of Chad?' 16
    expect(promptBytes(rendered)).toBe(45);
  });
});
