// Numbers as the report, the step summary, Vitest UI's summary and `lokal compare` print them: fixed digits after a
// scale, a dash where there is no finite number, a sign on a difference, a figure with its interval.
import type { Interval } from '../core/statistics/index.ts';

export const DASH = '–';

/** `v` × scale with fixed digits, or a dash. */
export function fixed(v: number | null | undefined, digits: number, scale = 1): string {
  return v === null || v === undefined || !Number.isFinite(v) ? DASH : (v * scale).toFixed(digits);
}

/** As `fixed`, with a `+` before a positive difference. */
export function signed(v: number | null | undefined, digits: number, scale = 1): string {
  const s = fixed(v, digits, scale);
  return v !== null && v !== undefined && v > 0 ? `+${s}` : s;
}

/** `75.00 [30.1, 95.4]`: a figure and its interval, one digit fewer on the bounds. */
export function intervalText(i: Pick<Interval, 'value' | 'low' | 'high'>, digits: number, scale: number): string {
  return `${fixed(i.value, digits, scale)} [${fixed(i.low, digits - 1, scale)}, ${fixed(i.high, digits - 1, scale)}]`;
}
