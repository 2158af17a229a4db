import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bertScoreFromEmbeddings } from '../../src/metrics/bertScore.ts';
import { createBertScorer, type BertScorer } from '../../src/models/encoders/bertScorer.ts';
import { EncoderModelError } from '../../src/models/encoders/loadEncoder.ts';
import { writeTinyEncoder, type TinyEncoderInfo } from '../support/tinyEncoder.ts';
import { loadTinyEncoderReference, type TinyEncoderReference } from '../support/tinyEncoderReference.ts';

// A tiny 3-layer encoder stands in for deberta-v3-large: BERTScore through transformers.js must equal the greedy
// matching applied to the reference network's float64 embeddings of the same token ids.
const root = mkdtempSync(path.join(tmpdir(), 'lokal-bertscore-'));
let info: TinyEncoderInfo;
let ref: TinyEncoderReference;
let scorer: BertScorer;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let tokenizer: any;

beforeAll(async () => {
  info = writeTinyEncoder(path.join(root, 'tiny-bert'), { layers: 3, seed: 21 });
  ref = loadTinyEncoderReference(info.dir);
  tokenizer = await AutoTokenizer.from_pretrained(info.dir);
  scorer = await createBertScorer({ model: info.dir, env: {}, batchSize: 3 });
});
afterAll(async () => {
  await scorer?.dispose();
  rmSync(root, { recursive: true, force: true });
});

const CLS = 2;
const SEP = 3;
/** The reference computation: tokenizer ids, the network's layer-`layer` states, weight 0 for [CLS]/[SEP]. */
function referenceEmbedding(text: string, layer: number) {
  const ids = (tokenizer.encode(text.trim()) as number[]).map(Number);
  return { vectors: ref.hiddenStates(ids)[layer]!, weights: ids.map((id) => (id === CLS || id === SEP ? 0 : 1)) };
}
const candidates = ['Salamat po sa tulong ninyo.', 'Hindi ko alam.', 'ang mga bata ay naglalaro', 'Oo, salamat!', 'The capital is Manila.'];
const references = ['Maraming salamat po.', 'Hindi po ako sigurado.', 'naglalaro ang mga bata sa labas', 'Salamat!', 'Manila is the capital.'];

describe('createBertScorer on a tiny encoder', () => {
  test('without a known model name it uses the last layer, recorded in describe()', () => {
    expect(scorer.describe()).toMatchObject({ metric: 'BERTScore', model: info.dir, layer: 3, layerSource: 'last layer of the model', output: 'hidden_states.3', idf: false, rescaleWithBaseline: false, maxLength: 128 });
  });

  test('P, R, F1 equal the greedy matching of the reference network embeddings to 1e-6', async () => {
    const scores = await scorer.score(candidates, references);
    expect(scores).toHaveLength(candidates.length);
    for (let i = 0; i < candidates.length; i++) {
      const expected = bertScoreFromEmbeddings(referenceEmbedding(candidates[i]!, 3), referenceEmbedding(references[i]!, 3));
      for (const key of ['precision', 'recall', 'f1'] as const) expect(Math.abs(scores[i]![key] - expected[key])).toBeLessThan(1e-6);
    }
    // a sanity check that the scores are informative: a sentence against itself scores 1, others less
    const self = await scorer.score([candidates[0]!], [candidates[0]!]);
    expect(Math.abs(self[0]!.f1 - 1)).toBeLessThan(1e-6);
    expect(scores.every((s) => s.f1 < 0.999)).toBe(true);
  });

  test('an explicit layer selects that hidden state', async () => {
    const first = await createBertScorer({ model: info.dir, env: {}, layer: 1 });
    try {
      expect(first.describe()).toMatchObject({ layer: 1, layerSource: 'option', output: 'hidden_states.1' });
      const [s] = await first.score([candidates[1]!], [references[1]!]);
      const expected = bertScoreFromEmbeddings(referenceEmbedding(candidates[1]!, 1), referenceEmbedding(references[1]!, 1));
      expect(Math.abs(s!.f1 - expected.f1)).toBeLessThan(1e-6);
      const [last] = await scorer.score([candidates[1]!], [references[1]!]);
      expect(Math.abs(s!.f1 - last!.f1)).toBeGreaterThan(1e-4);
    } finally {
      await first.dispose();
    }
  });

  test('batched equals unbatched (padding is masked out)', async () => {
    const one = await createBertScorer({ model: info.dir, env: {}, batchSize: 1 });
    try {
      const a = await one.score(candidates, references);
      const b = await scorer.score(candidates, references);
      for (let i = 0; i < a.length; i++) for (const key of ['precision', 'recall', 'f1'] as const) expect(Math.abs(a[i]![key] - b[i]![key])).toBeLessThan(1e-6);
      const emb = await one.embed([candidates[2]!]);
      const embBatched = (await scorer.embed(candidates))[2]!;
      expect(emb[0]!.ids).toEqual(embBatched.ids);
    } finally {
      await one.dispose();
    }
  });

  test('texts are stripped (Python str.strip) and an empty text scores 0, as bert_score', async () => {
    const [padded] = await scorer.embed(['\u3000 Salamat po\n\x1f']);
    const [plain] = await scorer.embed(['Salamat po']);
    expect(padded!.ids).toEqual(plain!.ids);
    expect(padded!.weights).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 0]); // [CLS] S ##a ##l ##a ##m ##at po [SEP]
    const [empty] = await scorer.score(['  '], ['Salamat po']);
    expect(empty).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  test('long texts are cut to maxLength tokens, keeping [CLS] and [SEP]', async () => {
    const short = await createBertScorer({ model: info.dir, env: {}, maxLength: 6 });
    try {
      const [e] = await short.embed(['ang mga bata ay naglalaro']);
      // ang mga bata… -> [CLS] ang mga b ##at [SEP] ("bata": b, then the longest piece ##at, then ##a): 6 tokens
      expect(e!.ids.map((id) => info.vocab[id])).toEqual(['[CLS]', 'ang', 'mga', 'b', '##at', '[SEP]']);
      expect(e!.vectors).toHaveLength(6);
    } finally {
      await short.dispose();
    }
  });

  test('mismatched inputs are rejected', async () => {
    await expect(scorer.score(['a'], [])).rejects.toThrow(/1 candidates but 0 references/);
  });
});

