// Kalahi as tests. Edit freely, or select without editing: LOKAL_KALAHI=data/kalahi LOKAL_KALAHI_VARIANT=full
// LOKAL_KALAHI_TASKS=mc,generation LOKAL_LIMIT=20 LOKAL_MODEL=transformers:<model> npx vitest run evals/kalahi.eval.ts
import { kalahi } from 'vitest-lokal/benchmarks';
import { benchmarkSuite } from 'vitest-lokal/vitest';

await benchmarkSuite(kalahi);
