// The real Italian dev set in ../shared/data (an archive in the official format; skipped when absent).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { decryptOpensslEnc } from '../../src/data/index.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/index.ts';
import { hasCommand, realArchive } from './helpers.ts';

const present = existsSync(realArchive);

describe.skipIf(!present)(`real MultiLoKo archive (${realArchive}; skipped when ../shared/data is absent)`, () => {
  test('250 Italian dev questions, unique ids, every one with a non-empty list of string targets', async () => {
    const dataset = await loadMultiLoKo(realArchive, 'dev', { env: {} });
    expect(dataset.subsets.map((s) => [s.key, s.translated, s.items.length])).toEqual([['italian', false, 250]]);
    const items = dataset.subsets[0]!.items;
    expect(new Set(items.map((i) => i.id)).size).toBe(250);
    for (const item of items) {
      expect(Array.isArray(item.targets)).toBe(true);
      expect(item.targets.length).toBeGreaterThan(0);
      for (const t of item.targets) expect(typeof t).toBe('string');
    }
  });

  describe.skipIf(!hasCommand('openssl'))('second method: openssl CLI, then Python 3 stdlib (tarfile, lzma, json)', () => {
    test('in-memory decryption is byte-identical to `openssl enc -d`', async () => {
      const cli = spawnSync('openssl', ['enc', '-d', '-aes-256-cbc', '-pbkdf2', '-iter', '100000', '-pass', 'pass:multiloko', '-in', realArchive], {
        maxBuffer: 1 << 30,
      });
      expect(cli.status).toBe(0);
      const ours = await decryptOpensslEnc(await readFile(realArchive), 'multiloko', realArchive);
      expect(ours.length).toBe(cli.stdout.length);
      expect(Buffer.compare(ours, cli.stdout)).toBe(0);
    });

    test.skipIf(!hasCommand('python3', ['--version']))('records equal what Python reads from the openssl-decrypted tar.xz', async () => {
      const script = [
        'import io, json, subprocess, sys, tarfile',
        "raw = subprocess.run(['openssl','enc','-d','-aes-256-cbc','-pbkdf2','-iter','100000','-pass','pass:multiloko','-in',sys.argv[1]], check=True, capture_output=True).stdout",
        "tf = tarfile.open(fileobj=io.BytesIO(raw), mode='r:xz')",
        'out = {}',
        'for m in tf.getmembers():',
        "    if m.isfile() and m.name.endswith('.jsonl'):",
        "        out[m.name] = [json.loads(l) for l in tf.extractfile(m).read().decode('utf-8').splitlines() if l.strip()]",
        'print(json.dumps(out, ensure_ascii=False))',
      ].join('\n');
      const py = spawnSync('python3', ['-c', script, realArchive], { encoding: 'utf8', maxBuffer: 1 << 30 });
      expect(py.stderr).toBe('');
      const reference = JSON.parse(py.stdout) as Record<string, unknown[]>;
      const dataset = await loadMultiLoKo(realArchive, 'dev', { env: {} });
      expect(Object.keys(reference)).toEqual(dataset.subsets.map((s) => `benchmark_data/${s.file}`));
      for (const subset of dataset.subsets) expect(subset.items).toEqual(reference[`benchmark_data/${subset.file}`]);
    });
  });
});
