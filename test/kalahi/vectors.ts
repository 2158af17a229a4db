// The METRICS.md §11 vectors, verified against the reference implementations; test/fixtures holds a copy of
// ../shared/docs/metric-vectors.json so they run on every clone (test/fixtures.test.ts checks the copy is current).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface MetricVector {
  metric: string;
  variant: string;
  hypothesis: string;
  references: string[];
  expected: number | string;
  note: string;
  inputs?: Record<string, unknown>;
}

export const VECTORS_FILE = fileURLToPath(new URL('../fixtures/metric-vectors.json', import.meta.url));
export const HAVE_VECTORS = existsSync(VECTORS_FILE);

export function vectors(prefix: string): MetricVector[] {
  if (!HAVE_VECTORS) return [];
  const all = JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as MetricVector[];
  return all.filter((v) => v.metric === prefix || v.metric.startsWith(`${prefix}.`));
}

/** METRICS.md §1: 0–1 scale metrics under a tolerance agree to 1e-14. */
export const TOL_UNIT = 1e-14;
