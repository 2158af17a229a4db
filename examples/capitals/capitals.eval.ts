// One describe per topic, one test per question, a gate test per topic and the summary test.
import { benchmarkSuite } from 'vitest-lokal/vitest';
import { capitals } from './benchmark.ts';

await benchmarkSuite(capitals);
