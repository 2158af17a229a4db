// A weight file whose operator the installed onnxruntime lacks (q4's MatMulNBits before onnxruntime 1.17) fails the
// load with one line naming the file, the operator, the onnxruntime version and the other dtypes present.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { missingOperator } from '../../src/models/missingOperator.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';
import { QUANTISED_FILES, writeQuantisedModel } from '../support/quantiseOnnx.ts';
import { writeTinyModel } from '../support/tinyModel.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-missing-op-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('missingOperator', () => {
  test("reads the operator from onnxruntime's load errors: an unregistered schema, or no kernel", () => {
    expect(missingOperator('Load model from /m/onnx/model_q4.onnx failed:Fatal error: com.microsoft:MatMulNBits(-1) is not a registered function/op')).toEqual({ domain: 'com.microsoft', op: 'MatMulNBits' });
    expect(missingOperator("Could not find an implementation for MatMulNBits(1) node with name 'q_proj_Q4'")).toEqual({ domain: '', op: 'MatMulNBits' });
    expect(missingOperator('Load model failed: Protobuf parsing failed.')).toBeUndefined();
  });
});

describe('a q4 file on an onnxruntime without its operator', () => {
  test('is one clear error naming the file, the operator, the onnxruntime version and the dtypes present', async () => {
    const dir = path.join(root, 'model');
    writeTinyModel(dir, { maxPositions: 64, seed: 51 });
    const { file } = writeQuantisedModel(dir, 'q4');
    writeQuantisedModel(dir, 'q8');
    // the same bytes with the operator renamed (same length): what an onnxruntime without MatMulNBits sees
    writeFileSync(file, Buffer.from(readFileSync(file).toString('latin1').replaceAll('MatMulNBits', 'MatMulNBitz'), 'latin1'));
    const provider = new TransformersProvider(dir, { env: {}, dtype: 'q4', log: () => undefined });
    const error = await provider.generate([{ prompt: 'Ciao', maxNewTokens: 1 }]).then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(
      new RegExp(
        `^\\[transformers\\] ${path.join(dir, 'onnx', QUANTISED_FILES.q4).replace(/[.\\/]/gu, '\\$&')} \\(q4\\) needs the operator com\\.microsoft:MatMulNBitz, ` +
          `which onnxruntime-node \\d+\\.\\d+\\.\\d+ does not have: install a newer onnxruntime-node or pick another dtype with LOKAL_DTYPE \\(this folder also has fp32, q8\\)$`,
        'u',
      ),
    );
    expect(error!.message.split('\n')).toHaveLength(1);
  });
});
