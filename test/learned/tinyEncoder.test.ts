import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoModel, AutoModelForSequenceClassification, AutoTokenizer, Tensor } from '@huggingface/transformers';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { erf } from '../support/erf.ts';
import { writeTinyEncoder, type TinyEncoderInfo } from '../support/tinyEncoder.ts';
import { loadTinyEncoderReference, type TinyEncoderReference } from '../support/tinyEncoderReference.ts';

// Two tiny encoders (2 layers, hidden 16): built in a few ms, loaded through AutoTokenizer/AutoModel/
// AutoModelForSequenceClassification, compared with the same network evaluated in float64 from the ONNX weights.
const root = mkdtempSync(path.join(tmpdir(), 'lokal-tiny-encoder-'));
let bert: TinyEncoderInfo;
let regression: TinyEncoderInfo;
let bertRef: TinyEncoderReference;
let regressionRef: TinyEncoderReference;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let tokenizer: any;

beforeAll(async () => {
  bert = writeTinyEncoder(path.join(root, 'bert'), { seed: 11 });
  regression = writeTinyEncoder(path.join(root, 'regression'), { kind: 'regression', seed: 12 });
  bertRef = loadTinyEncoderReference(bert.dir);
  regressionRef = loadTinyEncoderReference(regression.dir);
  tokenizer = await AutoTokenizer.from_pretrained(bert.dir);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ids = (x: unknown) => (x as Array<number | bigint>).map(Number);
const tokens = (info: TinyEncoderInfo, list: number[]) => list.map((i) => info.vocab[i]);

describe('tiny encoder files', () => {
  test('the WordPiece tokenizer splits as worked out by hand, ñ included, unknown words -> [UNK]', () => {
    // BertPreTokenizer: Salamat | po | , | Señor | ! | angkop | café; greedy longest-first WordPiece over the vocabulary:
    // "Salamat": S (no "Sa"), then ##a ##l ##a ##m ##at; "angkop": ang ##k ##o ##p; "café": é is not in the vocabulary
    expect(tokens(bert, ids(tokenizer.encode('Salamat po, Señor! angkop café')))).toEqual([
      '[CLS]', 'S', '##a', '##l', '##a', '##m', '##at', 'po', ',', 'S', '##e', '##ñ', '##o', '##r', '!', 'ang', '##k', '##o', '##p', '[UNK]', '[SEP]',
    ]);
    const pair = tokenizer('mga oo', { text_pair: 'hindi' });
    expect(tokens(bert, ids(pair.input_ids.tolist()[0]))).toEqual(['[CLS]', 'mga', 'oo', '[SEP]', 'hindi', '[SEP]']);
    expect(ids(pair.token_type_ids.tolist()[0])).toEqual([0, 0, 0, 0, 1, 1]);
    expect(ids(tokenizer.encode(''))).toEqual([2, 3]);
  });

  test('the ONNX graphs have the interface transformers.js feeds, built from standard ops only', () => {
    const allowed = ['Add', 'Cast', 'Erf', 'Gather', 'Identity', 'LayerNormalization', 'MatMul', 'Mul', 'Range', 'Reshape', 'Shape', 'Softmax', 'Tanh', 'Transpose', 'Unsqueeze', 'Where'];
    for (const [info, outputs] of [
      [bert, ['last_hidden_state', 'hidden_states.0', 'hidden_states.1', 'hidden_states.2']],
      [regression, ['logits']],
    ] as const) {
      const model = onnxProto.onnx.ModelProto.decode(readFileSync(path.join(info.dir, 'onnx', 'model.onnx')));
      expect(model.graph!.input!.map((i) => i.name)).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
      expect(model.graph!.output!.map((o) => o.name)).toEqual(outputs);
      for (const node of model.graph!.node!) {
        expect(allowed).toContain(node.opType);
        expect(node.domain ?? '').toBe('');
      }
    }
  });

  test('weights are deterministic in the seed', () => {
    const a = writeTinyEncoder(path.join(root, 'seed-a'), { seed: 11 });
    const b = writeTinyEncoder(path.join(root, 'seed-b'), { seed: 12 });
    const file = (info: TinyEncoderInfo) => readFileSync(path.join(info.dir, 'onnx', 'model.onnx'));
    expect(file(a).equals(file(bert))).toBe(true);
    expect(file(b).equals(file(bert))).toBe(false);
    expect(() => writeTinyEncoder(path.join(root, 'bad'), { hidden: 15, heads: 2 })).toThrow(/divisible/);
  });

  test('erf matches Python math.erf (values from python3 -c "import math; print(math.erf(x))")', () => {
    const python: Array<[number, number]> = [
      [0, 0], [0.001, 0.0011283787909692365], [0.1, 0.1124629160182849], [0.5, 0.5204998778130465], [1, 0.8427007929497149],
      [1.7, 0.9837904585907745], [2.4, 0.999311486103355], [2.5, 0.999593047982555], [2.6, 0.9997639655834707],
      [3, 0.9999779095030014], [4.2, 0.9999999971445058], [7, 1], [-0.3, -0.3286267594591274], [-2.7, -0.9998656672600594],
    ];
    for (const [x, y] of python) expect(Math.abs(erf(x) - y)).toBeLessThan(1e-15);
  });
});

describe('transformers.js path vs the float64 reference network', () => {
  const texts = ['Salamat po, Señor!', 'ang mga bata ay naglalaro sa labas ng bahay', 'oo', 'The answer is 42.'];

  test('every hidden state of a padded batch equals the reference to 1e-5', async () => {
    const model = (await AutoModel.from_pretrained(bert.dir, { dtype: 'fp32', device: 'cpu' })) as unknown as (x: Record<string, Tensor>) => Promise<Record<string, Tensor>>;
    const batch = tokenizer(texts, { padding: true });
    const out = await model(batch);
    const width = Number(batch.input_ids.dims[1]);
    let worst = 0;
    for (let b = 0; b < texts.length; b++) {
      const seq = ids(tokenizer.encode(texts[b]));
      const expected = bertRef.hiddenStates(seq);
      for (let layer = 0; layer <= 2; layer++) {
        const data = out[`hidden_states.${layer}`]!.data as Float32Array;
        for (let p = 0; p < seq.length; p++)
          for (let e = 0; e < 16; e++) worst = Math.max(worst, Math.abs(data[(b * width + p) * 16 + e]! - expected[layer]![p]![e]!));
      }
      const last = out.last_hidden_state!.data as Float32Array;
      const top = out['hidden_states.2']!.data as Float32Array;
      expect(Array.from(last.subarray(b * width * 16, (b + 1) * width * 16))).toEqual(Array.from(top.subarray(b * width * 16, (b + 1) * width * 16)));
    }
    expect(worst).toBeLessThan(1e-5);
    expect(worst).toBeGreaterThan(0); // float32 vs float64: a zero would mean the comparison compared nothing
  });

  test('the regression logit of reference/candidate pairs equals the reference to 1e-5', async () => {
    const model = (await AutoModelForSequenceClassification.from_pretrained(regression.dir, { dtype: 'fp32', device: 'cpu' })) as unknown as (
      x: Record<string, Tensor>,
    ) => Promise<{ logits: Tensor }>;
    const refs = ['ang mga bata', 'Salamat po', 'oo'];
    const cands = ['mga bata ay naglalaro', 'salamat', 'hindi po'];
    const batch = tokenizer(refs, { text_pair: cands, padding: true });
    const { logits } = await model(batch);
    expect(logits.dims).toEqual([3, 1]);
    for (let i = 0; i < refs.length; i++) {
      const pair = tokenizer(refs[i], { text_pair: cands[i] });
      const expected = regressionRef.regression(ids(pair.input_ids.tolist()[0]), ids(pair.token_type_ids.tolist()[0]));
      expect(Math.abs((logits.data as Float32Array)[i]! - expected)).toBeLessThan(1e-5);
    }
  });
});
