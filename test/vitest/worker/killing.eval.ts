import { benchmarkSuite } from 'vitest-lokal/vitest';
import { killingCapitals } from './killingToy.ts';

await benchmarkSuite(killingCapitals);
