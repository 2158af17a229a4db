// What `lokal init` writes into a project: the README's setup (vitest.config.ts, one eval file per built-in
// benchmark) and a lokal.config.json naming the model and where the data is, as docs/settings.md describes them.
import { DEFAULT_MODEL } from '../models/defaults.ts';

/** The model and data settings a new project starts from: the default model, the folders `lokal data fetch` fills. */
export const INIT_SETTINGS = {
  model: `transformers:${DEFAULT_MODEL}`,
  multiloko: { data: 'data' },
  kalahi: { data: 'data/kalahi' },
} as const;

const evalFile = (benchmark: string) =>
  [
    "import { benchmarkSuite } from 'vitest-lokal/vitest';",
    `import { ${benchmark} } from 'vitest-lokal/benchmarks';`,
    `await benchmarkSuite(${benchmark});`,
    '',
  ].join('\n');

/** Project-relative path → text, in the order they are written. */
export function projectFiles(): Record<string, string> {
  return {
    'vitest.config.ts': [
      "import { defineConfig } from 'vitest/config';",
      "import { lokalEvals } from 'vitest-lokal/config';",
      'export default defineConfig({ test: lokalEvals() });',
      '',
    ].join('\n'),
    'evals/multiloko.eval.ts': evalFile('multiloko'),
    'evals/kalahi.eval.ts': evalFile('kalahi'),
    'lokal.config.json': `${JSON.stringify(INIT_SETTINGS, null, 2)}\n`,
  };
}
