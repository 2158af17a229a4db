// MultiLoKo's item weight for balanced parts: the UTF-8 bytes of the item's whole base prompt, checked against the
// prompt rendered in full for every fixture item (the weigher renders the template around the question only once).
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import { multilokoItemWeigher } from '../../src/benchmarks/multiloko/prompts/itemWeight.ts';
import { chooseFewshot } from '../../src/benchmarks/multiloko/run/promptChoice.ts';
import { renderMultilokoPrompt } from '../../src/benchmarks/multiloko/prompts/renderMultilokoPrompt.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';

describe('multilokoItemWeigher', () => {
  test.each([
    ['dataset', 5],
    ['official', 3],
    ['none', 5],
  ] as const)('the fixtures with %s demonstrations (%i shots): each weight is the bytes of the item\'s whole base prompt', async (setting, shots) => {
    const dataset = await loadMultiLoKo(path.join(REPO_ROOT, 'data/fixtures/multiloko'), 'dev');
    const weigh = multilokoItemWeigher();
    let items = 0;
    for (const subset of dataset.subsets) {
      const fewshot = chooseFewshot(dataset, subset.questionLanguage, setting);
      for (const item of subset.items) {
        const { prompt } = renderMultilokoPrompt({ language: subset.questionLanguage, item, mode: 'base', fewshot, numShot: shots }) as { prompt: string };
        expect(weigh(item, { questionLanguage: subset.questionLanguage, fewshot, shots })).toBe(Buffer.byteLength(prompt, 'utf8'));
        items++;
      }
    }
    expect(items).toBe(21);
  });

  test('an item the template cannot render (no output_type) weighs its question\'s bytes alone', () => {
    expect(multilokoItemWeigher()({ question: 'Perché?' }, { questionLanguage: 'italian', fewshot: 'official', shots: 5 })).toBe(8);
  });
});
