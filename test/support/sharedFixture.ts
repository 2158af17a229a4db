// Fixtures built once per test run and shared by every test file that asks for them (models, replay runs):
//
//   const model = await sharedFixture('tiny-model', (dir) => writeTinyModel(dir, { seed: 3 }));
//   const model = await sharedTinyModel({ layers: 1, hidden: 32, vocab: 320, seed: 3 });
//
// A fixture is a folder under this run's sharedFixturesDir (provided by test/support/sharedFixtures.setup.ts, the
// project's globalSetup): the first file to ask builds it, files asking meanwhile (other workers) wait for it, later
// ones find it. Built on demand rather than in the global setup, so running one test file builds only what it uses.
// Treat a shared folder as read-only: write outputs, caches and changed copies elsewhere.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { writeTinyEncoder, type TinyEncoderSpec } from './tinyEncoder.ts';
import { writeTinyModel, type TinyModelSpec } from './tinyModel.ts';

const DONE = '.built';
const WAIT_MS = 10 * 60_000;
const building = new Map<string, Promise<string>>();

/** The folder `name` of this run's shared fixtures, built by `build(folder)` if no test file has built it yet. */
export function sharedFixture(name: string, build: (dir: string) => unknown): Promise<string> {
  if (!/^[\w.-]+$/u.test(name)) throw new Error(`shared fixture name ${JSON.stringify(name)}: use letters, digits, '.', '_' and '-'`);
  let pending = building.get(name);
  if (!pending) {
    const root = inject('sharedFixturesDir');
    if (!root) throw new Error('no sharedFixturesDir: run this file in the unit or slow project (vitest.config.ts sets up test/support/sharedFixtures.setup.ts)');
    pending = buildOnce(path.join(root, name), build);
    building.set(name, pending);
    pending.catch(() => building.delete(name));
  }
  return pending;
}

async function buildOnce(dir: string, build: (dir: string) => unknown): Promise<string> {
  const lock = `${dir}.lock`;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (existsSync(path.join(dir, DONE))) return dir;
    let owner = false;
    try {
      mkdirSync(lock);
      owner = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (owner) {
      try {
        if (existsSync(path.join(dir, DONE))) return dir;
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        await build(dir);
        writeFileSync(path.join(dir, DONE), '');
        return dir;
      } catch (error) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    }
    // Another worker is building it; if that fails, the lock goes and this one tries (and reports the error itself).
    if (Date.now() > deadline) throw new Error(`shared fixture ${dir}: still being built after ${WAIT_MS / 1000} s (remove ${lock} if no test run is going)`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The tiny causal LM of test/support/tinyModel.ts with this spec, written once per run; returns its folder. */
export function sharedTinyModel(spec: Partial<TinyModelSpec>): Promise<string> {
  return sharedFixture(`tiny-model-${specName(spec)}`, (dir) => writeTinyModel(dir, spec));
}

/** The tiny encoder of test/support/tinyEncoder.ts with this spec, written once per run; returns its folder. */
export function sharedTinyEncoder(spec: Partial<TinyEncoderSpec>): Promise<string> {
  return sharedFixture(`tiny-encoder-${specName(spec)}`, (dir) => writeTinyEncoder(dir, spec));
}

/** A folder name for a spec: its fields in key order, so equal specs share a folder. */
function specName(spec: object): string {
  return Object.entries(spec)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}_${String(value)}`)
    .join('-');
}
