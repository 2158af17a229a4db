// LOKAL_REDACT=auto reads GITHUB_EVENT_PATH: a FIFO there is refused at once (the visibility stays unknown, so CI
// redacts), never waited on.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { resolveRedaction } from '../../src/core/redact.ts';
import { hasMkfifo, makeFifo } from '../support/fifo.ts';

const work = mkdtempSync(path.join(tmpdir(), 'lokal-redact-event-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const env = (eventPath: string) => ({ GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_EVENT_PATH: eventPath });

test('a private repository\'s payload turns redaction off', () => {
  const file = path.join(work, 'private.json');
  writeFileSync(file, JSON.stringify({ repository: { private: true, visibility: 'private' } }));
  expect(resolveRedaction('auto', env(file))).toEqual({ on: false, reason: 'LOKAL_REDACT=auto: a private GitHub repository' });
});

test.skipIf(!hasMkfifo)('a FIFO as GITHUB_EVENT_PATH is not read: visibility unknown, redaction on in CI', { timeout: 10_000 }, () => {
  const fifo = makeFifo(path.join(work, 'event.json'));
  expect(resolveRedaction('auto', env(fifo))).toEqual({ on: true, reason: "LOKAL_REDACT=auto: CI is set and the repository's visibility is unknown" });
});
