import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBleurtScorer, type BleurtScorer } from '../../src/models/encoders/bleurtScorer.ts';
import { EncoderModelError } from '../../src/models/encoders/loadEncoder.ts';
import { writeTinyEncoder, type TinyEncoderInfo } from '../support/tinyEncoder.ts';
import { loadTinyEncoderReference, type TinyEncoderReference } from '../support/tinyEncoderReference.ts';

// A tiny regression cross-encoder stands in for BLEURT-20: the scorer's output for a pair must equal the reference
// network's regression output on [CLS] reference [SEP] candidate [SEP] with segment ids 0…0 1…1.
const root = mkdtempSync(path.join(tmpdir(), 'lokal-bleurt-'));
let info: TinyEncoderInfo;
let ref: TinyEncoderReference;
let scorer: BleurtScorer;

beforeAll(async () => {
  info = writeTinyEncoder(path.join(root, 'tiny-bleurt'), { kind: 'regression', seed: 31 });
  ref = loadTinyEncoderReference(info.dir);
  scorer = await createBleurtScorer({ model: info.dir, env: {}, batchSize: 2 });
});
afterAll(async () => {
  await scorer?.dispose();
  rmSync(root, { recursive: true, force: true });
});

const id = (token: string) => {
  const i = info.vocab.indexOf(token);
  if (i < 0) throw new Error(`no token ${token}`);
  return i;
};
/** Token ids written out by hand from the vocabulary (greedy longest-first WordPiece: "bata" = b ##at ##a). */
const pair = (reference: string[], candidate: string[]) => ({
  ids: ['[CLS]', ...reference, '[SEP]', ...candidate, '[SEP]'].map(id),
  types: [0, ...reference.map(() => 0), 0, ...candidate.map(() => 1), 1],
});

describe('createBleurtScorer on a tiny regression encoder', () => {
  test('scores equal the reference network on hand-tokenised pairs to 1e-5', async () => {
    const references = ['ang mga bata', 'Salamat po', 'oo'];
    const candidates = ['mga bata', 'salamat', 'hindi po'];
    const expected = [
      pair(['ang', 'mga', 'b', '##at', '##a'], ['mga', 'b', '##at', '##a']),
      pair(['S', '##a', '##l', '##a', '##m', '##at', 'po'], ['salamat']),
      pair(['oo'], ['hindi', 'po']),
    ].map((p) => ref.regression(p.ids, p.types));
    const scores = await scorer.score(references, candidates);
    expect(scores).toHaveLength(3);
    for (let i = 0; i < 3; i++) expect(Math.abs(scores[i]! - expected[i]!)).toBeLessThan(1e-5);
    expect(scorer.describe()).toMatchObject({ metric: 'BLEURT', model: info.dir, maxSeqLength: 128, dtype: 'fp32' });
  });

  test('the reference goes first: swapping the arguments changes the score', async () => {
    const [forward] = await scorer.score(['ang mga bata'], ['oo']);
    const [swapped] = await scorer.score(['oo'], ['ang mga bata']);
    expect(Math.abs(forward! - ref.regression(pair(['ang', 'mga', 'b', '##at', '##a'], ['oo']).ids, pair(['ang', 'mga', 'b', '##at', '##a'], ['oo']).types))).toBeLessThan(1e-5);
    expect(Math.abs(forward! - swapped!)).toBeGreaterThan(1e-4);
  });

  test('batched equals unbatched', async () => {
    const one = await createBleurtScorer({ model: info.dir, env: {}, batchSize: 1 });
    try {
      const refs = ['Salamat po, Señor!', 'oo', 'ang mga bata ay naglalaro sa labas', 'hindi'];
      const cands = ['salamat', 'Oo naman po', 'naglalaro', 'hindi ko alam'];
      const a = await one.score(refs, cands);
      const b = await scorer.score(refs, cands);
      for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(1e-6);
    } finally {
      await one.dispose();
    }
  });

  test('pairs longer than maxSeqLength are shortened from the longer side, as BLEURT', async () => {
    const short = await createBleurtScorer({ model: info.dir, env: {}, maxSeqLength: 8 });
    try {
      // 5 + 2 tokens, room for 8 − 3 = 5: the reference (longer) loses "sa", then "po"
      const [s] = await short.score(['ang mga salamat po sa'], ['oo hindi']);
      const p = pair(['ang', 'mga', 'salamat'], ['oo', 'hindi']);
      expect(Math.abs(s! - ref.regression(p.ids, p.types))).toBeLessThan(1e-5);
    } finally {
      await short.dispose();
    }
  });

  test('configuration errors are explicit', async () => {
    await expect(createBleurtScorer({ model: info.dir, env: {}, maxSeqLength: 129 })).rejects.toThrow(/maxSeqLength must be an integer in \[3, 128\]/);
    await expect(scorer.score(['a', 'b'], ['c'])).rejects.toThrow(/2 references but 1 candidates/);
    const plain = writeTinyEncoder(path.join(root, 'not-regression'), { seed: 32 });
    const error = await createBleurtScorer({ model: plain.dir, env: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(EncoderModelError);
    expect(error.message).toMatch(/no logits output/);
  });

  test('offline without a local copy of BLEURT-20: a clear error', async () => {
    const error = await createBleurtScorer({ env: { HF_HUB_OFFLINE: '1' } }).catch((e) => e);
    expect(error).toBeInstanceOf(EncoderModelError);
    expect(error.message).toContain('BLEURT: model "lucadiliello/BLEURT-20" is not available locally');
    expect(error.message).toContain('LOKAL_MODEL_DIR (not set)');
  });
});
