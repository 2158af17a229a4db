// Progress lines in a real non-interactive run: a child `vitest run` (CI=1, output piped) asking a slow fake
// OpenAI-compatible server, with LOKAL_PROGRESS_INTERVAL=1. Lines must appear, count up, and say every finished item
// asked the model (the cache is off).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startFakeOpenAIServer } from '../support/fakeOpenAIServer.ts';
import { MULTILOKO_EVAL, datasetSpec, runVitest, writeDataset } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a slow run prints progress lines every interval: done/total, items/s, model vs cache, time left', async () => {
  // Chat prompts need each item's output type.
  const spec = datasetSpec(6).map((s) => ({ ...s, items: s.items.map((item) => ({ ...item, output_type: 'a name' })) }));
  const total = spec.reduce((n, s) => n + s.items.length, 0);
  const server = await startFakeOpenAIServer({ latencyMs: 400 });
  try {
    const started = performance.now();
    const run = await runVitest(['run', '--project', 'evals', MULTILOKO_EVAL], {
      LOKAL_MULTILOKO: writeDataset(dir, spec),
      LOKAL_MODEL: 'openai:toy',
      OPENAI_BASE_URL: server.url,
      LOKAL_CONCURRENCY: '2',
      LOKAL_CACHE: 'off',
      LOKAL_OUTPUT: path.join(dir, 'out'),
      LOKAL_PROGRESS_INTERVAL: '1',
    });
    const seconds = (performance.now() - started) / 1000;
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.code, output.slice(-3000)).toBe(0);
    const pattern = /^lokal: multiloko (\d+)\/(\d+) items \((\d+)%\) · ([\d.]+) items\/s · (\d+) asked the model, (\d+) from the cache · .+ left$/u;
    const waiting = new RegExp(`^lokal: multiloko 0/${total} items \\(0%\\) · 0\\.00 items/s · no item done in \\d+ s$`, 'u');
    const lines = run.stdout.split('\n').filter((line) => line.startsWith('lokal: multiloko '));
    // 36 items two at a time at 400 ms each take 7.2 s at least (Vitest may hold results back for a while on a busy
    // machine): two lines at least, one a second at most.
    expect(lines.length, output.slice(-3000)).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    // On a busy machine the first line may come before any item is done; later ones count.
    const counting = lines.filter((line) => !waiting.test(line));
    expect(counting.length, lines.join('\n')).toBeGreaterThanOrEqual(1);
    let previous = 0;
    for (const line of counting) {
      const match = pattern.exec(line);
      expect(match, line).not.toBeNull();
      const [done, of, percent, , asked, cached] = [1, 2, 3, 4, 5, 6].map((i) => Number(match![i]));
      expect(of).toBe(total);
      expect(done).toBeGreaterThanOrEqual(previous);
      expect(done).toBeLessThan(total);
      expect(percent).toBe(Math.floor((100 * done) / total));
      expect([asked, cached]).toEqual([done, 0]);
      previous = done;
    }
  } finally {
    await server.close();
  }
});
