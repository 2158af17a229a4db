// Every I/O error names the path and the errno code (ENOENT, EISDIR, EACCES, ENOSPC, ENOTDIR), and a full disk during
// a download stops it naming the file instead of being retried as a network interruption.
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DataError, type DataSource } from '../../src/data/index.ts';
import { fetchData } from '../../src/benchmarks/fetchData.ts';
import { loadKalahi } from '../../src/benchmarks/kalahi/index.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/index.ts';
import { ioError } from '../../src/data/files.ts';
import { readPredictions } from '../../src/models/predictions.ts';
import { removeDir, tempDir } from './helpers.ts';
import { unprivilegedJson, unprivilegedUnavailable } from '../support/unprivileged.ts';

let work: string;
beforeAll(async () => {
  work = await tempDir('lokal-io-');
});
afterAll(async () => {
  await removeDir(work);
});

async function errorOf(promise: Promise<unknown>): Promise<DataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataError);
  return error as DataError;
}

const errno = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}, write`), { code });

describe('messages name the path and the code', () => {
  test('ioError: ENOSPC, EACCES, EISDIR and an unknown code', () => {
    expect(ioError('/out/x.json', 'cannot write the output file', errno('ENOSPC', 'no space left on device')).message).toBe(
      '/out/x.json: cannot write the output file (ENOSPC): no space left on the device',
    );
    expect(ioError('/a', 'cannot read the file', errno('EACCES', 'permission denied')).code).toBe('io');
    expect(ioError('/a', 'cannot read the file', errno('ENOENT', 'no such file or directory')).code).toBe('not-found');
    expect(ioError('/a', 'cannot read the file', Object.assign(new Error("EBUSY: resource busy or locked, open '/a'"), { code: 'EBUSY' })).message).toBe(
      '/a: cannot read the file (EBUSY): resource busy or locked',
    );
  });

  test('a missing predictions file or dataset file', async () => {
    const absent = path.join(work, 'absent.jsonl');
    expect((await errorOf(readPredictions(absent))).message).toBe(`${absent}: cannot read predictions file (ENOENT): no such file`);
    // A dangling link is listed as a file (as os.path.isdir sees it) and its read fails.
    const root = path.join(work, 'tree', 'benchmark_data');
    await mkdir(path.join(root, 'italian'), { recursive: true });
    await symlink(path.join(work, 'nowhere.jsonl'), path.join(root, 'italian', 'dev.jsonl'));
    const error = await errorOf(loadMultiLoKo(root, 'dev', { env: {} }));
    expect(error.message).toBe(`${path.join(root, 'italian', 'dev.jsonl')}: cannot read the dataset file (ENOENT): no such file`);
  });

  test.skipIf(unprivilegedUnavailable !== undefined)(`EACCES names the file (as an unprivileged user${unprivilegedUnavailable ? `; skipped: ${unprivilegedUnavailable}` : ''})`, async () => {
    const file = path.join(work, 'filipino.csv');
    await writeFile(file, 'x');
    await chmod(file, 0o000);
    await chmod(work, 0o755); // the child must reach the file to be refused it
    const result = unprivilegedJson<{ name: string; message: string }>(`
      import { loadKalahi } from './src/benchmarks/kalahi/index.ts';
      const error = await loadKalahi(${JSON.stringify(file)}).then(() => ({ name: 'none', message: '' }), (e) => e);
      process.stdout.write(JSON.stringify({ name: error.name, message: error.message }));`);
    expect(result).toEqual({ name: 'DataError', message: `${file}: cannot read the file (EACCES): permission denied` });
  });
});

describe.skipIf(process.platform !== 'linux')('a full disk during a download', () => {
  test('stops at once with ENOSPC naming the file, without retries', async () => {
    const dir = path.join(work, 'download');
    await mkdir(dir);
    // The partial file is a link to /dev/full: every write fails with ENOSPC.
    await symlink('/dev/full', path.join(dir, 'x.bin.part'));
    const source: DataSource = { dataset: 'kalahi', file: 'x.bin', url: 'http://127.0.0.1:9/x.bin', page: 'http://127.0.0.1:9/', sha256: '0'.repeat(64) };
    // The availability check (HEAD) comes first; the download itself (GET) must be tried once.
    let requests = 0;
    const fakeFetch = (async (_url: string, init?: RequestInit) => {
      if (init?.method === 'HEAD') return new Response(null, { status: 200 });
      requests++;
      return new Response(new Uint8Array(1000), { status: 200, headers: { 'content-length': '1000' } });
    }) as typeof fetch;
    const error = await errorOf(fetchData({ dir, sources: [source], fetch: fakeFetch, log: () => undefined, retries: 3 }));
    expect(error.message).toBe(`${path.join(dir, 'x.bin.part')}: cannot write the download (ENOSPC): no space left on the device`);
    expect(requests).toBe(1);
  });
});
