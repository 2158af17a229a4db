// Hostile archives cost bounded time and memory: a decompression bomb is refused from its chunk headers before it is
// expanded, member counts are capped, and link chains, loops and links to "." resolve lazily with a hop limit.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compress } from '@napi-rs/lzma/xz';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DataError } from '../../src/data/index.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/index.ts';
import { xzDeclaring } from './xzDeclaring.ts';
import { buildArchive, opensslEncrypt, packTar, removeDir, tempDir, type TarEntry } from './helpers.ts';

const ROW = `${JSON.stringify({ id: 'q1', question: 'Q?', targets: ['A'] })}\n`;
let work: string;
let n = 0;

beforeAll(async () => {
  work = await tempDir('lokal-hostile-');
});
afterAll(async () => {
  await removeDir(work);
});

async function save(bytes: Uint8Array): Promise<string> {
  const file = path.join(work, `archive-${n++}.tar.xz.enc`);
  await writeFile(file, bytes);
  return file;
}

async function errorOf(promise: Promise<unknown>): Promise<DataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataError);
  return error as DataError;
}

describe('decompressed size and member count are bounded', () => {
  test('an archive declaring 5 GiB is refused from its chunk headers, naming the file, without a buffer error', async () => {
    const file = await save(opensslEncrypt(xzDeclaring(2560), 'multiloko'));
    const started = performance.now();
    const error = await errorOf(loadMultiLoKo(file, 'dev', { env: {} }));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(error.code).toBe('too-large');
    expect(error.file).toBe(file);
    expect(error.message).toMatch(/expands to at least \d+ bytes, more than the limit of 1073741824 bytes \(raise it with the maxArchiveBytes option\)/);
    expect(error.message).not.toContain('ERR_BUFFER_TOO_LARGE');
  });

  test('a real bomb (8 MiB of zeros) over a lowered maxArchiveBytes is refused before expanding', async () => {
    const tarBytes = await packTar([{ name: 'benchmark_data/italian/dev.jsonl', content: Buffer.alloc(8 * 2 ** 20) }]);
    const file = await save(opensslEncrypt(await compress(tarBytes), 'multiloko'));
    const error = await errorOf(loadMultiLoKo(file, 'dev', { env: {}, maxArchiveBytes: 2 ** 20 }));
    expect(error.code).toBe('too-large');
    expect(error.message).toContain('more than the limit of 1048576 bytes');
  });

  test('an archive under the limit loads as before', async () => {
    const file = await save(await buildArchive([{ name: 'benchmark_data/italian/dev.jsonl', content: ROW }]));
    const dataset = await loadMultiLoKo(file, 'dev', { env: {}, maxArchiveBytes: 64 * 1024, maxArchiveMembers: 5 });
    expect(dataset.subsets.map((s) => s.key)).toEqual(['italian']);
  });

  test('more members than maxArchiveMembers', async () => {
    const entries: TarEntry[] = [{ name: 'benchmark_data/italian/dev.jsonl', content: ROW }];
    for (let i = 0; i < 40; i++) entries.push({ name: `benchmark_data/extra/f${i}.txt`, content: 'x' });
    const file = await save(await buildArchive(entries));
    const error = await errorOf(loadMultiLoKo(file, 'dev', { env: {}, maxArchiveMembers: 20 }));
    expect(error.code).toBe('too-large');
    expect(error.message).toBe(`${file}: holds more than 20 tar members (raise the limit with the maxArchiveMembers option)`);
  });
});

describe('links resolve lazily with a hop limit', () => {
  test('a chain of 1,500 links ends in a clear error within seconds', { timeout: 30_000 }, async () => {
    const entries: TarEntry[] = [{ name: 'benchmark_data/store/real.jsonl', content: ROW }];
    for (let i = 0; i < 1500; i++) {
      entries.push({ name: `benchmark_data/store/l${i}`, type: 'symlink', linkname: i === 1499 ? 'real.jsonl' : `l${i + 1}` });
    }
    entries.push({ name: 'benchmark_data/italian/dev.jsonl', type: 'symlink', linkname: '../store/l0' });
    const file = await save(await buildArchive(entries));
    const started = performance.now();
    const error = await errorOf(loadMultiLoKo(file, 'dev', { env: {} }));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(error.code).toBe('bad-archive');
    expect(error.message).toMatch(/tar links loop or chain too deep: more than 40 links followed while resolving "benchmark_data\/italian\/dev.jsonl"/);
  });

  test('a short chain (within the limit) is followed', async () => {
    const entries: TarEntry[] = [{ name: 'benchmark_data/store/real.jsonl', content: ROW }];
    for (let i = 0; i < 10; i++) entries.push({ name: `benchmark_data/store/l${i}`, type: 'symlink', linkname: i === 9 ? 'real.jsonl' : `l${i + 1}` });
    entries.push({ name: 'benchmark_data/italian/dev.jsonl', type: 'symlink', linkname: '../store/l0' });
    const dataset = await loadMultiLoKo(await save(await buildArchive(entries)), 'dev', { env: {} });
    expect(dataset.subsets[0]!.items.map((i) => i.id)).toEqual(['q1']);
  });

  test('a loop of links is named', async () => {
    const file = await save(
      await buildArchive([
        { name: 'benchmark_data/italian/dev.jsonl', type: 'symlink', linkname: 'b.jsonl' },
        { name: 'benchmark_data/italian/b.jsonl', type: 'symlink', linkname: 'dev.jsonl' },
      ]),
    );
    const error = await errorOf(loadMultiLoKo(file, 'dev', { env: {} }));
    expect(error.message).toContain('tar links loop or chain too deep');
  });

  test('24 links to "." cost nothing: the tree is never copied', { timeout: 30_000 }, async () => {
    const entries: TarEntry[] = [{ name: 'benchmark_data/italian/dev.jsonl', content: ROW }];
    for (let i = 0; i < 24; i++) entries.push({ name: `benchmark_data/self${i}`, type: 'symlink', linkname: '.' });
    for (let i = 0; i < 24; i++) entries.push({ name: `benchmark_data/italian/here${i}`, type: 'symlink', linkname: '.' });
    const file = await save(await buildArchive(entries));
    const started = performance.now();
    const dataset = await loadMultiLoKo(file, 'dev', { env: {} });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(dataset.subsets.map((s) => s.key)).toEqual(['italian']);
  });
});
