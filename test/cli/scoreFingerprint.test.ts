// `lokal score` records its fingerprint in its own `lokal` section and prints it: the scored subsets' file hashes, the
// scorer, no prompt or decoding (the answers were made elsewhere), extraction off, the predictions file's hash; a
// baseline made by `lokal score` is read with it, so the gate can check comparability.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { parseBaseline } from '../../src/benchmarks/multiloko/run/baseline.ts';
import { MULTILOKO_SCORER } from '../../src/benchmarks/multiloko/run/fingerprint.ts';
import { lokalBin } from '../support/installedPackage.ts';

// The built package's bin, as users run it (test/support/installedPackage.ts).
const LOKAL_BIN = await lokalBin();

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = path.join(root, 'data/fixtures/multiloko');
const dir = mkdtempSync(path.join(tmpdir(), 'lokal-score-fingerprint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('lokal score fingerprint', () => {
  test('in the output file and printed; read back as the baseline fingerprint', () => {
    const predictions = path.join(dir, 'p.jsonl');
    writeFileSync(predictions, `${JSON.stringify({ language: 'italian', id: '001_colosseo.txt', prediction: 'Roma' })}\n`);
    const out = path.join(dir, 'scores.json');
    const run = spawnSync(process.execPath, [LOKAL_BIN, 'score', '-d', fixture, '-s', 'dev', '-p', predictions, '-o', out], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const results = JSON.parse(readFileSync(out, 'utf8'));
    const italian = hashOf(path.join(fixture, 'italian', 'dev.jsonl'));
    expect(results.lokal.fingerprint).toEqual({
      version: 1, benchmark: 'multiloko', data: { italian }, prompt: null, template: null, shots: null, fewshot: null, extraction: false,
      scorer: MULTILOKO_SCORER, decoding: null, protocol: null, model: { provider: 'predictions', model: predictions, sha256: hashOf(predictions) },
      runtime: { icu: process.versions.icu, unicode: process.versions.unicode },
    });
    expect(run.stderr).toContain(`lokal score: fingerprint: data italian ${italian.slice(0, 8)}; scorer ${MULTILOKO_SCORER}; extraction false; model ${predictions} (sha256 ${hashOf(predictions).slice(0, 8)})`);
    expect(parseBaseline(readFileSync(out, 'utf8'), out).fingerprint).toEqual(results.lokal.fingerprint);
  });
});
