// The compiled package in dist/ for benches that time a process as users run it (compiled JavaScript, not tsx).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Latest modification time of anything under `dir` (as bin/lokal.js decides whether dist/ is current). */
function newestUnder(dir: string): number {
  let latest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newestUnder(child) : statSync(child).mtimeMs);
  }
  return latest;
}

/** Whether bin/lokal.js will run the compiled dist/ (a build that started after the last change to src/ and reporters/). */
function distIsCurrent(): boolean {
  const stamp = path.join(REPO_ROOT, 'dist', '.build');
  if (!existsSync(stamp) || !existsSync(path.join(REPO_ROOT, 'dist', 'cli', 'index.js'))) return false;
  const started = Number(readFileSync(stamp, 'utf8'));
  return ['src', 'reporters'].every((dir) => newestUnder(path.join(REPO_ROOT, dir)) < started);
}

/** `npm run build` when dist/ is missing or older than the sources, so the bin runs compiled JavaScript, not tsx. */
export function ensureBuild(): void {
  if (distIsCurrent()) return;
  console.log('bench: dist/ is missing or stale; npm run build');
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs')], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (!distIsCurrent()) throw new Error('bench: dist/ is still not current after npm run build (sources changed meanwhile?)');
}
