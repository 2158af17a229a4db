// `vitest --ui --watch` on the MultiLoKo eval file as a child, for the browser tests of Vitest UI: resolves once the run
// is done (the watcher waits, so the UI's data is complete) with the process and the UI's address.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { MULTILOKO_EVAL, REPO_ROOT, childEnvironment } from '../vitest/helpers.ts';
import { freePort } from './freePort.ts';

export async function startVitestUi(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  // `--watch` keeps the UI up after the run (without a terminal, `--ui` alone runs once and exits).
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs'), '--ui', '--watch', '--open=false', `--api.port=${port}`, '--api.host=127.0.0.1', '--project', 'evals', MULTILOKO_EVAL], {
    cwd: REPO_ROOT,
    env: { ...childEnvironment(), CI: '1', NO_COLOR: '1', LOKAL_REDACT: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  let url = '';
  child.stderr!.on('data', (d) => (log += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      log += d;
      const started = /UI started at (http:\/\/\S+)/u.exec(log);
      if (started) url = started[1]!;
      // "Waiting for …" after a green run, "Tests failed. Watching for …" after one with failed (wrong-answer) item tests.
      if (url && /Waiting for file changes|Watching for file changes/u.test(log)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`vitest --ui --watch exited (${code}) before its run was done\n${log.slice(-3000)}`)));
  });
  return { child, url };
}
