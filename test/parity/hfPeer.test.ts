// The TypeScript side of the Hugging Face peer bench (bench/hfPeer.ts): the logits check's difference, the output
// comparison, and the schema that reads bench/hf_peer.py's result (the peer itself needs torch, which CI lacks).
import { describe, expect, test } from 'vitest';
import { identicalCount, LOGITS_TOLERANCE, maxAbsDifference, PeerResultSchema } from '../../bench/hfPeer.ts';

describe('maxAbsDifference', () => {
  test('the largest absolute difference, either sign', () => {
    expect(maxAbsDifference([1, -2, 3.5], [1.25, -2, 3])).toBe(0.5);
    expect(maxAbsDifference(Float32Array.of(0, 10), Float32Array.of(-3, 10))).toBe(3);
  });

  test('a NaN on either side fails the tolerance instead of passing it', () => {
    const d = maxAbsDifference([0, NaN, 0], [0, 1, 0]);
    expect(d <= LOGITS_TOLERANCE).toBe(false);
  });

  test('arrays of different lengths are an error, not a partial comparison', () => {
    expect(() => maxAbsDifference([1, 2], [1])).toThrow(/lengths 2 and 1/);
  });
});

test('identicalCount counts item-by-item equal texts', () => {
  expect(identicalCount(['Roma', ' Po', 'x'], ['Roma', 'Po', 'x'])).toBe(2);
  expect(identicalCount([], ['a'])).toBe(0);
});

describe('PeerResultSchema', () => {
  const valid = {
    importSeconds: 4.1,
    loadKind: 'checkpoint',
    loadSeconds: 0.9,
    saveSeconds: 0,
    tokenizerSeconds: 0.1,
    loadRssMiB: 2100,
    logitsShape: null,
    modes: [{ mode: 'base', way: 'batched', seconds: 3, cpuSeconds: 5.5, texts: ['Roma'], promptTokens: 300, generatedTokens: 4, largestBatch: 1 }],
    peakRssMiB: 2800,
    threads: 2,
    versions: { torch: '2.13.0+cpu', transformers: '5.18.0' },
  };

  test('reads what bench/hf_peer.py writes', () => {
    expect(PeerResultSchema.parse(valid).modes[0]!.texts).toEqual(['Roma']);
  });

  test('names the field of a malformed result', () => {
    const bad = PeerResultSchema.safeParse({ ...valid, loadKind: 'onnx', modes: [{ ...valid.modes[0], way: 'all' }] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['loadKind', 'modes.0.way']);
  });
});
