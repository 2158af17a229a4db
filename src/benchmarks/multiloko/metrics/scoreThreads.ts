// Worker threads for `lokal score`: started before the files are read (their start-up overlaps the reading), then
// given the whole batch; every thread, the main one included, claims chunks of examples from a shared counter until
// none is left, so a thread that is slowed down (a busy core) simply claims fewer.
import { Worker } from 'node:worker_threads';
import {
  emptyScoredBatch,
  scoreClaimedChunks,
  unpackChunks,
  type ExampleBatch,
  type ExampleFailure,
  type PackedChunks,
  type ScoredBatch,
} from './exampleBatch.ts';

/** What the main thread posts to each worker (the counter's memory is shared, the rest copied). */
export interface ScoreJob {
  texts: string[];
  starts: Int32Array;
  counter: SharedArrayBuffer;
  chunkSize: number;
}

export interface ScoreWorkerReply {
  packed: PackedChunks;
  failure?: ExampleFailure;
}

/** Examples per claim: about a millisecond of scoring, so the threads end within a chunk of each other. */
const CHUNK_SIZE = 32;

/**
 * A worker file in the sources (.ts) runs through tsx, as the sources do in a checkout (bin/lokal.js registers it in
 * the main thread only); the compiled .js runs as it is.
 */
function startWorker(file: URL): Worker {
  if (!file.pathname.endsWith('.ts')) return new Worker(file);
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}); });`;
  return new Worker(code, { eval: true });
}

export class ScoreThreads {
  readonly #workers: Worker[];
  // Each worker's reply, listened for from its start: a worker that fails while the files are still being read
  // rejects this (reported when score() awaits it) instead of raising an unhandled 'error' event.
  readonly #replies: Array<Promise<ScoreWorkerReply>>;

  /** Starts `workers` worker threads running `file` (src/cli/scoreWorker.ts, or its compiled dist/cli/scoreWorker.js). */
  constructor(file: URL, workers: number) {
    this.#workers = Array.from({ length: workers }, () => startWorker(file));
    this.#replies = this.#workers.map((worker) => replyOf(worker));
    // Closed without scoring (the input failed to read): the rejections of the ended workers are expected.
    for (const reply of this.#replies) reply.catch(() => undefined);
  }

  get workers(): number {
    return this.#workers.length;
  }

  /**
   * Scores every example of `batch` on the workers and, unless `mainThread` is false, on this thread too; then the
   * workers end. Rejects with the earliest failing example (as scoring them in order on one thread would meet it
   * first), or with a worker that died.
   */
  async score(batch: ExampleBatch, options: { mainThread?: boolean } = {}): Promise<{ scored: ScoredBatch; failure?: ExampleFailure }> {
    const counter = new SharedArrayBuffer(4);
    const job: ScoreJob = { texts: batch.texts, starts: batch.starts, counter, chunkSize: CHUNK_SIZE };
    const replies = this.#replies;
    for (const worker of this.#workers) worker.postMessage(job);
    const scored = emptyScoredBatch(batch);
    let failure: ExampleFailure | undefined;
    if (options.mainThread ?? true) failure = scoreClaimedChunks(batch, new Int32Array(counter), CHUNK_SIZE, scored).failure;
    try {
      for (const reply of await Promise.all(replies)) {
        unpackChunks(batch, reply.packed, CHUNK_SIZE, scored);
        if (reply.failure && (failure === undefined || reply.failure.example < failure.example)) failure = reply.failure;
      }
    } finally {
      this.close();
    }
    return failure ? { scored, failure } : { scored };
  }

  /** Ends the workers (they are not waited for: the process may exit at once). */
  close(): void {
    for (const worker of this.#workers) void worker.terminate();
  }
}

/** A worker's one reply; a worker that fails or exits without replying rejects with what it said. */
function replyOf(worker: Worker): Promise<ScoreWorkerReply> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', (error) => reject(new Error(`lokal score: a scoring thread failed: ${error.message}`, { cause: error })));
    worker.once('exit', (code) => reject(new Error(`lokal score: a scoring thread exited (code ${code}) before it replied`)));
  });
}
