// A run's inputs and outputs by real path: no output may be an input or another output of the same run, or it would
// replace a predictions, results or dataset file with HTML or JSON. Checked before anything is written.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** A file the run reads or writes, and what it is in words (`the predictions file (LOKAL_MODEL)`). */
export interface RunPath {
  path: string;
  role: string;
  /** A folder the run reads files from (a dataset folder): the names of the files it reads there, at any depth. */
  folder?: RegExp;
}

/** The path with symlinks resolved as far as it exists (the rest appended), so two names of one file compare equal. */
function realPath(target: string): string {
  const absolute = path.resolve(target);
  const missing: string[] = [];
  for (let current = absolute; ; current = path.dirname(current)) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch {
      if (path.dirname(current) === current) return absolute;
      missing.push(path.basename(current));
    }
  }
}

function isExistingFile(target: string): boolean {
  try {
    return statSync(target).isFile();
  } catch {
    return false;
  }
}

function clashes(output: string, input: RunPath): boolean {
  const other = realPath(input.path);
  if (output === other) return true;
  // Under a folder the run reads: only an existing file would be replaced (a new file there harms nothing).
  return input.folder !== undefined && output.startsWith(`${other}${path.sep}`) && input.folder.test(path.basename(output)) && isExistingFile(output);
}

/**
 * Why an output would destroy a file of the run — it is an input, or another output — or undefined. `others` are the
 * run's other outputs.
 */
export function outputClash(output: RunPath, inputs: readonly RunPath[], others: readonly RunPath[] = []): string | undefined {
  const target = realPath(output.path);
  const input = inputs.find((i) => clashes(target, i));
  if (input) return `${output.path} is ${input.role}${realPath(input.path) === target ? '' : ` (${input.path})`}: writing ${output.role} there would replace it`;
  const other = others.find((o) => realPath(o.path) === target);
  if (other) return `${output.path} is also ${other.role}: the run would write both to one file`;
  return undefined;
}
