// The full-layout replay run once, in a user's project with a given build of the package installed, keeping what it
// wrote (multiloko.json, report.html) so two builds can be checked byte for byte on the same inputs, and optionally
// taking CPU profiles of the Vitest main process and its workers (Node's --cpu-prof):
//   npx tsx bench/replayOutputs.ts <keep-folder> [--dist <dist folder>] [--inputs <folder>] [--profile <folder>] [--compare <folder>]
// The inputs folder (default: lokal-replay-outputs below the temp folder) is generated once and reused, so every
// path the outputs name is the same from run to run.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { replayEnv, runVitest, writeFullInputs, writeInstalledProject } from './replay.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What the run writes that must not change with a faster implementation. */
export const KEPT_OUTPUTS = ['multiloko.json', 'report.html'];

export interface ReplayOutputsOptions {
  /** Where the outputs are copied. */
  keep: string;
  /** The compiled package to install (default: this repository's dist/). */
  dist?: string;
  /** The inputs and project folder, generated on first use. */
  inputs?: string;
  /** Where Node writes a .cpuprofile per process (main and workers); no profiling when absent. */
  profile?: string;
}

/** Runs the replay, copies its outputs to `keep`; returns its wall and CPU seconds. */
export async function replayOutputs(options: ReplayOutputsOptions): Promise<{ seconds: number; cpuSeconds: number | undefined; mainCpuSeconds: number | undefined }> {
  const dir = options.inputs ?? path.join(os.tmpdir(), 'lokal-replay-outputs');
  const dataset = path.join(dir, 'benchmark_data');
  const predictions = path.join(dir, 'predictions.jsonl');
  if (!existsSync(predictions)) {
    mkdirSync(dir, { recursive: true });
    writeFullInputs(dir);
  }
  rmSync(path.join(dir, 'project'), { recursive: true, force: true });
  const project = writeInstalledProject(dir, options.dist);
  const output = path.join(dir, 'results');
  rmSync(output, { recursive: true, force: true });
  // Node refuses --cpu-prof in NODE_OPTIONS: the main process gets it as a Node argument, the workers through Vitest's --execArgv.
  const profile = options.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profile)}`];
  if (options.profile) mkdirSync(options.profile, { recursive: true });
  const start = process.hrtime.bigint();
  const run = await runVitest(['run', 'evals/multiloko.eval.ts', ...profile.map((arg) => `--execArgv=${arg}`)], replayEnv({ dataset, predictions }, output), project, profile);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (run.code !== 0) throw new Error(`replay outputs: vitest exited with ${run.code}\n${run.output.slice(-3000)}`);
  mkdirSync(options.keep, { recursive: true });
  for (const name of KEPT_OUTPUTS) cpSync(path.join(output, name), path.join(options.keep, name));
  return { seconds, cpuSeconds: run.cpuSeconds, mainCpuSeconds: run.mainCpuSeconds };
}

/** The first byte offset at which two files differ, or undefined when they are the same. */
export function firstDifference(a: string, b: string): number | undefined {
  const x = readFileSync(a);
  const y = readFileSync(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return i;
  return x.length === y.length ? undefined : n;
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`replay outputs: ${name} needs a folder`);
  args.splice(at, 2);
  return value;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dist = option(args, '--dist');
  const inputs = option(args, '--inputs');
  const profile = option(args, '--profile');
  const compare = option(args, '--compare');
  const keep = args[0];
  if (keep === undefined || args.length > 1) {
    process.stderr.write('usage: npx tsx bench/replayOutputs.ts <keep-folder> [--dist <folder>] [--inputs <folder>] [--profile <folder>] [--compare <folder>]\n');
    process.exit(2);
  }
  const { seconds, cpuSeconds } = await replayOutputs({ keep, dist: dist ?? path.join(REPO_ROOT, 'dist'), ...(inputs ? { inputs } : {}), ...(profile ? { profile } : {}) });
  process.stdout.write(`replay outputs: ${seconds.toFixed(2)} s wall, ${cpuSeconds?.toFixed(2) ?? '?'} s CPU; kept ${KEPT_OUTPUTS.join(', ')} in ${keep}\n`);
  if (compare) {
    let differ = 0;
    for (const name of KEPT_OUTPUTS) {
      const at = firstDifference(path.join(compare, name), path.join(keep, name));
      process.stdout.write(at === undefined ? `same: ${name}\n` : `DIFFERENT: ${name} from byte ${at}\n`);
      if (at !== undefined) differ++;
    }
    if (differ > 0) process.exit(1);
  }
}
