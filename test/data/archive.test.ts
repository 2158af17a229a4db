// The encrypted archive: wrong password and every kind of corruption give a clear DataError;
// unsafe tar paths are refused with the entry's name; decryption agrees with the openssl CLI.
import { spawnSync } from 'node:child_process';
import { createCipheriv, pbkdf2Sync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compress } from '@napi-rs/lzma/xz';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DataError, decryptOpensslEnc } from '../../src/data/index.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/index.ts';
import {
  buildArchive,
  entriesOfFolder,
  fixtureDir,
  hasCommand,
  opensslEncrypt,
  packTar,
  removeDir,
  tempDir,
  type TarEntry,
} from './helpers.ts';

const ROW = `${JSON.stringify({ id: 'q1', question: 'Q?', targets: ['A'] })}\n`;
let work: string;
let n = 0;

beforeAll(async () => {
  work = await tempDir();
});
afterAll(async () => {
  await removeDir(work);
});

async function save(bytes: Uint8Array): Promise<string> {
  const file = path.join(work, `archive-${n++}.tar.xz.enc`);
  await writeFile(file, bytes);
  return file;
}

async function loadError(file: string, password?: string): Promise<DataError> {
  const error = await loadMultiLoKo(file, 'dev', password === undefined ? { env: {} } : { password, env: {} }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DataError);
  expect((error as DataError).file).toBe(file);
  return error as DataError;
}

describe('wrong password and corrupt archives', () => {
  test('wrong password', async () => {
    const file = await save(await buildArchive([{ name: 'benchmark_data/italian/dev.jsonl', content: ROW }], 'multiloko'));
    const error = await loadError(file, 'not-the-password');
    // Bad padding in 255 of 256 cases; otherwise the garbage fails as xz. Both say what to check.
    expect(['wrong-password', 'bad-archive']).toContain(error.code);
    expect(error.message).toContain('wrong password or corrupt archive');
    // The right password (overridable) opens it.
    expect((await loadMultiLoKo(file, 'dev', { password: 'multiloko', env: {} })).subsets[0]!.items).toHaveLength(1);
  });

  test('the password can come from LOKAL_MULTILOKO_PASSWORD', async () => {
    const file = await save(await buildArchive([{ name: 'benchmark_data/italian/dev.jsonl', content: ROW }], 'sesame'));
    const dataset = await loadMultiLoKo(file, 'dev', { env: { LOKAL_MULTILOKO_PASSWORD: 'sesame' } });
    expect(dataset.subsets.map((s) => s.key)).toEqual(['italian']);
  });

  test('bad padding (last plaintext byte 0 is never valid PKCS#7)', async () => {
    const salt = Buffer.from('0011223344556677', 'hex');
    const material = pbkdf2Sync('multiloko', salt, 100_000, 48, 'sha256');
    const cipher = createCipheriv('aes-256-cbc', material.subarray(0, 32), material.subarray(32)).setAutoPadding(false);
    const plain = Buffer.alloc(32, 0x41);
    plain[31] = 0;
    const file = await save(Buffer.concat([Buffer.from('Salted__'), salt, cipher.update(plain), cipher.final()]));
    const error = await loadError(file);
    expect(error.code).toBe('wrong-password');
    expect(error.message).toContain('bad padding');
  });

  test('decrypts, but is not xz', async () => {
    const file = await save(opensslEncrypt(Buffer.from('just some text, not an xz stream'), 'multiloko'));
    const error = await loadError(file);
    expect(error.code).toBe('bad-archive');
    expect(error.message).toContain('not valid xz data');
  });

  test('truncated tar inside a valid xz', async () => {
    const tarBytes = await packTar([{ name: 'benchmark_data/italian/dev.jsonl', content: ROW.repeat(200) }]);
    const file = await save(opensslEncrypt(await compress(tarBytes.subarray(0, 1500)), 'multiloko'));
    const error = await loadError(file);
    expect(error.code).toBe('bad-archive');
    expect(error.message).toContain('corrupt or truncated tar');
  });

  test('truncated download: payload not a multiple of the AES block', async () => {
    const full = await buildArchive([{ name: 'benchmark_data/italian/dev.jsonl', content: ROW }]);
    const error = await loadError(await save(full.subarray(0, full.length - 5)));
    expect(error.code).toBe('bad-archive');
    expect(error.message).toContain('truncated or corrupt');
  });

  test('truncated at a block boundary', async () => {
    const full = await buildArchive([{ name: 'benchmark_data/italian/dev.jsonl', content: ROW.repeat(50) }]);
    const error = await loadError(await save(full.subarray(0, full.length - 32)));
    expect(error.message).toMatch(/wrong password or corrupt archive/);
  });

  test('not an openssl container at all (e.g. the plain .tar.xz)', async () => {
    const file = await save(await compress(await packTar([{ name: 'benchmark_data/italian/dev.jsonl', content: ROW }])));
    const error = await loadError(file);
    expect(error.code).toBe('bad-archive');
    expect(error.message).toContain('does not start with "Salted__"');
    expect((await loadError(await save(Buffer.alloc(0)))).message).toContain('Salted__');
  });
});

