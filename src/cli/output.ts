// What every command does with its output: messages on stderr, `-o` checked before the work and written atomically.
import { stat } from 'node:fs/promises';
import { writeFileAtomicSync, type ChunkedText } from '../core/io.ts';
import { outputClash, type RunPath } from '../core/runPaths.ts';
import { ioError } from '../data/files.ts';

/**
 * A message line on stderr, written straight to the descriptor: process.stderr would first load Node's stream stack
 * (some twenty modules) for one line. Falls back to process.stderr where a direct write fails (EAGAIN on a
 * non-blocking pipe) or Node has no getBuiltinModule.
 */
export function say(text: string): void {
  // getBuiltinModule (Node >= 20.16), not an import of node:fs, whose ES module facade loads the streams as well.
  const fs = process.getBuiltinModule?.('node:fs') as typeof import('node:fs') | undefined;
  try {
    if (fs) return void fs.writeSync(2, text);
  } catch {
    // fall through to the stream
  }
  process.stderr.write(text);
}

/**
 * `-o` checked before any work: a folder (or a path under a file) fails now, not after the scoring, and so does a path
 * that is one of the command's inputs (it would be replaced by the output).
 */
export async function checkOutputPath(command: string, output: string | undefined, inputs: readonly RunPath[] = []): Promise<void> {
  if (!output) return;
  const clash = outputClash({ path: output, role: 'the output' }, inputs);
  if (clash) throw new Error(`${command}: --output ${clash}; give another file name`);
  const stats = await stat(output).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : error));
  if (stats instanceof Error) throw new Error(`${command}: --output ${output}: cannot be written (${stats.code ?? stats.message})`);
  if (stats?.isDirectory()) throw new Error(`${command}: --output ${output}: is a folder (EISDIR); give a file name`);
}

/** Writes the output file; a failure names the file and the errno code (ENOSPC, EACCES, EISDIR, …). */
export function writeOutput(output: string, text: string | ChunkedText): void {
  try {
    writeFileAtomicSync(output, text);
  } catch (error) {
    throw ioError(output, 'cannot write the output file', error);
  }
}
