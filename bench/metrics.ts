// Speed of MultiLoKo scoring: 7,500 seeded multilingual (prediction, targets) pairs through scoreExample, all metrics.
// The reference eval.py needs about 4 s for as many on this machine; the goal is at least 5x faster (< 0.8 s).
import { randomPairs } from './randomPairs.ts';
import { scoreExample } from '../src/metrics/scoreExample.ts';

export const BENCH_ITEMS = 7500;

/** Times scoreExample over BENCH_ITEMS deterministic pairs (after a separate warm-up set, so the JIT is ready). */
export async function benchMetrics(): Promise<{ itemsPerSecond: number; seconds: number; items: number }> {
  const pairs = randomPairs(BENCH_ITEMS);
  for (const p of randomPairs(500, 1)) scoreExample(p.prediction, p.targets);
  const start = performance.now();
  let checksum = 0;
  for (const p of pairs) checksum += scoreExample(p.prediction, p.targets).scores.chrf;
  const seconds = (performance.now() - start) / 1000;
  if (!Number.isFinite(checksum)) throw new Error('benchMetrics: a score was not finite');
  return { itemsPerSecond: pairs.length / seconds, seconds, items: pairs.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchMetrics();
  console.log(`metrics: ${r.items} items in ${r.seconds.toFixed(3)} s (${Math.round(r.itemsPerSecond)} items/s)`);
}
