// A worker thread of `lokal score` (scoreThreads.ts starts it): takes one batch of examples, claims chunks of it from
// the counter shared with the other threads, and sends back what it scored, or the first example that failed.
import { parentPort } from 'node:worker_threads';
import { emptyScoredBatch, packChunks, scoreClaimedChunks, type ExampleBatch } from '../benchmarks/multiloko/metrics/exampleBatch.ts';
import type { ScoreJob, ScoreWorkerReply } from '../benchmarks/multiloko/metrics/scoreThreads.ts';

parentPort!.once('message', (job: ScoreJob) => {
  const batch: ExampleBatch = { texts: job.texts, starts: job.starts };
  const counter = new Int32Array(job.counter);
  const scored = emptyScoredBatch(batch);
  const { chunks, failure } = scoreClaimedChunks(batch, counter, job.chunkSize, scored);
  const packed = packChunks(batch, chunks, job.chunkSize, scored);
  const reply: ScoreWorkerReply = { packed, ...(failure ? { failure } : {}) };
  parentPort!.postMessage(reply, [packed.scores.buffer, packed.truncated.buffer]);
});
