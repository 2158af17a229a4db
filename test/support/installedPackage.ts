// The package as `npm pack` makes it, installed in a user's project without the registry: a copy of this checkout (the
// files a fresh clone plus the working tree has) is packed once per change of its files into a folder under the
// system's temp dir named by their hash; npm pack's prepack script (scripts/build.mjs) builds dist/ there. The pack
// test installs the tarball with npm (test/package/pack.test.ts); other tests get the built package copied into a
// project's node_modules (Vitest loads it as a dependency, as after `npm install`) and every other package linked to
// this checkout's node_modules. One build serves both: it is 12 CPU-s.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedFixture } from './sharedFixture.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** This checkout's files as a fresh clone plus the working tree would have them: tracked and untracked, not ignored. */
function checkoutFiles(): string[] {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${REPO_ROOT}: ${listed.stderr || listed.error?.message}`);
  return listed.stdout.split('\0').filter((f) => f && existsSync(path.join(REPO_ROOT, f))).sort();
}

/**
 * SHA-256 over the files' paths and contents, test/ left out: tests are not in the package (the pack test checks
 * that), so editing one does not make the next run pack again.
 */
function inputsHash(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    if (!file.startsWith('test/')) hash.update(readFileSync(path.join(REPO_ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The environment for npm and the user's commands: without what Vitest set for this worker, without LOKAL_* settings,
 * without what `npm test` set for this package (npm_package_*, npm_lifecycle_*, its local prefix) and without this
 * checkout's node_modules/.bin on PATH. User-level npm settings (cache, registry, certificates) stay.
 */
export function userEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(VITEST|LOKAL_|npm_package_|npm_lifecycle_)/.test(name) || ['TEST', 'FORCE_COLOR', 'NODE_OPTIONS', 'npm_command', 'npm_config_local_prefix', 'INIT_CWD'].includes(name)) {
      delete env[name];
    }
  }
  const repoBin = path.join(REPO_ROOT, 'node_modules', '.bin');
  env.PATH = (env.PATH ?? '').split(path.delimiter).filter((p) => path.resolve(p) !== repoBin).join(path.delimiter);
  return env;
}

/** `npm pack --json` in `cwd` (its prepack script builds dist/ there); the tarball goes to `destination`. */
function runPack(cwd: string, destination: string): Promise<{ report: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['pack', '--json', '--pack-destination', destination], { cwd, env: { ...userEnvironment(), CI: '1', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`npm pack in ${cwd} exited ${code}:\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`));
      resolve({ report: stdout.slice(stdout.indexOf('[\n')), ms: Math.round(performance.now() - started) });
    });
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

export interface PackedPackage {
  /** The packed copy of the checkout: package.json, dist/ as prepack built it, bin/, docs/ … */
  folder: string;
  /** The tarball npm pack wrote. */
  tarball: string;
  /** npm pack's JSON report of the tarball's files. */
  files: Array<{ path: string }>;
  /** How long npm pack took, when this call ran it. */
  packMs?: number;
}

const PACKED_COPY = /^lokal-packed-[0-9a-f]{16}$/u;

/**
 * Removes the packed copies in `parent` other than `keep` that no run has used for `maxAgeMs` (each use touches its
 * report.json; an unfinished copy counts from its folder's time) and that no packer holds: each change of the
 * checkout packs a new 10 MB copy, and the older ones would stay in tmp until a reboot. Returns the names removed.
 */
export function removeStalePackedCopies(parent: string, keep: string, maxAgeMs = 24 * 3_600_000, now = Date.now()): string[] {
  const removed: string[] = [];
  for (const entry of readdirSync(parent)) {
    const folder = path.join(parent, entry);
    if (!PACKED_COPY.test(entry) || entry === keep || existsSync(`${folder}.lock`)) continue;
    const report = path.join(folder, '.npm-pack', 'report.json');
    try {
      const used = statSync(existsSync(report) ? report : folder).mtimeMs;
      if (now - used <= maxAgeMs) continue;
    } catch {
      continue; // removed meanwhile by another run
    }
    rmSync(folder, { recursive: true, force: true });
    removed.push(entry);
  }
  return removed;
}

/**
 * This checkout packed by npm, packed when no pack of these files exists yet. Concurrent callers (other test files)
 * wait for the one that packs: a lock folder holds the packer's pid.
 */
export async function packedPackage(timeoutMs = 600_000): Promise<PackedPackage> {
  const files = checkoutFiles();
  const folder = path.join(tmpdir(), `lokal-packed-${inputsHash(files)}`);
  const tarballs = path.join(folder, '.npm-pack');
  const reportFile = path.join(tarballs, 'report.json');
  const lock = `${folder}.lock`;
  const started = Date.now();
  let packMs: number | undefined;
  while (!existsSync(reportFile)) {
    try {
      mkdirSync(lock);
    } catch {
      // The packer's pid (absent for a moment after its mkdir, or gone with the lock when it finished).
      let holder = 0;
      try {
        holder = Number(readFileSync(path.join(lock, 'pid'), 'utf8')) || 0;
      } catch {
        holder = 0;
      }
      if (holder && !alive(holder)) rmSync(lock, { recursive: true, force: true });
      if (Date.now() - started > timeoutMs) throw new Error(`waited ${timeoutMs} ms for npm pack in ${folder} (lock ${lock})`);
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      rmSync(folder, { recursive: true, force: true });
      for (const file of files) cpSync(path.join(REPO_ROOT, file), path.join(folder, file));
      symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
      mkdirSync(tarballs);
      const packed = await runPack(folder, tarballs);
      packMs = packed.ms;
      rmSync(path.join(folder, 'node_modules'));
      // the report last: a folder without it is unfinished
      writeFileSync(reportFile, packed.report);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    removeStalePackedCopies(tmpdir(), path.basename(folder));
  }
  const now = new Date();
  utimesSync(reportFile, now, now); // in use: not stale for another run's removeStalePackedCopies
  const [report] = JSON.parse(readFileSync(reportFile, 'utf8')) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { folder, tarball: path.join(tarballs, report!.filename), files: report!.files, packMs };
}

/** The built package's folder (package.json, dist/, bin/, docs/ …): the packed copy of the checkout. */
export async function builtPackage(): Promise<string> {
  return (await packedPackage()).folder;
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
    const from = path.join(built, entry);
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
