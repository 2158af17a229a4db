// fetchData against a real HTTP server on 127.0.0.1 (node:http, started here) serving generated content.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { DATA_SOURCES, DataError, type DataSource } from '../../src/data/index.ts';
import { fetchData } from '../../src/benchmarks/fetchData.ts';
import { buildArchive, entriesOfFolder, fixtureDir, hasCommand, removeDir, sharedData, tempDir } from './helpers.ts';
import { titleUnless } from '../support/sharedData.ts';

type Mode = 'normal' | 'cut-first' | 'cut-always' | 'ignore-range' | 'hang' | 'stall' | 'missing';

interface Served {
  body: Buffer;
  mode: Mode;
}

interface SeenRequest {
  path: string;
  range: string | undefined;
}

/** Deterministic bytes that are not all alike (so a wrong offset would show). */
function generated(length: number, seed: string): Buffer {
  const out = Buffer.alloc(length);
  let block = createHash('sha256').update(seed).digest();
  for (let i = 0; i < length; i += block.length) {
    block.copy(out, i);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const routes = new Map<string, Served>();
const seen: SeenRequest[] = [];
const cutsDone = new Set<string>();
let server: http.Server;
let base: string;
let work: string;

/** HEAD requests (fetchData asks for every file before downloading any), apart from the downloads in `seen`. */
const heads: string[] = [];

function respond(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = req.url ?? '/';
  const range = req.headers.range;
  if (req.method === 'HEAD') {
    heads.push(url);
    const served = routes.get(url);
    if (!served || served.mode === 'missing') res.writeHead(404).end();
    else if (served.mode !== 'hang') res.writeHead(200, { 'content-length': served.body.length }).end();
    return;
  }
  seen.push({ path: url, range });
  const served = routes.get(url);
  if (!served || served.mode === 'missing') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  if (served.mode === 'hang') return; // never answers
  const { body } = served;
  const match = /^bytes=(\d+)-$/.exec(range ?? '');
  if (match && served.mode !== 'ignore-range') {
    const start = Number(match[1]);
    if (start >= body.length) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    res.writeHead(206, { 'content-length': body.length - start, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` });
    if (served.mode === 'cut-always') cutAfter(res, body.subarray(start, start + ((body.length - start) >> 1)));
    else res.end(body.subarray(start));
    return;
  }
  if (served.mode === 'stall') {
    res.writeHead(200, { 'content-length': body.length });
    res.write(body.subarray(0, body.length >> 1)); // then silence, connection open
    return;
  }
  const cut = served.mode === 'cut-always' || (served.mode === 'cut-first' && !cutsDone.has(url));
  res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
  if (cut) {
    cutsDone.add(url);
    cutAfter(res, body.subarray(0, body.length >> 1));
    return;
  }
  res.end(body);
}

/** Sends part of the promised body, then drops the connection (as a flaky network would). */
function cutAfter(res: http.ServerResponse, part: Buffer): void {
  res.write(part, () => setTimeout(() => res.socket?.destroy(), 20));
}

function source(file: string, route: string, body: Buffer, extra: Partial<DataSource> = {}): DataSource {
  return { dataset: 'kalahi', file, url: `${base}${route}`, sha256: sha256(body), page: `${base}${route}.html`, ...extra };
}

function serve(route: string, body: Buffer, mode: Mode = 'normal'): void {
  routes.set(route, { body, mode });
}

let dirCount = 0;
async function freshDir(): Promise<string> {
  const dir = path.join(work, `dl-${dirCount++}`);
  await mkdir(dir);
  return dir;
}

function logger() {
  const lines: string[] = [];
  return { lines, log: (line: string) => lines.push(line) };
}

beforeAll(async () => {
  work = await tempDir();
  server = http.createServer(respond);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await removeDir(work);
});

beforeEach(() => {
  seen.length = 0;
  heads.length = 0;
  routes.clear();
  cutsDone.clear();
});

describe('fetchData', () => {
  test('full download of a checksummed file and a structurally verified archive; a second run keeps them', async () => {
    const csv = generated(300_000, 'csv');
    const archive = await buildArchive(await entriesOfFolder(fixtureDir, 'benchmark_data'));
    serve('/kalahi/filipino.csv', csv);
    serve('/multiloko/benchmark_data.tar.xz.enc', archive);
    const dir = await freshDir();
    const sources: DataSource[] = [
      { dataset: 'multiloko', file: 'benchmark_data.tar.xz.enc', url: `${base}/multiloko/benchmark_data.tar.xz.enc`, verify: 'multiloko-archive', page: 'p' },
      source('kalahi/filipino.csv', '/kalahi/filipino.csv', csv),
    ];
    const { lines, log } = logger();
    const results = await fetchData({ dir, sources, log });
    expect(results.map((r) => [r.path, r.bytes, r.sha256, r.status])).toEqual([
      [path.join(dir, 'benchmark_data.tar.xz.enc'), archive.length, sha256(archive), 'downloaded'],
      [path.join(dir, 'kalahi', 'filipino.csv'), csv.length, sha256(csv), 'downloaded'],
    ]);
    expect(Buffer.compare(await readFile(path.join(dir, 'kalahi', 'filipino.csv')), csv)).toBe(0);
    expect(Buffer.compare(await readFile(path.join(dir, 'benchmark_data.tar.xz.enc')), archive)).toBe(0);
    expect((await readdir(path.join(dir, 'kalahi'))).filter((n) => n.endsWith('.part'))).toEqual([]);
    // Progress: bytes/total with the percentage floor(done/total·100), increasing, ending with the whole.
    const progress = lines
      .map((l) => /^kalahi\/filipino\.csv: (\d+)\/300000 bytes \((\d+)%\)$/.exec(l))
      .filter((m) => m !== null)
      .map((m) => [Number(m[1]), Number(m[2])]);
    expect(progress.length).toBeGreaterThan(0);
    for (const [done, pct] of progress) expect(pct).toBe(Math.floor((done! / 300_000) * 100));
    expect(progress.map(([done]) => done)).toEqual(progress.map(([done]) => done).sort((a, b) => a! - b!));
    expect(lines).toContain('kalahi/filipino.csv: downloading ' + `${base}/kalahi/filipino.csv (300000 bytes)`);
    expect(lines).toContain(`kalahi/filipino.csv: 300000/300000 bytes (100%) received`);
    expect(lines.some((l) => l.includes('structure verified'))).toBe(true);

    seen.length = 0;
    const again = logger();
    const second = await fetchData({ dir, sources, log: again.log });
    expect(second.map((r) => r.status)).toEqual(['already-present', 'already-present']);
    expect(seen).toEqual([]);
  });

  test('only one dataset', async () => {
    const csv = generated(1000, 'only');
    serve('/a.csv', csv);
    const dir = await freshDir();
    const sources: DataSource[] = [
      { dataset: 'multiloko', file: 'x.enc', url: `${base}/nothing-here`, verify: 'multiloko-archive', page: 'p' },
      source('kalahi/a.csv', '/a.csv', csv),
    ];
    const results = await fetchData({ dir, sources, only: 'kalahi', log: () => {} });
    expect(results.map((r) => r.path)).toEqual([path.join(dir, 'kalahi', 'a.csv')]);
    expect(seen.map((s) => s.path)).toEqual(['/a.csv']);
  });

  test('resume after the server cuts the connection half-way: the next run sends Range and completes', async () => {
    const body = generated(200_000, 'cut');
    serve('/cut.csv', body, 'cut-first');
    const dir = await freshDir();
    const src = source('cut.csv', '/cut.csv', body);
    const first = (await fetchData({ dir, sources: [src], retries: 0, log: () => {} }).catch((e: unknown) => e)) as DataError;
    expect(first).toBeInstanceOf(DataError);
    expect(first.code).toBe('download');
    expect(first.message).toContain('running the command again resumes');
    const partial = (await stat(path.join(dir, 'cut.csv.part'))).size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThanOrEqual(body.length / 2);
    expect(existsSync(path.join(dir, 'cut.csv'))).toBe(false);
    // What arrived is the true prefix.
    expect(Buffer.compare(await readFile(path.join(dir, 'cut.csv.part')), body.subarray(0, partial))).toBe(0);

    const { lines, log } = logger();
    const [result] = await fetchData({ dir, sources: [src], log });
    expect(result!.status).toBe('downloaded');
    expect(seen.map((s) => s.range)).toEqual([undefined, `bytes=${partial}-`]);
    expect(Buffer.compare(await readFile(path.join(dir, 'cut.csv')), body)).toBe(0);
    expect(existsSync(path.join(dir, 'cut.csv.part'))).toBe(false);
    expect(lines[0]).toBe(`cut.csv: resuming at ${partial}/${body.length} bytes (${Math.floor((partial / body.length) * 100)}%) from ${src.url}`);
  });

  test('a cut inside one run is resumed by the retry loop', async () => {
    const body = generated(120_000, 'retry');
    serve('/retry.csv', body, 'cut-first');
    const dir = await freshDir();
    const { lines, log } = logger();
    const [result] = await fetchData({ dir, sources: [source('retry.csv', '/retry.csv', body)], log });
    expect(result!.status).toBe('downloaded');
    expect(seen).toHaveLength(2);
    expect(seen[1]!.range).toMatch(/^bytes=\d+-$/);
    expect(lines.some((l) => l.includes('transfer interrupted') && l.includes('resuming (attempt 2 of 4)'))).toBe(true);
    expect(Buffer.compare(await readFile(path.join(dir, 'retry.csv')), body)).toBe(0);
  });

  test('a server that ignores Range (200 instead of 206): the file is rewritten, not appended to', async () => {
    const body = generated(50_000, 'ignore');
    serve('/ignore.csv', body, 'ignore-range');
    const dir = await freshDir();
    await writeFile(path.join(dir, 'ignore.csv.part'), body.subarray(0, 20_000));
    const [result] = await fetchData({ dir, sources: [source('ignore.csv', '/ignore.csv', body)], log: () => {} });
    expect(result!.status).toBe('downloaded');
    expect(seen.map((s) => s.range)).toEqual(['bytes=20000-']);
    expect(Buffer.compare(await readFile(path.join(dir, 'ignore.csv')), body)).toBe(0);
  });

  test('a partial file that is already complete (416) is verified and kept', async () => {
    const body = generated(10_000, 'complete');
    serve('/complete.csv', body);
    const dir = await freshDir();
    await writeFile(path.join(dir, 'complete.csv.part'), body);
    const [result] = await fetchData({ dir, sources: [source('complete.csv', '/complete.csv', body)], log: () => {} });
    expect(result!.status).toBe('downloaded');
    expect(seen.map((s) => s.range)).toEqual(['bytes=10000-']);
    expect(Buffer.compare(await readFile(path.join(dir, 'complete.csv')), body)).toBe(0);
  });

  test('checksum mismatch: error with both hashes, nothing left behind', async () => {
    const body = generated(5_000, 'served');
    const expected = generated(5_000, 'expected');
    serve('/bad.csv', body);
    const dir = await freshDir();
    const src = source('bad.csv', '/bad.csv', expected);
    const error = (await fetchData({ dir, sources: [src], log: () => {} }).catch((e: unknown) => e)) as DataError;
    expect(error).toBeInstanceOf(DataError);
    expect(error.code).toBe('checksum');
    expect(error.file).toBe(path.join(dir, 'bad.csv'));
    expect(error.message).toContain(`expected ${sha256(expected)}, got ${sha256(body)}`);
    expect(error.message).toContain('To provide the file by hand');
    expect(await readdir(dir)).toEqual([]);
  });

  test('an archive that is not MultiLoKo fails the structural check', async () => {
    serve('/fake.enc', generated(4_096, 'fake'));
    const dir = await freshDir();
    const src: DataSource = { dataset: 'multiloko', file: 'benchmark_data.tar.xz.enc', url: `${base}/fake.enc`, verify: 'multiloko-archive', page: 'p' };
    const error = (await fetchData({ dir, sources: [src], log: () => {} }).catch((e: unknown) => e)) as DataError;
    expect(error.code).toBe('checksum');
    expect(error.message).toContain('not a valid MultiLoKo archive');
    expect(error.message).toContain('LOKAL_MULTILOKO');
    expect(await readdir(dir)).toEqual([]);
  });

  test('a present file that fails verification is downloaded again', async () => {
    const body = generated(3_000, 'fresh');
    serve('/stale.csv', body);
    const dir = await freshDir();
    await writeFile(path.join(dir, 'stale.csv'), 'an old, wrong copy');
    const { lines, log } = logger();
    const [result] = await fetchData({ dir, sources: [source('stale.csv', '/stale.csv', body)], log });
    expect(result!.status).toBe('downloaded');
    expect(lines[0]).toContain('present but fails verification (SHA-256 mismatch');
    expect(Buffer.compare(await readFile(path.join(dir, 'stale.csv')), body)).toBe(0);
  });

  test('404: the status, the URL and how to provide the file by hand', async () => {
    const dir = await freshDir();
    const src = source('kalahi/filipino.csv', '/gone.csv', Buffer.from('x'));
    const error = (await fetchData({ dir, sources: [src], log: () => {} }).catch((e: unknown) => e)) as DataError;
    expect(error).toBeInstanceOf(DataError);
    expect(error.code).toBe('download');
    expect(error.file).toBe(src.url);
    expect(error.message).toContain('HTTP 404');
    expect(error.message).toContain(`save it as ${path.join(dir, 'kalahi', 'filipino.csv')}`);
    expect(error.message).toContain('LOKAL_KALAHI');
    expect(existsSync(path.join(dir, 'kalahi', 'filipino.csv'))).toBe(false);
  });

  test('several files missing on the server: all named in one error, and nothing downloaded or created', async () => {
    const present = generated(2_000, 'there');
    serve('/k/filipino.csv', present);
    const dir = await freshDir();
    const sources = [
      source('kalahi/filipino.csv', '/k/filipino.csv', present),
      source('kalahi/filipino_partially_enriched.csv', '/k/gone-1.csv', Buffer.from('x')),
      source('kalahi/filipino_unenriched.csv', '/k/gone-2.csv', Buffer.from('y')),
    ];
    const error = (await fetchData({ dir, sources, log: () => {} }).catch((e: unknown) => e)) as DataError;
    expect(error).toBeInstanceOf(DataError);
    expect(error.code).toBe('download');
    expect(error.message).toContain(`${dir}: 2 of the 3 files to download are not available, so none was downloaded and nothing was written:`);
    for (const [file, route] of [['filipino_partially_enriched.csv', '/k/gone-1.csv'], ['filipino_unenriched.csv', '/k/gone-2.csv']]) {
      expect(error.message).toContain(`${base}${route}: download failed: HTTP 404`);
      expect(error.message).toContain(`save it as ${path.join(dir, 'kalahi', file!)}`);
    }
    // Every file was asked for, none downloaded, and no data/kalahi/ folder made.
    expect([...heads].sort()).toEqual(['/k/filipino.csv', '/k/gone-1.csv', '/k/gone-2.csv']);
    expect(seen).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  test('a download that fails verification leaves no empty folder behind', async () => {
    serve('/k/bad.csv', generated(3_000, 'served'));
    const dir = await freshDir();
    const error = (await fetchData({ dir, sources: [source('kalahi/sub/bad.csv', '/k/bad.csv', generated(3_000, 'expected'))], log: () => {} }).catch((e: unknown) => e)) as DataError;
    expect(error.code).toBe('checksum');
    expect(await readdir(dir)).toEqual([]);
  });

  test('server down (connection refused): offline error with the manual route', async () => {
    const down = http.createServer();
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const port = (down.address() as AddressInfo).port;
    await new Promise<void>((resolve) => down.close(() => resolve()));
    const dir = await freshDir();
    const src: DataSource = { dataset: 'multiloko', file: 'benchmark_data.tar.xz.enc', url: `http://127.0.0.1:${port}/x.enc`, verify: 'multiloko-archive', page: 'https://example.invalid/page' };
    const error = (await fetchData({ dir, sources: [src], log: () => {} }).catch((e: unknown) => e)) as DataError;
    expect(error).toBeInstanceOf(DataError);
    expect(error.code).toBe('download');
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).toContain('you may be offline');
    expect(error.message).toContain(`save it as ${path.join(dir, 'benchmark_data.tar.xz.enc')}`);
    expect(error.message).toContain('point LOKAL_MULTILOKO at a copy');
  });

  test('a server that never answers times out', async () => {
    serve('/hang.csv', Buffer.from('x'), 'hang');
    const dir = await freshDir();
    const started = Date.now();
    const error = (await fetchData({ dir, sources: [source('hang.csv', '/hang.csv', Buffer.from('x'))], timeoutMs: 300, log: () => {} }).catch(
      (e: unknown) => e,
    )) as DataError;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(DataError);
    expect(error.message).toContain('no data for 300 ms');
    expect(error.message).toContain('you may be offline');
  });

  test('a transfer that stalls half-way times out and keeps what arrived', async () => {
    const body = generated(40_000, 'stall');
    serve('/stall.csv', body, 'stall');
    const dir = await freshDir();
    const error = (await fetchData({ dir, sources: [source('stall.csv', '/stall.csv', body)], timeoutMs: 300, retries: 0, log: () => {} }).catch(
      (e: unknown) => e,
    )) as DataError;
    expect(error).toBeInstanceOf(DataError);
    expect(error.message).toContain('transfer interrupted at 20000/40000 bytes (50%) (no data for 300 ms)');
    expect(Buffer.compare(await readFile(path.join(dir, 'stall.csv.part')), body.subarray(0, 20_000))).toBe(0);
  });

  test('a cut on every attempt gives up after the retries, keeping the partial file', async () => {
    const body = generated(80_000, 'always');
    serve('/always.csv', body, 'cut-always');
    const dir = await freshDir();
    const error = (await fetchData({ dir, sources: [source('always.csv', '/always.csv', body)], retries: 1, log: () => {} }).catch(
      (e: unknown) => e,
    )) as DataError;
    expect(error).toBeInstanceOf(DataError);
    expect(error.message).toContain('gave up after 2 attempts');
    expect(seen.map((s) => s.range)).toEqual([undefined, expect.stringMatching(/^bytes=\d+-$/)]);
    const part = await readFile(path.join(dir, 'always.csv.part'));
    expect(error.message).toContain(`The ${part.length} bytes received are kept in ${path.join(dir, 'always.csv.part')}`);
    expect(part.length).toBeGreaterThan(0);
    expect(part.length).toBeLessThan(body.length);
    expect(Buffer.compare(part, body.subarray(0, part.length))).toBe(0);
  });
});

const sharedKalahi = path.join(sharedData, 'kalahi');
describe.skipIf(!existsSync(sharedKalahi))(titleUnless('the pinned Kalahi hashes (against ../shared/data/kalahi, the files as published)', sharedKalahi), () => {
  test('files placed by hand verify without any network request', async () => {
    const dir = await freshDir();
    await mkdir(path.join(dir, 'kalahi'));
    const kalahi = DATA_SOURCES.filter((s) => s.dataset === 'kalahi');
    expect(kalahi.map((s) => s.file)).toEqual(['kalahi/filipino.csv', 'kalahi/filipino_partially_enriched.csv', 'kalahi/filipino_unenriched.csv']);
    for (const s of kalahi) await copyFile(path.join(sharedKalahi, path.basename(s.file)), path.join(dir, s.file));
    const noNetwork = (() => Promise.reject(new Error('no network in this test'))) as typeof fetch;
    const results = await fetchData({ dir, only: 'kalahi', fetch: noNetwork, log: () => {} });
    expect(results.map((r) => r.status)).toEqual(['already-present', 'already-present', 'already-present']);
    for (const s of kalahi) expect((await stat(path.join(dir, s.file))).size).toBe(s.bytes);
  });

  test.skipIf(!hasCommand('sha256sum', ['--version']))('the table equals `sha256sum` of the shared files', () => {
    for (const s of DATA_SOURCES.filter((x) => x.dataset === 'kalahi')) {
      const out = spawnSync('sha256sum', [path.join(sharedKalahi, path.basename(s.file))], { encoding: 'utf8' });
      expect(out.stdout.split(' ')[0]).toBe(s.sha256);
    }
  });
});

describe.skipIf(!existsSync(path.join(sharedData, 'multiloko/benchmark_data.tar.xz.enc')))(titleUnless('structural check on the real archive', path.join(sharedData, 'multiloko/benchmark_data.tar.xz.enc')), () => {
  test('an archive in the official format placed by hand passes without a request', async () => {
    const dir = await freshDir();
    await copyFile(path.join(sharedData, 'multiloko/benchmark_data.tar.xz.enc'), path.join(dir, 'benchmark_data.tar.xz.enc'));
    const noNetwork = (() => Promise.reject(new Error('no network in this test'))) as typeof fetch;
    const [result] = await fetchData({ dir, only: 'multiloko', fetch: noNetwork, log: () => {} });
    expect(result!.status).toBe('already-present');
  });
});

describe('the download table', () => {
  test('pinned commits of the official repositories, raw URLs', () => {
    expect(DATA_SOURCES.map((s) => s.url)).toEqual([
      'https://raw.githubusercontent.com/facebookresearch/multiloko/4f4de606f3b597c399b3b0c9f06fc06f178ad14d/benchmark_data.tar.xz.enc',
      'https://raw.githubusercontent.com/aisingapore/kalahi/2beb3ef4133a7ca432f5f4d19a4bf631ce5e6979/data/filipino.csv',
      'https://raw.githubusercontent.com/aisingapore/kalahi/2beb3ef4133a7ca432f5f4d19a4bf631ce5e6979/data/filipino_partially_enriched.csv',
      'https://raw.githubusercontent.com/aisingapore/kalahi/2beb3ef4133a7ca432f5f4d19a4bf631ce5e6979/data/filipino_unenriched.csv',
    ]);
    expect(DATA_SOURCES[0]!.verify).toBe('multiloko-archive');
  });
});
