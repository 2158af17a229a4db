// Named pipes for tests of inputs that must be refused at once (reading one waits for a writer that never comes).
import { execFileSync } from 'node:child_process';

/** Whether mkfifo exists here (not on Windows). */
export const hasMkfifo = (() => {
  if (process.platform === 'win32') return false;
  try {
    execFileSync('mkfifo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Makes a FIFO at `file` (its folder must exist); returns the path. */
export function makeFifo(file: string): string {
  execFileSync('mkfifo', [file]);
  return file;
}
