// Where the shared specs and data lie, relative to the repository root (the data is never copied into the repo; the
// reference vectors are, in test/fixtures, so the exactness tests run on every clone).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

export const repoRoot = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const metricVectorsPath = path.resolve(repoRoot, 'test/fixtures/metric-vectors.json');
export const italianArchivePath = path.resolve(repoRoot, '../shared/data/multiloko/benchmark_data.tar.xz.enc');
export const hasMetricVectors = existsSync(metricVectorsPath);
export const hasItalianArchive = existsSync(italianArchivePath);
export const hasPython = spawnSync('python3', ['--version']).status === 0;
