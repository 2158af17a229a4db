import { benchmarkSuite } from 'vitest-lokal/vitest';
import { capitals } from './toyBenchmark.ts';

await benchmarkSuite(capitals);
