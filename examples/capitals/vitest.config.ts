// The benchmark registered with the reporter, so that it rolls it up (table, gates, results/capitals.json, report).
import { defineConfig } from 'vitest/config';
import { lokalEvals } from 'vitest-lokal/config';
import { capitals } from './benchmark.ts';

export default defineConfig({ test: lokalEvals({ include: ['capitals/*.eval.ts'], benchmarks: [capitals] }) });
