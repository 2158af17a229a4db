// Progress of a run by benchmark, for logs where Vitest's live display is absent (CI, output to a file): items done of
// the total, items per second, items that asked the model vs those answered from the cache, and the time left.

/** Every `intervalMs` at most, one line per benchmark that is running. */
interface ProgressOptions {
  intervalMs: number;
  now?: () => number;
}

interface BenchmarkCounts {
  /** Item tests that will run (declared and not skipped at collection). */
  total: number;
  done: number;
  /** Finished items whose requests all came from the response cache, and those that asked the model. */
  fromCache: number;
  askedModel: number;
  /** When its first item started. */
  startedAt?: number;
  /** When its last line was printed. */
  shownAt?: number;
}

/** Counts items as they finish and says, when asked, which benchmarks are due a line. */
export class BenchmarkProgress {
  readonly #intervalMs: number;
  readonly #now: () => number;
  readonly #benchmarks = new Map<string, BenchmarkCounts>();
  /** Item test id → its benchmark, until it finishes. */
  readonly #pending = new Map<string, string>();

  constructor(options: ProgressOptions) {
    this.#intervalMs = options.intervalMs;
    this.#now = options.now ?? (() => performance.now());
  }

  #counts(benchmark: string): BenchmarkCounts {
    let counts = this.#benchmarks.get(benchmark);
    if (!counts) {
      counts = { total: 0, done: 0, fromCache: 0, askedModel: 0 };
      this.#benchmarks.set(benchmark, counts);
    }
    return counts;
  }

  /** An item test that will run (a test id seen twice counts once). */
  expect(benchmark: string, testId: string): void {
    if (this.#pending.has(testId)) return;
    this.#pending.set(testId, benchmark);
    this.#counts(benchmark).total++;
  }

  /** An item test started: its benchmark's clock starts with the first one. */
  started(testId: string): void {
    const benchmark = this.#pending.get(testId);
    if (benchmark === undefined) return;
    const counts = this.#counts(benchmark);
    counts.startedAt ??= this.#now();
  }

  /** An item test ended (any state); `calls` are its requests by origin (none for replay or a failure before asking). */
  finished(testId: string, calls?: { model: number; cached: number }): void {
    const benchmark = this.#pending.get(testId);
    if (benchmark === undefined) return;
    this.#pending.delete(testId);
    const counts = this.#counts(benchmark);
    counts.startedAt ??= this.#now();
    counts.done++;
    if (calls && calls.model > 0) counts.askedModel++;
    else if (calls && calls.cached > 0) counts.fromCache++;
  }

  /** Lines of the benchmarks that have started, are not finished and were last shown `intervalMs` ago or more. */
  due(): string[] {
    const now = this.#now();
    const lines: string[] = [];
    for (const [name, counts] of this.#benchmarks) {
      if (counts.startedAt === undefined || counts.done >= counts.total) continue;
      if (now - (counts.shownAt ?? counts.startedAt) < this.#intervalMs) continue;
      counts.shownAt = now;
      lines.push(progressLine(name, counts, now - counts.startedAt));
    }
    return lines;
  }
}

/** `3 min 05 s`, `42 s`, `1 h 02 min`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** `lokal: multiloko 120/400 items (30%) · 2.00 items/s · 100 asked the model, 20 from the cache · 2 min 20 s left`. */
export function progressLine(name: string, counts: Pick<BenchmarkCounts, 'total' | 'done' | 'fromCache' | 'askedModel'>, elapsedMs: number): string {
  const parts = [`lokal: ${name} ${counts.done}/${counts.total} items (${Math.floor((100 * counts.done) / counts.total)}%)`];
  const perSecond = elapsedMs > 0 ? (1000 * counts.done) / elapsedMs : 0;
  parts.push(`${perSecond.toFixed(perSecond >= 10 ? 1 : 2)} items/s`);
  if (counts.askedModel + counts.fromCache > 0) parts.push(`${counts.askedModel} asked the model, ${counts.fromCache} from the cache`);
  parts.push(perSecond > 0 ? `${formatDuration((1000 * (counts.total - counts.done)) / perSecond)} left` : `no item done in ${formatDuration(elapsedMs)}`);
  return parts.join(' · ');
}
