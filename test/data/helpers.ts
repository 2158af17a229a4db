// Test helpers: build MultiLoKo-style archives in memory (tar-stream pack → xz → openssl-compatible AES-256-CBC).
import { createCipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compress } from '@napi-rs/lzma/xz';
import tar from 'tar-stream';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const fixtureDir = path.join(repoRoot, 'data/fixtures/multiloko');
export const sharedData = path.resolve(repoRoot, '../shared/data');
export const realArchive = path.join(sharedData, 'multiloko/benchmark_data.tar.xz.enc');

export interface TarEntry {
  name: string;
  content?: string | Uint8Array;
  type?: 'file' | 'directory' | 'symlink' | 'link';
  linkname?: string;
}

/** A tar archive of the given entries, written by tar-stream's packer. */
export async function packTar(entries: TarEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  for (const e of entries) {
    const type = e.type ?? 'file';
    const header = { name: e.name, type, linkname: e.linkname, mode: type === 'directory' ? 0o755 : 0o644, mtime: new Date(0) };
    await new Promise<void>((resolve, reject) => {
      const callback = (err?: Error | null) => (err ? reject(err) : resolve());
      if (type === 'file') pack.entry(header, Buffer.from(e.content ?? ''), callback);
      else pack.entry(header, callback);
    });
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** `openssl enc -aes-256-cbc -pbkdf2 -iter <iter> -salt`, written out from the format's definition. */
export function opensslEncrypt(plain: Uint8Array, password: string, iterations = 100_000, salt: Buffer = randomBytes(8)): Buffer {
  const material = pbkdf2Sync(password, salt, iterations, 48, 'sha256');
  const cipher = createCipheriv('aes-256-cbc', material.subarray(0, 32), material.subarray(32, 48));
  return Buffer.concat([Buffer.from('Salted__', 'latin1'), salt, cipher.update(plain), cipher.final()]);
}

export async function buildArchive(entries: TarEntry[], password = 'multiloko'): Promise<Buffer> {
  return opensslEncrypt(await compress(await packTar(entries)), password);
}

/** Every file of a folder as tar entries under `prefix/` (sorted, so the archive is deterministic). */
export async function entriesOfFolder(dir: string, prefix: string): Promise<TarEntry[]> {
  const out: TarEntry[] = [];
  const walk = async (rel: string): Promise<void> => {
    const names = (await readdir(path.join(dir, rel), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const d of names) {
      const childRel = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) {
        out.push({ name: `${prefix}/${childRel}/`, type: 'directory' });
        await walk(childRel);
      } else {
        out.push({ name: `${prefix}/${childRel}`, content: await readFile(path.join(dir, childRel)) });
      }
    }
  };
  out.push({ name: `${prefix}/`, type: 'directory' });
  await walk('');
  return out;
}

export async function tempDir(prefix = 'lokal-data-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** A copy of the fixture as `<parent>/benchmark_data/` (the folder name the official archive extracts to). */
export async function fixtureAsBenchmarkData(parent: string): Promise<string> {
  const target = path.join(parent, 'benchmark_data');
  await cp(fixtureDir, target, { recursive: true });
  return target;
}

export function hasCommand(command: string, args: string[] = ['version']): boolean {
  const r = spawnSync(command, args, { stdio: 'ignore' });
  return r.error === undefined && r.status === 0;
}
