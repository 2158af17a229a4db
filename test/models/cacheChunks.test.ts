// The response cache is read chunk by chunk on byte offsets: invalid UTF-8 before a torn last line cannot make the
// repair extend the file with NUL bytes, lines longer than a chunk parse, a non-regular cache file is refused, and an
// I/O failure names the cache file.
import { appendFileSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DataError } from '../../src/data/errors.ts';
import { generateCacheKey, readCacheFile, withCache } from '../../src/models/cache.ts';
import { EchoProvider } from '../support/echoProvider.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-cache-hard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshFile = () => path.join(dir, `cache-${counter++}.jsonl`);

const entryLine = (prompt: string, text: string) =>
  `${JSON.stringify({ key: generateCacheKey(new EchoProvider().describe(), { prompt }), kind: 'generate', text, latencyMs: 1 })}\n`;

describe('torn-line repair works on byte offsets', () => {
  test('invalid UTF-8 earlier in the file: the torn line is cut exactly, no NUL bytes, earlier bytes untouched', async () => {
    const file = freshFile();
    const good = Buffer.from(entryLine('a', 'Roma'));
    // A malformed line with invalid UTF-8 (each bad byte decodes to the 3-byte U+FFFD), then a torn entry.
    const bad = Buffer.concat([Buffer.from('garbage '), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('\n')]);
    const torn = Buffer.from(entryLine('b', 'Milano').slice(0, 30));
    writeFileSync(file, Buffer.concat([good, bad, torn]));
    const warnings: string[] = [];
    const provider = new EchoProvider();
    const cached = withCache(provider, { file, mode: 'readwrite', warn: (m) => warnings.push(m), env: {} });
    const [hit, miss] = await cached.generate([{ prompt: 'a' }, { prompt: 'c' }]);
    expect(hit).toMatchObject({ text: 'Roma', cached: true });
    expect(miss).toMatchObject({ text: 'echo:c', cached: false });
    const after = readFileSync(file);
    expect(after.includes(0)).toBe(false);
    expect(Buffer.compare(after.subarray(0, good.length + bad.length), Buffer.concat([good, bad]))).toBe(0);
    expect(after.subarray(good.length + bad.length).toString('utf8')).toBe(entryLine('c', 'echo:c'));
    expect(warnings).toEqual([
      `${file}:2: skipping a malformed cache line (not a cache entry)`,
      `${file}:3: skipping a torn last line (an interrupted write); it will be recomputed`,
    ]);
  });

  test('lines longer than the 1 MiB read chunk, and a torn line after them', () => {
    const file = freshFile();
    const big = 'ü'.repeat(1_500_000); // 3 MB of UTF-8: crosses several chunk boundaries
    const lines = entryLine('a', big) + entryLine('b', 'x') + entryLine('c', big.slice(0, 700_000));
    writeFileSync(file, lines + entryLine('d', 'y').slice(0, 10));
    const warnings: string[] = [];
    const { entries, tornAt } = readCacheFile(file, (m) => warnings.push(m));
    expect([...entries.values()].map((e) => (e.kind === 'generate' ? e.text.length : -1))).toEqual([1_500_000, 1, 700_000]);
    expect(tornAt).toBe(Buffer.byteLength(lines));
    expect(warnings).toHaveLength(1);
  });

  // A cache over 512 MiB (V8's longest string) must be read: run with LARGE_FILE_TESTS=1 (writes 520 MiB to tmp).
  test.skipIf(!process.env.LARGE_FILE_TESTS)('a 520 MiB cache is read (skipped without LARGE_FILE_TESTS=1; .ci/run sets it)', { timeout: 300_000 }, async () => {
    const file = freshFile();
    const fd = openSync(file, 'w');
    const padding = ' '.repeat(2 ** 20 - 200);
    for (let i = 0; i < 520; i++) writeSync(fd, `${entryLine(`p${i}`, `t${i}`).trimEnd()}${padding}\n`);
    closeSync(fd);
    const cached = withCache(new EchoProvider(), { file, mode: 'read', env: {} });
    expect((await cached.generate([{ prompt: 'p519' }]))[0]).toMatchObject({ text: 't519', cached: true });
  });
});

describe('the cache file itself', () => {
  test('a folder as cache file: an error naming the path', async () => {
    const folder = path.join(dir, `folder-${counter++}`);
    mkdirSync(folder);
    const cached = withCache(new EchoProvider(), { file: folder, mode: 'readwrite', env: {} });
    const error = await cached.generate([{ prompt: 'x' }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as Error).message).toBe(`${folder}: the response cache must be a regular file, but this is a folder (set LOKAL_CACHE_FILE to a file, or LOKAL_CACHE=off)`);
  });

  test.skipIf(process.platform !== 'linux')('a device as cache file is refused without reading it', async () => {
    const cached = withCache(new EchoProvider(), { file: '/dev/zero', mode: 'read', env: {} });
    const error = await cached.generate([{ prompt: 'x' }]).catch((e: unknown) => e);
    expect((error as DataError).code).toBe('not-regular-file');
  });

  test('a write that fails names the cache file and the errno code', async () => {
    const parentIsFile = path.join(dir, `plain-${counter++}`);
    writeFileSync(parentIsFile, '');
    const cached = withCache(new EchoProvider(), { file: path.join(parentIsFile, 'responses.jsonl'), mode: 'write', env: {} });
    const error = await cached.generate([{ prompt: 'x' }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as Error).message).toMatch(new RegExp(`^${parentIsFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/responses\\.jsonl: cannot write the response cache \\((ENOTDIR|EEXIST)\\)`));
  });

  test('appending after a file without a final newline still starts a new line', async () => {
    const file = freshFile();
    appendFileSync(file, entryLine('a', 'A').trimEnd());
    const cached = withCache(new EchoProvider(), { file, mode: 'readwrite', env: {} });
    await cached.generate([{ prompt: 'b' }]);
    expect(readFileSync(file, 'utf8')).toBe(entryLine('a', 'A') + entryLine('b', 'echo:b'));
  });
});
