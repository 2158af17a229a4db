// xzDecompressedSize reads the decompressed size of an .xz file from its LZMA2 chunk headers: it must equal the real
// size for every layout the xz tools and @napi-rs/lzma write, stop early past a limit, and refuse what is not xz.
import { execFileSync } from 'node:child_process';
import { compress } from '@napi-rs/lzma/xz';
import { describe, expect, test } from 'vitest';
import { xzDecompressedSize } from '../../src/data/xz.ts';
import { hasCommand } from './helpers.ts';
import { xzDeclaring } from './xzDeclaring.ts';

describe('xzDecompressedSize: the size from the chunk headers', () => {
  test('equals the real size for what @napi-rs/lzma writes', async () => {
    const plain = Buffer.from('MultiLoKo '.repeat(50_000) + 'ü✓'.repeat(1000));
    expect(xzDecompressedSize(await compress(plain))).toBe(plain.length);
    expect(xzDecompressedSize(await compress(Buffer.alloc(0)))).toBe(0);
  });

  test('stops early past the limit, and refuses what is not xz', () => {
    expect(xzDecompressedSize(xzDeclaring(100), 2 ** 22)).toBeGreaterThan(2 ** 22);
    expect(() => xzDecompressedSize(Buffer.from('not xz at all'))).toThrow(/xz magic/);
    expect(() => xzDecompressedSize(xzDeclaring(3).subarray(0, 20))).toThrow(/truncated/);
  });

  test.skipIf(!hasCommand('xz', ['--version']))('equals `xz -l` for single- and multi-block files, every check type, concatenated streams', () => {
    const plain = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `line ${i} ${(i * 7919) % 10007}\n`).join(''));
    const variants = [['-0'], ['-6'], ['-T2', '--block-size=100000'], ['--check=sha256'], ['--check=none'], ['--check=crc32']];
    const files = variants.map((args) => execFileSync('xz', ['-c', ...args], { input: plain }));
    for (const xz of files) expect(xzDecompressedSize(xz)).toBe(plain.length);
    const concatenated = Buffer.concat([files[0]!, Buffer.alloc(8), files[2]!]);
    expect(xzDecompressedSize(concatenated)).toBe(2 * plain.length);
  });
});
