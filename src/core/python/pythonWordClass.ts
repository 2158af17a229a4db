// Python 3.11's `\w` in str patterns: `[\p{L}\p{N}_]` of Unicode 14.0 (METRICS.md §3.2), written for a JS `v`-mode regex.
import { LETTERS_NEWER_THAN_UNICODE_14, rangesToClass } from './unicode14.ts';

/** A `v`-flag character class matching exactly the code points Python 3.11's `\w` matches. */
export const PY_WORD_CLASS_V = `[[\\p{L}\\p{N}_]--[${rangesToClass(LETTERS_NEWER_THAN_UNICODE_14)}]]`;
