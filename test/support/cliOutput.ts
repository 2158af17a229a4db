/** What a CLI command writes, captured per test, with the project's LOKAL_* settings cleared (CI exports some). */
import { afterEach, beforeEach, vi } from 'vitest';

export interface CliOutput {
  out: string;
  err: string;
}

/** Registers the capture around every test of the calling file; read `out` and `err` inside a test. */
export function captureCliOutput(): CliOutput {
  const captured = { out: '', err: '' };
  beforeEach(() => {
    // The project's own settings only: CI exports LOKAL_MULTILOKO and LOKAL_KALAHI, which would point commands at its data.
    for (const name of Object.keys(process.env).filter((n) => n.startsWith('LOKAL_'))) vi.stubEnv(name, undefined);
    captured.out = '';
    captured.err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((captured.out += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((captured.err += String(chunk)), true));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });
  return captured;
}
