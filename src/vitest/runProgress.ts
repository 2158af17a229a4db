// The reporter's side of the progress lines: item tests by benchmark from the collected modules, their starts and
// results, and a timer that prints what BenchmarkProgress says is due. Only in non-interactive runs (CI, a log file),
// where Vitest shows nothing until a file ends; LOKAL_PROGRESS_INTERVAL=0 turns it off.
import type { TestCase, TestModule } from 'vitest/node';
import { resolveSettingsTree, sharedSettings, type SettingsTree } from '../core/settings.ts';
import { BENCHMARKS } from '../benchmarks/index.ts';
import './meta.ts';
import { BenchmarkProgress } from './progress.ts';
import { groupTests } from './views.ts';

/** Seconds between two progress lines of a benchmark when LOKAL_PROGRESS_INTERVAL is not set. */
const DEFAULT_PROGRESS_INTERVAL_S = 10;

/** Output goes to a log, not to a terminal with Vitest's live display. */
export function isNonInteractive(env: Readonly<Record<string, string | undefined>> = process.env, stdout: { isTTY?: boolean } = process.stdout): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  return ci || !stdout.isTTY;
}

export class RunProgress {
  readonly #log: (line: string) => void;
  #progress: BenchmarkProgress | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Modules collected and not yet counted. */
  #uncounted: TestModule[] = [];

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** Starts counting when the run is non-interactive and the interval is not 0 (a settings error leaves it off). */
  start(settings: SettingsTree | undefined, cwd: string, interactive = !isNonInteractive()): void {
    this.stop();
    if (interactive) return;
    let seconds: number;
    try {
      const tree = resolveSettingsTree(
        BENCHMARKS.map((b) => b.settings),
        settings,
        { cwd },
      );
      seconds = sharedSettings(tree).progressInterval ?? DEFAULT_PROGRESS_INTERVAL_S;
    } catch {
      return; // the run's end reports the settings error
    }
    if (seconds === 0) return;
    const progress = new BenchmarkProgress({ intervalMs: seconds * 1000 });
    this.#progress = progress;
    this.#timer = setInterval(() => {
      for (const line of progress.due()) this.#log(line);
    }, Math.min(seconds * 1000, 1000));
    this.#timer.unref();
  }

  /**
   * The module's item tests that will run, by benchmark (a group suite is the one whose tests include a gate). Counted
   * just after this hook returns: Vitest's worker waits for every reporter's hook before it runs a test, and walking a
   * full run's 37,750 tests took 0.1 s of that wait. The first start or result counts them first, so nothing is missed.
   */
  collected(module: TestModule): void {
    if (!this.#progress) return;
    this.#uncounted.push(module);
    if (this.#uncounted.length === 1) setImmediate(() => this.#count());
  }

  #count(): void {
    const modules = this.#uncounted;
    this.#uncounted = [];
    const progress = this.#progress;
    if (!progress) return;
    for (const module of modules) {
      for (const suite of module.children.allSuites()) {
        const parts = groupTests([...suite.children.tests()], (t) => t.meta());
        if (!parts) continue;
        for (const test of suite.children.allTests()) {
          if (test.meta().lokalGroup || test.options.mode === 'skip' || test.options.mode === 'todo') continue;
          progress.expect(parts.info.benchmark, test.id);
        }
      }
    }
  }

  ready(test: TestCase): void {
    if (this.#uncounted.length > 0) this.#count();
    this.#progress?.started(test.id);
  }

  result(test: TestCase): void {
    if (this.#uncounted.length > 0) this.#count();
    this.#progress?.finished(test.id, test.meta().lokalCalls);
  }

  stop(): void {
    this.#uncounted = [];
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#progress = undefined;
  }
}
