import { benchmarkSuite } from 'vitest-lokal/vitest';
import { capitals } from './capitalsBenchmark.ts';

await benchmarkSuite(capitals);
