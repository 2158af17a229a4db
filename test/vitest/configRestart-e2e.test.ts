// Watch mode (and --ui) restarts Vitest in the same process when its config file changes; the runs after the restart
// must still write their results. A child `vitest --watch` on a replay file: the first run writes multiloko.json, the
// config is edited, and the run after the restart writes the same results again, without the reporter's earlier error
// ("Vite module runner has been closed": the benchmark registry kept the first instance's definitions).
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { childEnvironment, MULTILOKO_EVAL, REPO_ROOT } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-config-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const VITEST_BIN = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');

/** The repository's config, re-exported from a file this test may edit (the repository's own stays untouched). */
function writeConfig(): string {
  const config = path.join(dir, 'vitest.config.mjs');
  writeFileSync(config, `export { default } from ${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'vitest.config.ts')).href)};\n`);
  return config;
}

test('after a config edit restarts a watch-mode run, the next run writes its results again', { timeout: 120_000 }, async () => {
  const config = writeConfig();
  const output = path.join(dir, 'out');
  const predictions = path.join(dir, 'predictions.jsonl');
  // One answer, to the fixture's first Italian item; the other Italian items have none (scored as wrong).
  writeFileSync(predictions, `${JSON.stringify({ language: 'italian', id: '001_colosseo.txt', prediction: 'Roma' })}\n`);
  const results = path.join(output, 'multiloko.json');

  const child = spawn(process.execPath, [VITEST_BIN, '--watch', '--config', config, '--root', REPO_ROOT, '--project', 'evals', MULTILOKO_EVAL], {
    cwd: REPO_ROOT,
    env: { ...childEnvironment(), NO_COLOR: '1', LOKAL_REDACT: 'off', LOKAL_REPORT: 'off', LOKAL_MULTILOKO: 'data/fixtures/multiloko', LOKAL_SUBSETS: 'local', LOKAL_MODEL: `replay:${predictions}`, LOKAL_OUTPUT: output },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let log = '';
  const waiters: Array<() => void> = [];
  const onData = (data: Buffer) => {
    log += data;
    for (const wake of waiters.splice(0)) wake();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  /** Resolves once the child's output has `count` matches of `pattern`. */
  const waitFor = async (pattern: RegExp, count: number) => {
    const deadline = Date.now() + 60_000;
    while ((log.match(new RegExp(pattern, 'gu')) ?? []).length < count) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ${count}× ${pattern} in the watch run's output:\n${log.slice(-4000)}`);
      await new Promise<void>((wake) => {
        waiters.push(wake);
        setTimeout(wake, 500);
      });
    }
  };
  try {
    // The first run over, reporters included (an edit before then would stop its reporting midway).
    await waitFor(/Waiting for file changes/u, 1);
    const first = JSON.parse(readFileSync(results, 'utf8'));
    rmSync(results);
    // A change to the config's content, as a user's edit makes: Vitest says it restarts and runs the file again.
    appendFileSync(config, '// edited\n');
    await waitFor(/Restarting due to config changes/u, 1);
    await waitFor(/Waiting for file changes/u, 2);
    expect(log.match(/lokal: wrote \S*multiloko\.json/gu), log).toHaveLength(2);
    expect(log).not.toContain('module runner has been closed');
    expect(existsSync(results), log).toBe(true);
    const second = JSON.parse(readFileSync(results, 'utf8'));
    // The same answers scored the same way: one of the fixture's Italian items right.
    const italianItems = readFileSync(path.join(REPO_ROOT, 'data/fixtures/multiloko/italian/dev.jsonl'), 'utf8').trim().split('\n').length;
    expect(first.italian.em).toBeCloseTo(1 / italianItems, 12);
    expect(second.italian.em).toBe(first.italian.em);
    expect(second.italian['001_colosseo.txt']).toMatchObject({ em: 1 });
  } finally {
    child.kill('SIGKILL');
  }
});