describe('unsafe tar paths are refused, naming the entry', () => {
  const cases: Array<[string, TarEntry, string]> = [
    ['absolute path', { name: '/etc/evil.jsonl', content: ROW }, '"/etc/evil.jsonl": its path is absolute'],
    ['".." at the start', { name: '../evil.jsonl', content: ROW }, '"../evil.jsonl": its path contains a ".." segment'],
    ['".." in the middle', { name: 'benchmark_data/../../evil.jsonl', content: ROW }, '"benchmark_data/../../evil.jsonl"'],
    ['symlink climbing out', { name: 'benchmark_data/italian/x.jsonl', type: 'symlink', linkname: '../../../etc/passwd' }, 'symlink "benchmark_data/italian/x.jsonl" → "../../../etc/passwd": the target points outside the archive'],
    ['absolute symlink', { name: 'benchmark_data/italian/x.jsonl', type: 'symlink', linkname: '/etc/passwd' }, 'symlink "benchmark_data/italian/x.jsonl" → "/etc/passwd": the target is absolute'],
    ['hard link climbing out', { name: 'benchmark_data/italian/x.jsonl', type: 'link', linkname: '../outside' }, 'hard link "benchmark_data/italian/x.jsonl" → "../outside": the target points outside the archive'],
  ];
  test.each(cases)('%s', async (_name, entry, expected) => {
    const file = await save(await buildArchive([{ name: 'benchmark_data/italian/dev.jsonl', content: ROW }, entry]));
    const error = await loadError(file);
    expect(error.code).toBe('unsafe-path');
    expect(error.message).toContain(expected);
  });
});

describe('links that stay inside are followed', () => {
  test('file symlink, hard link, folder symlink', async () => {
    const other = `${JSON.stringify({ id: 'e1', targets: ['B'] })}\n`;
    const file = await save(
      await buildArchive([
        { name: 'benchmark_data/italian/dev.jsonl', content: ROW },
        { name: 'benchmark_data/store/en.jsonl', content: other },
        { name: 'benchmark_data/english/dev.jsonl', type: 'symlink', linkname: '../store/en.jsonl' },
        { name: 'benchmark_data/english/dev_translated_human_italian.jsonl', type: 'link', linkname: 'benchmark_data/italian/dev.jsonl' },
        { name: 'benchmark_data/italiano', type: 'symlink', linkname: 'italian' },
      ]),
    );
    const dataset = await loadMultiLoKo(file, 'dev', { env: {} });
    expect(dataset.subsets.map((s) => [s.key, s.items.map((i) => i.id)])).toEqual([
      ['english', ['e1']],
      ['english_translated_human_italian', ['q1']],
      ['italian', ['q1']],
      ['italiano', ['q1']],
    ]);
  });

  test('a dangling link is named', async () => {
    const file = await save(
      await buildArchive([
        { name: 'benchmark_data/italian/dev.jsonl', content: ROW },
        { name: 'benchmark_data/english/dev.jsonl', type: 'symlink', linkname: 'missing.jsonl' },
      ]),
    );
    const error = await loadError(file);
    expect(error.message).toContain('"benchmark_data/english/dev.jsonl" points to "benchmark_data/english/missing.jsonl"');
  });
});

