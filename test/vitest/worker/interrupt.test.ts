// No run is lost to an interrupt: a real `vitest run` of the toy benchmark, its item 4 a slow model call, gets SIGINT
// (to its whole process group, as Ctrl-C in a terminal sends it) or SIGTERM (to the main process, as a CI runner's
// cancel does) once Europe's three items are done. The previous complete toy.json stays byte for byte, toy.incomplete.json
// holds the items that finished with the reason, the run says what it kept and exits as the signal would (130, 143).
// Against a server one request at a time: no request leaves after the signal, and no test fails for the cancel.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RunInterrupt, signalExitCode } from '../../../src/run/interrupt.ts';
import { startFakeOpenAIServer, type FakeServer } from '../../support/fakeOpenAIServer.ts';
import { childEnvironment, REPO_ROOT } from '../helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CONFIG = 'test/vitest/worker/vitest.config.ts';
const VITEST_BIN = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const REPLIES = { 1: 'Rome', 2: 'Paris', 3: 'Madrid', 4: 'Tokyo', 5: 'Kathmandu' };
const PREVIOUS = `${JSON.stringify({ benchmark: 'toy', note: 'a complete earlier run' })}\n`;

interface Interrupted {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  output: string;
  /** Milliseconds from the signal to the process's exit. */
  afterSignalMs: number;
}

interface RunOptions {
  settleMs?: number;
  env?: Record<string, string>;
  /** When to send the signal (before `settleMs`); default: once item 4, the slow one, has started and Europe's results reached the main process. */
  started?: () => boolean;
  /** More arguments of `vitest run`. */
  args?: string[];
}

