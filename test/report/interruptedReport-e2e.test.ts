// Ctrl-C writes the report too: a real `vitest run` of the capitals dataset benchmark (test/dataset) with two models
// (LOKAL_MODEL=openai:first,openai:second, one after another) against a fake server, one request and one test at a
// time. The second model's second question takes 30 s; SIGINT to the process group (as Ctrl-C sends it) comes while
// it is asked. The first model finished: its report says so. The second did not: its folder has the incomplete
// results and a report whose verdict is "Incomplete", with the item it kept.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startFakeOpenAIServer, type FakeServer } from '../support/fakeOpenAIServer.ts';
import { childEnvironment, REPO_ROOT } from '../vitest/helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-interrupted-report-'));
const VITEST_BIN = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');

let server: FakeServer;
/** The second model's requests, in the order they reached the server. */
const second: string[] = [];
beforeAll(async () => {
  server = await startFakeOpenAIServer({
    answer: (prompt) => (prompt.includes('Italy') ? ' Rome' : prompt.includes('France') ? ' Paris' : ' Somewhere'),
    fault: (_n, body) => {
      const prompt = JSON.stringify(body.prompt ?? body.messages ?? '');
      if (body.model !== 'second' || !prompt.includes('What is the capital of')) return undefined;
      second.push(prompt);
      return prompt.includes('France') ? { kind: 'delay', ms: 30_000 } : undefined;
    },
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The report's verdict line: its data-verdict and its text. */
function verdict(file: string): { kind: string; text: string } {
  const match = /<p class="verdict[^"]*" id="verdict" data-verdict="([a-z]+)">(.*?)<\/p>/su.exec(readFileSync(file, 'utf8'));
  expect(match, file).not.toBeNull();
  return { kind: match![1]!, text: match![2]! };
}

test('Ctrl-C during the second model: each model has its report, the second one "Incomplete" with the item it kept', { timeout: 120_000 }, async () => {
  const output = path.join(dir, 'out');
  const child = spawn(process.execPath, [VITEST_BIN, 'run', '--config', 'test/dataset/vitest.config.ts', '--maxConcurrency=1'], {
    cwd: REPO_ROOT,
    detached: true, // its own process group, as a shell gives a foreground job
    env: { ...childEnvironment(), CI: '1', NO_COLOR: '1', LOKAL_REDACT: 'off', LOKAL_MODEL: 'openai:first,openai:second', OPENAI_BASE_URL: server.url, LOKAL_CONCURRENCY: '1', LOKAL_CACHE: 'off', LOKAL_OUTPUT: output },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const started = Date.now();
  while (second.length < 2) {
    if (Date.now() - started > 90_000) throw new Error(`the second model never asked its second question:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.kill(-child.pid!, 'SIGINT');
  const code = await exited;
  try {
    process.kill(-child.pid!, 'SIGKILL'); // a worker left behind, if any
  } catch {
    // the group is gone
  }
  expect(code, out).toBe(130);
  const folders = readdirSync(output, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  expect(folders, out).toHaveLength(2);
  const [first, cut] = [folders.find((f) => f.includes('first'))!, folders.find((f) => f.includes('second'))!];
  expect(readdirSync(path.join(output, first)).sort(), out).toEqual(['capitals.json', 'report.html']);
  expect(readdirSync(path.join(output, cut)).sort(), out).toEqual(['capitals.incomplete.json', 'report.html']);
  expect(verdict(path.join(output, first, 'report.html')).kind).not.toBe('incomplete');
  const incomplete = JSON.parse(readFileSync(path.join(output, cut, 'capitals.incomplete.json'), 'utf8'));
  expect(incomplete.complete).toBe(false);
  const shown = verdict(path.join(output, cut, 'report.html'));
  expect(shown.kind).toBe('incomplete');
  expect(shown.text).toBe(`✗ Incomplete: ${incomplete.missing_subsets.map((g: string) => `capitals ${g}`).join(', ')} did not finish, so the run fails.`);
  expect(out).toMatch(new RegExp(`lokal: report \\S*${cut}/report\\.html`, 'u'));
  // The first model's 10 items and the second's first: the counts of what was kept, said once for the run.
  expect(incomplete.groups.flatMap((g: { records: unknown[] }) => g.records)).toHaveLength(1);
  expect(out.match(/lokal: SIGINT: \d+ items? finished and kept in all/gu), out).toEqual(['lokal: SIGINT: 11 items finished and kept in all']);
});
