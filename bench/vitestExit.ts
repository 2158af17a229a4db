// Part of `npm run bench -- load`: a real `vitest run --project evals` of both eval files (MultiLoKo and Kalahi,
// LOKAL_LIMIT=2, response cache off) on the model, timing how long the process takes to end after the lokal
// reporter's last line (the goal: at most 1 s). The model loads from the saved optimised graph the load part built.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface VitestExitRun {
  /** Seconds from the process's start to its end. */
  totalSeconds: number;
  /** Seconds from Vitest's own summary ("Test Files …") to the lokal reporter's last line. */
  reporterSeconds: number;
  /** Seconds from the last line (stdout or stderr) to the process's end. */
  exitDelaySeconds: number;
}

/** The data both eval files need: LOKAL_MULTILOKO / LOKAL_KALAHI, else the shared data beside the repository. */
export function evalData(): { multiloko: string; kalahi: string } | undefined {
  const multiloko = process.env.LOKAL_MULTILOKO ?? path.join(repoRoot, '../shared/data/multiloko/benchmark_data.tar.xz.enc');
  const kalahi = process.env.LOKAL_KALAHI ?? path.join(repoRoot, '../shared/data/kalahi');
  return existsSync(multiloko) && existsSync(kalahi) ? { multiloko, kalahi } : undefined;
}

/** One `vitest run` of both eval files with `transformers:<dir>`; the saved graph is looked up in `modelCache`. */
export function vitestExitRun(dir: string, modelCache: string, data: { multiloko: string; kalahi: string }): Promise<VitestExitRun> {
  const output = mkdtempSync(path.join(tmpdir(), 'lokal-bench-exit-'));
  const env = {
    ...process.env,
    LOKAL_MODEL: `transformers:${dir}`,
    LOKAL_MODEL_CACHE: modelCache,
    LOKAL_MULTILOKO: data.multiloko,
    LOKAL_KALAHI: data.kalahi,
    LOKAL_LIMIT: '2',
    LOKAL_CACHE: 'off',
    LOKAL_OUTPUT: output,
    LOKAL_BLEURT_MODEL: 'off',
    LOKAL_BERTSCORE_MODEL: 'off',
  };
  const args = [path.join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'evals', 'evals/multiloko.eval.ts', 'evals/kalahi.eval.ts'];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const proc = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let lastLineAt = started;
    let summaryAt: number | undefined;
    let text = '';
    for (const stream of [proc.stdout, proc.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        const piece = chunk.toString();
        text += piece;
        if (summaryAt === undefined && /Test Files/u.test(piece)) summaryAt = performance.now();
        if (piece.trim() !== '') lastLineAt = performance.now();
      });
    }
    proc.on('error', reject);
    proc.on('close', (code) => {
      const ended = performance.now();
      rmSync(output, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`load: the vitest run exited ${code}: ${text.slice(-3000)}`));
      resolve({
        totalSeconds: (ended - started) / 1000,
        reporterSeconds: ((lastLineAt - (summaryAt ?? lastLineAt)) / 1000),
        exitDelaySeconds: (ended - lastLineAt) / 1000,
      });
    });
  });
}
