// A Markdown table cell's text, safe in GitHub's renderer: the step summary's and every section's tables use it.
import { bidiEscaped } from '../data/terminalText.ts';

/**
 * A table cell's text: no line breaks, pipes escaped, no markup (GitHub renders HTML inside Markdown), and bidirectional
 * controls shown as their escapes (`\u202e`, its backslash escaped below so it shows), as on the terminal.
 */
export function markdownCell(text: string): string {
  return bidiEscaped(text)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/gu, '')
    .replace(/\r?\n|\r/gu, ' ')
    .replace(/&/gu, '&amp;')
    .replace(/</gu, '&lt;')
    .replace(/>/gu, '&gt;')
    .replace(/[\\`*_[\]]/gu, (c) => `\\${c}`)
    .replace(/\|/gu, '\\|');
}
