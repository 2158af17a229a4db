// Permission checks (EACCES) cannot be seen as root, and every machine here, CI included, runs as root: such a check
// runs in a child Node process started as an unprivileged user (nobody, when the tests run as root), importing the
// TypeScript sources through tsx, and prints its result as JSON on stdout.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const NOBODY = 65_534;
const asNobody = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};

/** Runs an ES module body (may import '../../src/…' relative to test/support, i.e. './src/…' from the repo). */
export function runUnprivileged(body: string): { status: number | null; stdout: string; stderr: string } {
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', body], {
    ...asNobody,
    cwd: repo,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: '/tmp' },
  });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** Why the unprivileged child cannot run here (it cannot read the checkout, say), or undefined when it can. */
export const unprivilegedUnavailable: string | undefined = (() => {
  const probe = runUnprivileged("import './src/data/files.ts'; process.stdout.write(String(process.getuid()));");
  if (probe.status !== 0) return `an unprivileged child process cannot run the sources here: ${probe.stderr.trim().split('\n')[0] ?? `exit ${probe.status}`}`;
  if (process.getuid?.() === 0 && probe.stdout === '0') return 'the child still ran as root';
  return undefined;
})();

/** The JSON a child printed, or an error with its stderr. */
export function unprivilegedJson<T>(body: string): T {
  const run = runUnprivileged(body);
  if (run.status !== 0) throw new Error(`unprivileged child failed (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