/** Starts the run in its own process group, waits until `started` (or item 4 started and Europe reported), waits `settleMs`, then sends the signal(s). */
async function interruptedRun(name: string, send: (pid: number) => void, options: RunOptions = {}): Promise<Interrupted> {
  const base = path.join(dir, name);
  const output = path.join(base, 'out');
  mkdirSync(output, { recursive: true });
  writeFileSync(path.join(output, 'toy.json'), PREVIOUS);
  const predictions = path.join(base, 'replies.jsonl');
  writeFileSync(predictions, Object.entries(REPLIES).map(([id, prediction]) => JSON.stringify({ language: 'toy', id: Number(id), prediction })).join('\n') + '\n');
  const mark = path.join(base, 'slow-started');
  const child = spawn(process.execPath, [VITEST_BIN, 'run', '--config', CONFIG, ...(options.args ?? [])], {
    cwd: REPO_ROOT,
    detached: true, // its own process group, as a shell gives a foreground job
    env: {
      ...childEnvironment(),
      CI: '1',
      NO_COLOR: '1',
      TOY_SLOW_ITEM: '4',
      TOY_SLOW_MARK: mark,
      LOKAL_MODEL: `replay:${predictions}`,
      LOKAL_OUTPUT: output,
      LOKAL_THRESHOLDS: 'toy.accuracy>=0.5,toy.europe.accuracy>=0.5',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const started = Date.now();
  // By default: item 4 (the slow one) has started, and the main process has Europe's three results — the verbose
  // reporter prints a test's line when its result arrives there.
  const europeReported = () => ['Italy', 'France', 'Spain'].every((country) => new RegExp(`✓ .*\\d · capital of ${country}`, 'u').test(stdout));
  const ready = options.started ?? (() => existsSync(mark) && europeReported());
  while (!ready()) {
    if (Date.now() - started > 90_000) throw new Error(`the run never got to the point of the signal:\n${stdout}\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (options.settleMs) await new Promise((resolve) => setTimeout(resolve, options.settleMs));
  const signalledAt = Date.now();
  send(child.pid!);
  const { code, signal } = await exited;
  try {
    process.kill(-child.pid!, 'SIGKILL'); // a worker left behind, if any
  } catch {
    // the group is gone
  }
  return { code, signal, stdout, stderr, output, afterSignalMs: Date.now() - signalledAt };
}

function expectIncompleteBesideComplete(run: Interrupted, signal: string): void {
  const show = `${run.stdout}\n${run.stderr}`;
  expect(readFileSync(path.join(run.output, 'toy.json'), 'utf8'), show).toBe(PREVIOUS);
  expect(readdirSync(run.output).sort()).toEqual(['toy.incomplete.json', 'toy.json']);
  const results = JSON.parse(readFileSync(path.join(run.output, 'toy.incomplete.json'), 'utf8'));
  expect(results.complete).toBe(false);
  expect(results.incomplete_reason).toBe(`the run was interrupted (${signal}) before these groups finished`);
  expect(results.missing_subsets).toEqual(['asia']);
  expect(results.gates_passed).toBe(false);
  // Europe finished whole and its gate is judged on its own; the run-wide gate needs Asia and fails.
  expect(results.continents.europe.records.map((r: { id: number }) => r.id)).toEqual([1, 2, 3]);
  expect(results.gates.map((g: { gate: string; pass: boolean }) => [g.gate, g.pass])).toEqual([['toy.europe.accuracy>=0.5', true]]);
  expect(results.gates_failed_for_missing_data.map((g: { gate: string }) => g.gate)).toEqual(['toy.accuracy>=0.5']);
  // Item 5 answered before the signal; item 4 was still waiting and is not there.
  const asia = (results.continents.asia?.records ?? []).map((r: { id: number }) => r.id);
  expect(asia).not.toContain(4);
  const kept = 3 + asia.length;
  expect(run.stdout).toContain(`lokal: ${signal}: stopping the run; the items that finished go to <benchmark>.incomplete.json`);
  expect(run.stdout).toContain(`lokal: toy: INCOMPLETE run: the run was interrupted (${signal}) before these groups finished: asia`);
  expect(run.stdout).toMatch(new RegExp(`lokal: wrote \\S*toy\\.incomplete\\.json \\(complete: false; the ${kept} items that finished; \\S*toy\\.json left as it was\\)`, 'u'));
}

describe('an interrupted run', () => {
  test('SIGINT to the process group (Ctrl-C): incomplete file beside the untouched complete one, exit 130', { timeout: 120_000 }, async () => {
    const run = await interruptedRun('sigint', (pid) => process.kill(-pid, 'SIGINT'));
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(130);
    expectIncompleteBesideComplete(run, 'SIGINT');
    // Item 4 would take a minute: the interrupt does not wait for it.
    expect(run.afterSignalMs).toBeLessThan(30_000);
  });

  test('SIGTERM to the main process only: the same, exit 143, without waiting for the slow item', { timeout: 120_000 }, async () => {
    const run = await interruptedRun('sigterm', (pid) => process.kill(pid, 'SIGTERM'));
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(143);
    expectIncompleteBesideComplete(run, 'SIGTERM');
    expect(run.afterSignalMs).toBeLessThan(30_000);
  });
});

describe('an interrupted run against a server (one request and one test at a time)', () => {
  let server: FakeServer;
  /** The prompts of the items' requests, in the order they reached the server. */
  const asked: string[] = [];
  /** The country whose question takes 30 s: the signal comes while it is asked. */
  let slow = 'France';
  beforeAll(async () => {
    server = await startFakeOpenAIServer({
      answer: (prompt) => (prompt.includes('Italy') ? ' Rome' : ' Somewhere'),
      fault: (_n, body) => {
        if (typeof body.prompt !== 'string' || !body.prompt.startsWith('The capital of')) return undefined;
        asked.push(body.prompt);
        return body.prompt.includes(slow) ? { kind: 'delay', ms: 30_000 } : undefined;
      },
    });
  });
  const serverEnv = () => ({ LOKAL_MODEL: 'openai:toy', OPENAI_BASE_URL: server.url, LOKAL_CONCURRENCY: '1', LOKAL_CACHE: 'off' });
  afterAll(async () => server?.close());

  const SENDS = [
    { how: 'Ctrl-C (SIGINT to the process group)', signal: 'SIGINT', code: 130, send: (pid: number) => process.kill(-pid, 'SIGINT') },
    { how: 'SIGTERM to the main process', signal: 'SIGTERM', code: 143, send: (pid: number) => process.kill(pid, 'SIGTERM') },
  ] as const;
  test.for(SENDS)('$how while item 2 is asked: item 1 kept, item 3 (started after the cancel) never asks, nothing fails', { timeout: 120_000 }, async ({ signal, code, send }) => {
    asked.length = 0;
    slow = 'France';
    const run = await interruptedRun(`server-${signal}`, send, {
      env: serverEnv(),
      // One test at a time: item 3 waits for its turn and starts once the cancel has ended item 2.
      args: ['--maxConcurrency=1'],
      started: () => asked.length >= 2,
      settleMs: 300,
    });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(run.code, show).toBe(code);
    expect(asked, show).toEqual(['The capital of Italy is', 'The capital of France is']);
    const results = JSON.parse(readFileSync(path.join(run.output, 'toy.incomplete.json'), 'utf8'));
    expect(results.continents.europe.records).toEqual([{ id: 1, reply: 'Rome', correct: true }]);
    // Ctrl-C reaches the worker too: it leaves the signal to the main process instead of dying mid-run.
    expect(show).not.toContain('Worker exited unexpectedly');
    expect(show).not.toContain('Cannot annotate');
    expect(run.stdout).not.toMatch(/Tests\s.*failed/u);
    expect(run.stdout).toMatch(/lokal: wrote \S*toy\.incomplete\.json \(complete: false; the 1 item that finished;/u);
    // Item 2's answer would take 30 s: the run does not wait for it.
    expect(run.afterSignalMs).toBeLessThan(20_000);
  });

  test('Ctrl-C while item 1 is asked: nothing finished, so nothing is written, and the run says why', { timeout: 120_000 }, async () => {
    asked.length = 0;
    slow = 'Italy';
    const run = await interruptedRun('server-first', (pid) => process.kill(-pid, 'SIGINT'), { env: serverEnv(), started: () => asked.length >= 1, settleMs: 300 });
    const show = `${run.stdout}\n${run.stderr}`;
    expect(run.code, show).toBe(130);
    expect(asked, show).toEqual(['The capital of Italy is']);
    expect(run.stdout).toContain('lokal: toy: the run was interrupted (SIGINT) before any of its items finished; its results file is left as it was');
    expect(readdirSync(run.output)).toEqual(['toy.json']);
    expect(readFileSync(path.join(run.output, 'toy.json'), 'utf8')).toBe(PREVIOUS);
  });
});

describe('the signal handling itself', () => {
  test('first signal: cancel and say so; second: exit at once with 128 + its number; disarm hands the signals back', () => {
    const calls: string[] = [];
    const before = () => calls.push('earlier listener');
    process.on('SIGTERM', before);
    const interrupt = new RunInterrupt({ cancel: () => calls.push('cancel'), log: (line) => calls.push(line), exit: (code) => calls.push(`exit ${code}`) });
    try {
      interrupt.arm();
      process.emit('SIGTERM', 'SIGTERM');
      expect(interrupt.signal).toBe('SIGTERM');
      process.emit('SIGINT', 'SIGINT');
      expect(calls).toEqual([
        'lokal: SIGTERM: stopping the run; the items that finished go to <benchmark>.incomplete.json (SIGTERM again exits at once)',
        'cancel',
        'lokal: SIGINT again: exiting at once; the results of this run are not written',
        'exit 130',
      ]);
    } finally {
      interrupt.disarm();
    }
    // The earlier listener had the signal taken away while armed, and has it back now.
    calls.length = 0;
    process.emit('SIGTERM', 'SIGTERM');
    expect(calls).toEqual(['earlier listener']);
    process.off('SIGTERM', before);
    expect([signalExitCode('SIGINT'), signalExitCode('SIGTERM')]).toEqual([130, 143]);
  });
});
