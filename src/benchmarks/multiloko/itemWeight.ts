// A MultiLoKo item's expected cost, by which parts of the run are balanced (src/benchmarks/parts.ts): from the data
// alone, so that every shard cuts the same parts whatever its model; docs/setup.md has the measurement behind it.
import type { MultiLoKoQuestion } from './data/schema.ts';

/** The UTF-8 bytes of the question (the part of the prompt that differs between items of a language). */
export function multilokoItemWeight(item: Pick<MultiLoKoQuestion, 'question'>): number {
  return Buffer.byteLength(item.question ?? '', 'utf8');
}
