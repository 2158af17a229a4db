// Workers holding a local model start with large allocations on transparent huge pages (GLIBC_TUNABLES): the list is
// built onto the user's own, a user's own hugetlb choice stands, and a process started with it really gets huge pages.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { HUGE_PAGES_TUNABLE, hugePagesEnv, withHugePages } from '../../src/vitest/hugePages.ts';
import { lokalEvalsProjectTest } from '../../src/vitest/config.ts';

describe('withHugePages', () => {
  test('added to an empty or absent list, appended to a list of other tunables', () => {
    expect(withHugePages(undefined)).toBe('glibc.malloc.hugetlb=1');
    expect(withHugePages('  ')).toBe('glibc.malloc.hugetlb=1');
    expect(withHugePages('glibc.malloc.arena_max=2')).toBe('glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1');
    expect(withHugePages('glibc.malloc.arena_max=2:glibc.pthread.rseq=0')).toBe('glibc.malloc.arena_max=2:glibc.pthread.rseq=0:glibc.malloc.hugetlb=1');
  });

  test('a list that already sets glibc.malloc.hugetlb (any value) is left alone', () => {
    expect(withHugePages('glibc.malloc.hugetlb=0')).toBeUndefined();
    expect(withHugePages('glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2')).toBeUndefined();
    // A longer name that only starts alike is another tunable.
    expect(withHugePages('glibc.malloc.hugetlbx=1')).toBe('glibc.malloc.hugetlbx=1:glibc.malloc.hugetlb=1');
  });

  test('hugePagesEnv: Linux only', () => {
    expect(hugePagesEnv('linux', {})).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' });
    expect(hugePagesEnv('linux', { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' })).toEqual({});
    expect(hugePagesEnv('darwin', {})).toEqual({});
    expect(hugePagesEnv('win32', {})).toEqual({});
  });
});

describe('lokalEvalsProjectTest', () => {
  const tunables = (config: { env?: Record<string, string> }) => config.env?.GLIBC_TUNABLES?.split(':') ?? [];
  const ownChoice = /(^|:)glibc\.malloc\.hugetlb=/u.test(process.env.GLIBC_TUNABLES ?? '');

  test.skipIf(process.platform !== 'linux' || ownChoice)('a run with a local model starts its workers with the tunable; remote and replay runs do not', () => {
    expect(tunables(lokalEvalsProjectTest({ settings: { model: 'transformers:/models/tiny' } }))).toContain(HUGE_PAGES_TUNABLE);
    expect(tunables(lokalEvalsProjectTest({ settings: { model: 'llama:/models/tiny.gguf' } }))).toContain(HUGE_PAGES_TUNABLE);
    expect(lokalEvalsProjectTest({ settings: { model: 'openai:served' } })).not.toHaveProperty('env');
    expect(lokalEvalsProjectTest({ settings: { model: 'replay:predictions.jsonl' } })).not.toHaveProperty('env');
  });

  test.skipIf(process.platform !== 'linux' || ownChoice)('hugePages: false leaves the workers alone; true sets it whatever the model', () => {
    expect(lokalEvalsProjectTest({ settings: { model: 'transformers:/models/tiny' }, hugePages: false })).not.toHaveProperty('env');
    expect(tunables(lokalEvalsProjectTest({ settings: { model: 'openai:served' }, hugePages: true }))).toContain(HUGE_PAGES_TUNABLE);
  });
});

/** Why a process here cannot show transparent huge pages, or undefined when it can. */
function noHugePages(): string | undefined {
  if (process.platform !== 'linux') return 'not Linux';
  const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;
  if (!glibc) return 'node is not linked with glibc';
  const [major, minor] = glibc.split('.').map(Number);
  if (major! < 2 || (major === 2 && minor! < 35)) return `glibc ${glibc} has no glibc.malloc.hugetlb (2.35 and later)`;
  const setting = '/sys/kernel/mm/transparent_hugepage/enabled';
  if (!existsSync(setting)) return 'the kernel has no transparent huge pages';
  const mode = /\[(\w+)\]/u.exec(readFileSync(setting, 'utf8'))?.[1];
  return mode === 'never' ? 'transparent huge pages are off (never)' : undefined;
}

const skipReason = noHugePages();

describe.skipIf(skipReason !== undefined)(`a process started with it${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  /** AnonHugePages (kB) of a child node that fills a 64 MiB buffer, started with `env`. */
  const hugeKiB = (env: Record<string, string>) => {
    // The buffer stays referenced: a collection of it before the read would unmap it.
    const script = `const kept = Buffer.alloc(64 << 20, 1); process.stdout.write(/AnonHugePages:\\s+(\\d+)/.exec(require('fs').readFileSync('/proc/self/smaps_rollup', 'utf8'))[1]); kept.fill(0);`;
    const { GLIBC_TUNABLES: _, ...rest } = process.env;
    const child = spawnSync(process.execPath, ['-e', script], { env: { ...rest, ...env }, encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    return Number(child.stdout);
  };

  test('its large allocations lie on huge pages (without it, under the kernel’s madvise mode, they do not)', () => {
    const mode = /\[(\w+)\]/u.exec(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))?.[1];
    // Most of the 64 MiB: the buffer's ends need not be aligned to 2 MiB.
    expect(hugeKiB(hugePagesEnv('linux', {}))).toBeGreaterThanOrEqual(32 * 1024);
    if (mode === 'madvise') expect(hugeKiB({})).toBeLessThan(32 * 1024);
  });
});
