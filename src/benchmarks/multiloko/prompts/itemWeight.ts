// A MultiLoKo item's expected cost, by which parts of the run are balanced (src/benchmarks/parts.ts): the UTF-8 bytes
// of its official base prompt (few-shot demonstrations and question), from the data and settings alone, so that every
// shard cuts the same parts whatever its model; docs/setup.md has the measurement behind the choice.
import type { MultiLoKoQuestion } from '../data/schema.ts';
import { renderMultilokoPrompt, type MultilokoFewshotChoice } from './renderMultilokoPrompt.ts';

/** What the base prompt of a subset's items shares: their language, demonstrations and how many are shown. */
export interface WeighedSubset {
  questionLanguage: string;
  fewshot: MultilokoFewshotChoice;
  shots: number;
}

/**
 * A weigher of one run's items: the UTF-8 bytes of the item's base prompt. The prompt around the question is rendered
 * once per question language and output type (a language's subsets share their demonstrations, and the template holds
 * the question once), so weighing 37,750 items renders a few hundred.
 */
export function multilokoItemWeigher(): (item: Pick<MultiLoKoQuestion, 'question' | 'output_type'>, subset: WeighedSubset) => number {
  const around = new Map<string, number>();
  return (item, subset) => {
    const key = `${subset.questionLanguage}\u0000${item.output_type ?? ''}`;
    let rest = around.get(key);
    if (rest === undefined) {
      try {
        const rendered = renderMultilokoPrompt({ language: subset.questionLanguage, item: { question: '', output_type: item.output_type }, mode: 'base', fewshot: subset.fewshot, numShot: subset.shots });
        rest = rendered.mode === 'base' ? Buffer.byteLength(rendered.prompt, 'utf8') : 0;
      } catch {
        // An item the template cannot render weighs its question alone; its test says what is wrong.
        rest = 0;
      }
      around.set(key, rest);
    }
    return Buffer.byteLength(item.question ?? '', 'utf8') + rest;
  };
}