describe('errors inside the archive name the archive and the entry', () => {
  test('file, line and field', async () => {
    const file = await save(
      await buildArchive([
        { name: 'benchmark_data/italian/dev.jsonl', content: `${ROW}${JSON.stringify({ id: 'q2', targets: [] })}\n` },
      ]),
    );
    const thrown = (await loadMultiLoKo(file, 'dev', { env: {} }).catch((e: unknown) => e)) as DataError;
    expect(thrown.file).toBe(`${file}!/benchmark_data/italian/dev.jsonl`);
    expect([thrown.line, thrown.field]).toEqual([2, 'targets']);
  });
});

describe.skipIf(!hasCommand('openssl'))('agreement with the openssl CLI (second method)', () => {
  test('our decryption of a test archive equals `openssl enc -d`, and openssl reads what the tests write', async () => {
    const plain = Buffer.from('MultiLoKo test payload ✓ — '.repeat(100));
    const file = await save(opensslEncrypt(plain, 'multiloko'));
    const cli = spawnSync('openssl', ['enc', '-d', '-aes-256-cbc', '-pbkdf2', '-iter', '100000', '-pass', 'pass:multiloko', '-in', file]);
    expect(cli.status).toBe(0);
    expect(Buffer.compare(cli.stdout, plain)).toBe(0);
    expect(Buffer.compare(await decryptOpensslEnc(await readFile(file), 'multiloko', file), cli.stdout)).toBe(0);
  });

  const haveTarXz = hasCommand('xz', ['--version']) && hasCommand('tar', ['--version']);

  test.skipIf(!haveTarXz)('an archive made by openssl + xz + tar CLIs loads like the folder it was made from', async () => {
    const staging = path.join(work, 'cli-made');
    await mkdir(staging);
    const archive = path.join(work, 'cli-made.tar.xz.enc');
    // The official recipe from the MultiLoKo README: tar -cJ benchmark_data | openssl enc ... -out
    const made = spawnSync(
      'sh',
      ['-c', `cp -r "${fixtureDir}" "${staging}/benchmark_data" && cd "${staging}" && tar -cJ benchmark_data | openssl enc -aes-256-cbc -pbkdf2 -iter 100000 -pass pass:multiloko -out "${archive}"`],
      { encoding: 'utf8' },
    );
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    const fromArchive = await loadMultiLoKo(archive, 'dev', { env: {} });
    const fromFolder = await loadMultiLoKo(fixtureDir, 'dev', { env: {} });
    expect(fromArchive.subsets).toEqual(fromFolder.subsets);
    expect(fromArchive.fewshot).toEqual(fromFolder.fewshot);
    expect(fromArchive.subsets.length).toBe(9);
  });

  test.skipIf(!haveTarXz)('the archive the tests build is also what `openssl | tar -xJ` extracts', async () => {
    const archive = await save(await buildArchive(await entriesOfFolder(fixtureDir, 'benchmark_data')));
    const out = path.join(work, 'extracted');
    await mkdir(out);
    const r = spawnSync('sh', ['-c', `openssl enc -aes-256-cbc -pbkdf2 -iter 100000 -d -pass pass:multiloko -in "${archive}" | tar -xJ -C "${out}"`], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const extracted = await loadMultiLoKo(out, 'dev', { env: {} });
    const direct = await loadMultiLoKo(archive, 'dev', { env: {} });
    expect(extracted.subsets).toEqual(direct.subsets);
  });
});
