// Tests on the published datasets beside the repository (../shared/data) are skipped where those files are absent;
// Vitest's skipIf takes no reason, so the title carries it.
import { existsSync } from 'node:fs';

/** `title`, or `title (skipped: <file> is absent)` for the first of `files` that does not exist. */
export function titleUnless(title: string, ...files: string[]): string {
  const missing = files.find((file) => !existsSync(file));
  return missing === undefined ? title : `${title} (skipped: ${missing} is absent)`;
}
