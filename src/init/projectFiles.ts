// What `lokal init` writes into a project: the README's setup (vitest.config.ts, one eval file per built-in
// benchmark) and a lokal.config.json naming the model, as docs/settings.md describes it. The data paths are left to
// their defaults (data/, data/kalahi): a benchmark whose data is absent there is skipped with a line saying how to get
// it, whereas a configured path that does not exist fails the run.
import { DEFAULT_MODEL } from '../models/defaults.ts';
import { partFile } from './itemCounts.ts';

/** The settings a new project starts from: the default model, named so that it is easy to change. */
const INIT_SETTINGS = {
  model: `transformers:${DEFAULT_MODEL}`,
} as const;

/** The benchmarks init writes eval files for, in the order a part file runs them. */
const BENCHMARKS = ['multiloko', 'kalahi'] as const;

/**
 * Part `index` of `count` of every benchmark: with one such file per shard, Vitest's --shard (which splits the files,
 * sorted by a hash of their paths, into runs of ⌊files / shards⌋ or one more) gives each shard exactly one.
 */
const partEvalFile = (index: number, count: number) =>
  [
    `// Part ${index} of ${count} of every benchmark (written by \`lokal init --ci github --shards ${count}\`): the ${count} part files run each item once,`,
    '// and the merged reports give the unsharded run\'s results (docs/setup.md).',
    "import { benchmarkSuite } from 'vitest-lokal/vitest';",
    `import { ${BENCHMARKS.join(', ')} } from 'vitest-lokal/benchmarks';`,
    ...BENCHMARKS.map((b) => `await benchmarkSuite(${b}, { part: [${index}, ${count}] });`),
    '',
  ].join('\n');

const evalFile = (benchmark: string) =>
  [
    "import { benchmarkSuite } from 'vitest-lokal/vitest';",
    `import { ${benchmark} } from 'vitest-lokal/benchmarks';`,
    `await benchmarkSuite(${benchmark});`,
    '',
  ].join('\n');

/** Project-relative path → text, in the order they are written; `parts` > 1: a part file per shard instead of one per benchmark. */
export function projectFiles(parts = 1): Record<string, string> {
  const evals: Record<string, string> =
    parts > 1
      ? Object.fromEntries(Array.from({ length: parts }, (_, i) => [partFile(i + 1, parts), partEvalFile(i + 1, parts)]))
      : Object.fromEntries(BENCHMARKS.map((b) => [`evals/${b}.eval.ts`, evalFile(b)]));
  return {
    'vitest.config.ts': [
      "import { defineConfig } from 'vitest/config';",
      "import { lokalEvals } from 'vitest-lokal/config';",
      'export default defineConfig({ test: lokalEvals() });',
      '',
    ].join('\n'),
    ...evals,
    'lokal.config.json': `${JSON.stringify(INIT_SETTINGS, null, 2)}\n`,
  };
}
