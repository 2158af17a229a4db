// The one-way layers of docs/development.md, checked by dependency-cruiser with the repository's own rules
// (.dependency-cruiser.cjs): the real tree has no violation at all (no list of known ones is kept), and the rules do
// catch an upward import and a cycle in a small tree made for the purpose.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cruise, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { REPO_ROOT } from '../support/installedPackage.ts';

const CONFIG = path.join(REPO_ROOT, '.dependency-cruiser.cjs');

/** One line a violation, as `npm run lint:layers` names it: rule, from → to (the cycle's files for a cycle). */
function described(violation: IViolation): string {
  const cycle = violation.cycle?.map((step) => step.name).join(' → ');
  return `${violation.rule.name}: ${violation.from} → ${cycle ?? violation.to}`;
}

/** Cruises `targets` under `baseDir` with the repository's rules; every violation found. */
async function violations(baseDir: string, targets: string[]): Promise<string[]> {
  const cruiseOptions = { ...(await extractDepcruiseOptions(CONFIG)), baseDir };
  const { output } = await cruise(targets, cruiseOptions);
  if (typeof output === 'string') throw new Error(`dependency-cruiser gave text, not a result: ${output}`);
  return output.summary.violations.map(described).sort();
}

describe('one-way layers (dependency-cruiser, .dependency-cruiser.cjs)', () => {
  test('src and reporters import only down the layers, with no cycle', async () => {
    const found = await violations(REPO_ROOT, ['src', 'reporters']);
    // Printed in full: each line says which layer imported which file (fix: move the piece down a layer).
    expect(found, found.join('\n')).toEqual([]);
  });

  const tree = mkdtempSync(path.join(tmpdir(), 'lokal-layers-'));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  test('an upward import and a cycle in a small tree are both reported', async () => {
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
      writeFileSync(path.join(tree, file), text);
    };
    // Upward: the data layer (lowest) takes a helper from the report layer.
    write('src/data/reader.ts', "import { title } from '../report/title.ts';\nexport const read = () => title('x');\n");
    write('src/report/title.ts', "export const title = (text: string) => text.toUpperCase();\n");
    // A cycle inside one layer: allowed by the layer rules, caught by no-circular.
    write('src/metrics/left.ts', "import { right } from './right.ts';\nexport const left = () => right() + 1;\n");
    write('src/metrics/right.ts', "import type { left } from './left.ts';\nexport const right = (): ReturnType<typeof left> => 1;\n");
    // A downward import is fine.
    write('src/report/summary.ts', "import { left } from '../metrics/left.ts';\nexport const summary = () => left();\n");
    const found = await violations(tree, ['src']);
    expect(found).toEqual([
      'layer-data: src/data/reader.ts → src/report/title.ts',
      'no-circular: src/metrics/left.ts → src/metrics/right.ts → src/metrics/left.ts',
    ]);
  });

  test('inside a benchmark, a folder imports only the folders before it, and only its own benchmark\'s', async () => {
    const benchmarks = mkdtempSync(path.join(tmpdir(), 'lokal-concepts-'));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(benchmarks, file)), { recursive: true });
        writeFileSync(path.join(benchmarks, file), text);
      };
      // Upward: metrics/ takes a type from run/ (metrics come before the run).
      write('src/benchmarks/kalahi/metrics/score.ts', "import type { Row } from '../run/records.ts';\nexport const score = (row: Row) => row.text.length;\n");
      write('src/benchmarks/kalahi/run/records.ts', "export interface Row { text: string }\n");
      // Downward: results/ reads run/'s records, the definition reads results/.
      write('src/benchmarks/kalahi/results/table.ts', "import type { Row } from '../run/records.ts';\nexport const table = (rows: Row[]) => rows.length;\n");
      write('src/benchmarks/kalahi/definition.ts', "import { table } from './results/table.ts';\nexport const definition = { table };\n");
      // Another benchmark's results/: the benchmark rule's, not the folder order's (that one holds within a benchmark).
      write('src/benchmarks/multiloko/run/plan.ts', "import { table } from '../../kalahi/results/table.ts';\nexport const plan = () => table([]);\n");
      expect(await violations(benchmarks, ['src'])).toEqual([
        'benchmark-multiloko: src/benchmarks/multiloko/run/plan.ts → src/benchmarks/kalahi/results/table.ts',
        'concept-metrics: src/benchmarks/kalahi/metrics/score.ts → src/benchmarks/kalahi/run/records.ts',
      ]);
    } finally {
      rmSync(benchmarks, { recursive: true, force: true });
    }
  });
});
