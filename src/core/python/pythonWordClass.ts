// Python 3.11's `\w` in str patterns: `[\p{L}\p{N}_]` of Unicode 14.0 (docs/metrics.md#python-conventions), written for a JS `v`-mode regex.
import { LETTERS_NEWER_THAN_UNICODE_14, rangesToClass } from './unicode14.ts';

/** A `v`-flag character class matching exactly the code points Python 3.11's `\w` matches. */
export const PY_WORD_CLASS_V = `[[\\p{L}\\p{N}_]--[${rangesToClass(LETTERS_NEWER_THAN_UNICODE_14)}]]`;

/**
 * `\w` for a `u`-flag class body, by the Unicode of this Node (the Kalahi tokenisers use it; it differs from Python 3.11
 * only on letters added after Unicode 14.0, which no reference text holds).
 */
export const PY_WORD_CLASS = '\\p{L}\\p{N}_';
