// removeStalePackedCopies (test/support/installedPackage.ts): which packed copies of older checkouts leave tmp.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { removeStalePackedCopies } from './support/installedPackage.ts';

const parent = mkdtempSync(path.join(tmpdir(), 'lokal-packed-copies-test-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

const DAY = 24 * 3_600_000;
const NOW = Date.UTC(2026, 11, 5, 12);

/** A packed copy named by `hash`, its report.json (when finished) and folder last touched `ageMs` before NOW. */
function copy(hash: string, ageMs: number, finished = true): string {
  const folder = path.join(parent, `lokal-packed-${hash}`);
  mkdirSync(path.join(folder, '.npm-pack'), { recursive: true });
  const when = new Date(NOW - ageMs);
  if (finished) {
    writeFileSync(path.join(folder, '.npm-pack', 'report.json'), '[]');
    utimesSync(path.join(folder, '.npm-pack', 'report.json'), when, when);
  }
  utimesSync(folder, when, when);
  return folder;
}

test('copies unused for longer than the limit go; this run’s, recently used, locked and unrelated folders stay', () => {
  copy('0000000000000001', 3 * DAY); // this run's own, however old
  copy('0000000000000002', DAY + 1); // stale
  copy('0000000000000003', DAY - 1); // used within the day
  copy('0000000000000004', 5 * DAY);
  mkdirSync(path.join(parent, 'lokal-packed-0000000000000004.lock')); // being packed
  copy('0000000000000005', 2 * DAY, false); // an unfinished pack left by a killed run
  const unfinishedFresh = copy('0000000000000006', 60_000, false);
  // an old report in a folder touched today still counts from the report: the report is what a use touches
  const reportOld = copy('0000000000000007', 2 * DAY);
  utimesSync(reportOld, new Date(NOW), new Date(NOW));
  mkdirSync(path.join(parent, 'lokal-packed-notahash'));
  mkdirSync(path.join(parent, 'lokal-built-0000000000000008'));

  const removed = removeStalePackedCopies(parent, 'lokal-packed-0000000000000001', DAY, NOW);

  expect(removed.sort()).toEqual(['lokal-packed-0000000000000002', 'lokal-packed-0000000000000005', 'lokal-packed-0000000000000007']);
  expect(readdirSync(parent).sort()).toEqual([
    'lokal-built-0000000000000008',
    'lokal-packed-0000000000000001',
    'lokal-packed-0000000000000003',
    'lokal-packed-0000000000000004',
    'lokal-packed-0000000000000004.lock',
    'lokal-packed-0000000000000006',
    'lokal-packed-notahash',
  ]);
  expect(existsSync(unfinishedFresh)).toBe(true);
});
