// The package as `npm run build` makes it, installed in a user's project without the registry: a copy of the files
// the build reads is built once (scripts/build.mjs) into a folder under the system's temp dir named by a hash of those
// files, so test files share one build and rerun without one until a source changes. A user project then gets the
// built package copied into its node_modules (Vitest loads it as a dependency, as after `npm install`) and every
// other package linked to this checkout's node_modules. For what the registry must do (npm pack, npm install), see
// test/package/pack.test.ts.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedFixture } from './sharedFixture.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What the build reads (the pages the package ships, README and docs/, are copied from the checkout at install). */
const BUILD_INPUTS = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'src', 'reporters', 'bin'];

function filesUnder(relative: string): string[] {
  const full = path.join(REPO_ROOT, relative);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full).sort().flatMap((name) => filesUnder(path.join(relative, name)));
}

/** SHA-256 over the build inputs' paths and contents. */
function inputsHash(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(path.join(REPO_ROOT, file))).update('\0');
  return hash.digest('hex').slice(0, 16);
}

function runBuild(cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/build.mjs'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`scripts/build.mjs in ${cwd} exited ${code}:\n${output.slice(-4000)}`))));
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The built package's folder (package.json, dist/, bin/, docs/ …), built when no build of these sources exists yet.
 * Concurrent callers (other test files) wait for the one that builds: a lock folder holds the builder's pid.
 */
export async function builtPackage(timeoutMs = 600_000): Promise<string> {
  const files = BUILD_INPUTS.flatMap(filesUnder);
  const folder = path.join(tmpdir(), `lokal-built-${inputsHash(files)}`);
  const done = path.join(folder, '.complete');
  const lock = `${folder}.lock`;
  const started = Date.now();
  while (!existsSync(done)) {
    try {
      mkdirSync(lock);
    } catch {
      // The builder's pid (absent for a moment after its mkdir, or gone with the lock when it finished).
      let holder = 0;
      try {
        holder = Number(readFileSync(path.join(lock, 'pid'), 'utf8')) || 0;
      } catch {
        holder = 0;
      }
      if (holder && !alive(holder)) rmSync(lock, { recursive: true, force: true });
      if (Date.now() - started > timeoutMs) throw new Error(`waited ${timeoutMs} ms for the build in ${folder} (lock ${lock})`);
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      rmSync(folder, { recursive: true, force: true });
      for (const file of files) cpSync(path.join(REPO_ROOT, file), path.join(folder, file));
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
      await runBuild(folder);
      rmSync(path.join(folder, 'node_modules'));
      writeFileSync(done, '');
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return folder;
}

/**
 * A user project at `project` with the built package installed as `vitest-lokal` (package.json "files" copied, as npm
 * would unpack the tarball), every other package of this checkout linked, and the bins `npx` finds: vitest and lokal.
 */
export async function installedProject(project: string, packageJson: Record<string, unknown> = { name: 'lokal-user', private: true, type: 'module' }): Promise<string> {
  const built = await builtPackage();
  const modules = path.join(project, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const entry of readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
    if (entry !== '.bin' && entry !== 'vitest-lokal') symlinkSync(path.join(REPO_ROOT, 'node_modules', entry), path.join(modules, entry), 'dir');
  }
  const installed = path.join(modules, 'vitest-lokal');
  const manifest = JSON.parse(readFileSync(path.join(built, 'package.json'), 'utf8')) as { files: string[] };
  for (const entry of ['package.json', ...manifest.files]) {
    const from = path.join(entry.startsWith('dist/') ? built : REPO_ROOT, entry);
    if (existsSync(from)) cpSync(from, path.join(installed, entry), { recursive: true });
  }
  mkdirSync(path.join(modules, '.bin'));
  symlinkSync(path.join(installed, 'bin', 'lokal.js'), path.join(modules, '.bin', 'lokal'));
  symlinkSync(path.join(modules, 'vitest', 'vitest.mjs'), path.join(modules, '.bin', 'vitest'));
  writeFileSync(path.join(project, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  return project;
}

/**
 * The `lokal` command as a user's install runs it (bin/lokal.js beside the built dist/, no sources), in a project set
 * up once per test run (sharedFixture): about 0.15 CPU-s a call, against 0.45–0.6 for this checkout's bin, which runs
 * the TypeScript sources through tsx until `npm run build` catches up with them.
 */
export async function lokalBin(): Promise<string> {
  const project = await sharedFixture('installed-lokal', (dir) => installedProject(dir));
  return path.join(project, 'node_modules', 'vitest-lokal', 'bin', 'lokal.js');
}

export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A command as a user types it in the project: run by sh, so `npx` finds the project's node_modules/.bin; without
 * what Vitest and npm set for this worker and without LOKAL_* settings; CI=1 (no live display), NO_COLOR.
 */
export function shellInProject(command: string, cwd: string, env: Record<string, string> = {}): Promise<ShellRun> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(base)) if (/^(VITEST|LOKAL_|npm_|GITHUB_)/u.test(name) || ['TEST', 'FORCE_COLOR', 'NODE_OPTIONS'].includes(name)) delete base[name];
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env: { ...base, CI: '1', NO_COLOR: '1', npm_config_offline: 'true', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
