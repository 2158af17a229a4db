// Benchmark: the provider with V8's concurrent marking turned off while onnxruntime's threads take every CPU
// (src/models/concurrentMarking.ts) against the same process started with `--concurrent-marking` (which the provider
// leaves as chosen): 32 requests as a Vitest file asks them, each side a fresh process, alternating, answers compared.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface MarkingRound {
  seconds: number;
  answers: string[];
  marking: string;
  threads: number | undefined;
}

/** `rounds` alternating pairs of child processes; `kept` started with --concurrent-marking, `stopped` as users run it. */
export function benchConcurrentMarking(dir: string, cacheDir: string, data: string, rounds: number, items = 32, tokens = 32): { stopped: MarkingRound[]; kept: MarkingRound[] } {
  const run = (flags: string[]): MarkingRound => {
    const args = [...flags, '--import', 'tsx', path.join(repoRoot, 'bench/markingChild.ts'), dir, cacheDir, data, String(items), String(tokens)];
    const child = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 26 });
    if (child.status !== 0) throw new Error(`marking: the child failed (${child.status ?? child.signal}): ${(child.stderr || child.stdout).slice(-2000)}`);
    return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as MarkingRound;
  };
  const stopped: MarkingRound[] = [];
  const kept: MarkingRound[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['stopped', 'kept'] as const) : (['kept', 'stopped'] as const);
    for (const side of order) (side === 'stopped' ? stopped : kept).push(run(side === 'kept' ? ['--concurrent-marking'] : []));
  }
  return { stopped, kept };
}
