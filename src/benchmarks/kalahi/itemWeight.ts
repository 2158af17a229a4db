// A Kalahi prompt's expected cost, by which parts of the run are balanced (src/benchmarks/parts.ts): from the data
// alone, so that every shard cuts the same parts whatever its model; docs/setup.md has the measurement behind it.
import type { KalahiRow } from './data.ts';

/** The UTF-8 bytes of the prompt (the user's turn every task sends). */
export function kalahiItemWeight(row: Pick<KalahiRow, 'prompt'>): number {
  return Buffer.byteLength(row.prompt, 'utf8');
}
