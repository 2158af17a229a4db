// Small file helpers shared by the CLI and the reporters.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

/** Writes via a temp file in the same folder and renames, so readers never see a half-written file. */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  await writeFile(temp, content);
  await rename(temp, file);
}
