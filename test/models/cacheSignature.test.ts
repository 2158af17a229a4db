// The response cache repairs and appends only to a file that is a cache: a new cache starts with its header line; a
// predictions file, a results file or any other file named as the cache (directly or by a symlinked
// .lokal-cache/responses.jsonl) is refused with one line and left byte for byte, even with a torn-looking last line.
// A cache written before the header existed (its first line an entry) is still read and extended.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cacheFileProblem } from '../../src/models/outputCheck.ts';
import { CACHE_HEADER, generateCacheKey, withCache } from '../../src/models/cache.ts';
import { EchoProvider } from '../support/echoProvider.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-cache-signature-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const fresh = (name: string) => {
  const sub = path.join(dir, `c${counter++}`);
  mkdirSync(sub);
  return path.join(sub, name);
};

// Files a careless LOKAL_CACHE_FILE may name; each ends without a newline, as a torn cache line would.
const PREDICTIONS = `${JSON.stringify({ language: 'italian', id: 'a', prediction: 'Roma' })}\n{"language":"italian","id":"b","prediction":"Mil`;
const RESULTS = `{\n    "italian": {\n        "a": {"em": 1}\n    },\n    "em": 1.0\n}`;
const NOTES = 'my notes\nlast line without newline';

describe('a file that is not a cache', () => {
  for (const [name, text] of [
    ['a predictions file', PREDICTIONS],
    ['a results file', RESULTS],
    ['a file of notes', NOTES],
  ] as const) {
    test(`${name}: refused with one line, left as it was, the model not asked`, async () => {
      const file = fresh('some.jsonl');
      writeFileSync(file, text);
      const provider = new EchoProvider();
      const cached = withCache(provider, { file, env: {}, warn: () => undefined });
      await expect(cached.generate([{ prompt: 'x' }])).rejects.toThrow(`${file}: is not a response cache (its first line is neither the cache header nor a cache entry)`);
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(provider.calls).toBe(0);
      // The start-of-run check says the same before any model call (every mode that uses the cache).
      for (const mode of ['read', 'write', 'readwrite'] as const) expect(cacheFileProblem(file, mode)).toMatch(/^is not a response cache/u);
      expect(cacheFileProblem(file, 'off')).toBeUndefined();
    });
  }

  test('a symlinked .lokal-cache/responses.jsonl pointing at a predictions file: refused, the target untouched', async () => {
    const target = fresh('predictions.jsonl');
    writeFileSync(target, PREDICTIONS);
    const cacheDir = path.join(path.dirname(target), '.lokal-cache');
    mkdirSync(cacheDir);
    const link = path.join(cacheDir, 'responses.jsonl');
    symlinkSync(target, link);
    const cached = withCache(new EchoProvider(), { file: link, env: {}, warn: () => undefined });
    await expect(cached.generate([{ prompt: 'x' }])).rejects.toThrow(/is not a response cache/u);
    expect(readFileSync(target, 'utf8')).toBe(PREDICTIONS);
  });
});

describe('a cache', () => {
  test('a new cache starts with the header; a rerun reads it back without a warning', async () => {
    const file = fresh('responses.jsonl');
    const provider = new EchoProvider();
    await withCache(provider, { file, env: {} }).generate([{ prompt: 'a' }]);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toBe(CACHE_HEADER);
    expect(JSON.parse(lines[1]!)).toMatchObject({ kind: 'generate', text: 'echo:a' });
    const warnings: string[] = [];
    const again = await withCache(provider, { file, env: {}, warn: (m) => warnings.push(m) }).generate([{ prompt: 'a' }]);
    expect(again[0]!.cached).toBe(true);
    expect(warnings).toEqual([]);
    expect(provider.calls).toBe(1);
  });

  test('a cache written before the header (first line an entry) is read and extended, its torn last line cut', async () => {
    const file = fresh('responses.jsonl');
    const key = generateCacheKey(new EchoProvider().describe(), { prompt: 'a' });
    const entry = JSON.stringify({ key, kind: 'generate', text: 'old answer', latencyMs: 1 });
    writeFileSync(file, `${entry}\n{"key":"12","kind":"gen`);
    const provider = new EchoProvider();
    const out = await withCache(provider, { file, env: {}, warn: () => undefined }).generate([{ prompt: 'a' }, { prompt: 'b' }]);
    expect(out.map((r) => r.text)).toEqual(['old answer', 'echo:b']);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toBe(entry);
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[1]!)).toMatchObject({ text: 'echo:b' });
  });

  test('a first write cut inside the header counts as an empty cache: the header is written whole again', async () => {
    const file = fresh('responses.jsonl');
    writeFileSync(file, CACHE_HEADER.slice(0, 9));
    await withCache(new EchoProvider(), { file, env: {}, warn: () => undefined }).generate([{ prompt: 'a' }]);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[0]).toBe(CACHE_HEADER);
    expect(lines).toHaveLength(3);
  });
});
