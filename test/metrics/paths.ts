// Where the shared data lies, relative to the repository root (never copied into the repo).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

export const repoRoot = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const italianArchivePath = path.resolve(repoRoot, '../shared/data/multiloko/benchmark_data.tar.xz.enc');
export const hasItalianArchive = existsSync(italianArchivePath);
export const hasPython = spawnSync('python3', ['--version']).status === 0;
