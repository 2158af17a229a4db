// What `lokal init` writes into a project: the README's setup (vitest.config.ts, one eval file per built-in
// benchmark) and a lokal.config.json naming the model, as docs/settings.md describes it. The data paths are left to
// their defaults (data/, data/kalahi): a benchmark whose data is absent there is skipped with a line saying how to get
// it, whereas a configured path that does not exist fails the run.
import { DEFAULT_MODEL } from '../models/defaults.ts';

/** The settings a new project starts from: the default model, named so that it is easy to change. */
export const INIT_SETTINGS = {
  model: `transformers:${DEFAULT_MODEL}`,
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