describe('model resolution and defaults', () => {
  test('the default model under LOKAL_MODEL_DIR uses bert_score layer 12 for microsoft/deberta-v3-large', async () => {
    const dir = mkdtempSync(path.join(root, 'models-'));
    const stand = writeTinyEncoder(path.join(dir, 'microsoft', 'deberta-v3-large'), { layers: 12, seed: 22 });
    const s = await createBertScorer({ env: { LOKAL_MODEL_DIR: dir } });
    try {
      expect(s.describe()).toMatchObject({ model: 'microsoft/deberta-v3-large', layer: 12, layerSource: 'bert_score default for microsoft/deberta-v3-large' });
      const standRef = loadTinyEncoderReference(stand.dir);
      const [r] = await s.score(['Oo, salamat!'], ['Salamat!']);
      const emb = (text: string) => {
        const ids = (tokenizer.encode(text) as number[]).map(Number);
        return { vectors: standRef.hiddenStates(ids)[12]!, weights: ids.map((id) => (id === CLS || id === SEP ? 0 : 1)) };
      };
      expect(Math.abs(r!.f1 - bertScoreFromEmbeddings(emb('Oo, salamat!'), emb('Salamat!')).f1)).toBeLessThan(1e-6);
    } finally {
      await s.dispose();
    }
  });

  test('a model that cannot give the reference layer is refused with instructions', async () => {
    const dir = mkdtempSync(path.join(root, 'models-'));
    writeTinyEncoder(path.join(dir, 'microsoft', 'deberta-v3-large'), { layers: 2, seed: 23 });
    const error = await createBertScorer({ env: { LOKAL_MODEL_DIR: dir } }).catch((e) => e);
    expect(error).toBeInstanceOf(EncoderModelError);
    expect(error.message).toMatch(/layer 12 \(bert_score default for microsoft\/deberta-v3-large\)/);
    expect(error.message).toMatch(/cut to 12 layers/);
  });

  test('offline without a local copy: a clear error naming where it looked and what to provide', async () => {
    const error = await createBertScorer({ env: { LOKAL_OFFLINE: '1', LOKAL_MODEL_DIR: root } }).catch((e) => e);
    expect(error).toBeInstanceOf(EncoderModelError);
    expect(error.message).toContain('BERTScore: model "microsoft/deberta-v3-large" is not available locally');
    expect(error.message).toContain(`LOKAL_MODEL_DIR=${root}/microsoft/deberta-v3-large`);
    expect(error.message).toContain('downloads are disabled');
    expect(error.message).toContain('src/models/encoders/MODELS.md');
  });

  test('a folder that does not exist, or lacks files, is named in the error', async () => {
    await expect(createBertScorer({ model: './no/such/folder', env: {} })).rejects.toThrow(/model folder "\.\/no\/such\/folder" does not exist/);
    const empty = mkdtempSync(path.join(root, 'empty-'));
    await expect(createBertScorer({ model: empty, env: {} })).rejects.toThrow(new RegExp(`${empty} has no config.json`));
  });
});
