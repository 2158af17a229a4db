// An item test's failure that says all there is in one line: a wrong answer (strict mode, Vitest UI) or a failure the
// benchmark's plan reported. No stack, diff or code frame: those point into vitest-lokal, not at anything the user
// wrote, and 234 wrong answers printed 5,775 lines. The lokal console reporter lists each as one line.
import { terminalLines } from '../data/terminalText.ts';

/** The property that marks an item failure (own properties survive Vitest's serialisation to the main process). */
export const ITEM_FAILURE = 'lokalItemFailure';

/** `message` on one line: its lines trimmed and joined with ' · ' (a matcher's explanation spans three). */
function oneLine(message: string): string {
  return message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' · ');
}

/** The error an item test fails with: one line, control characters escaped, no stack frames, no expected/actual. */
export function itemFailure(message: string): Error {
  const error = Object.assign(new Error(terminalLines(oneLine(message))), { [ITEM_FAILURE]: true });
  // Vitest prints the frames it parses from the stack: none.
  error.stack = `Error: ${error.message}`;
  return error;
}
