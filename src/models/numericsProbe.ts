// A digest of what a decoder session computes for a fixed prompt: the logits of a 21-token prompt pass at every
// position and of one decode step after it, bit for bit. Two graphs meant to compute the same numbers (the model's
// own optimised graph and its per-item edit, perItemQuantisation.ts) are compared by it on the CPU that runs them:
// the edit reproduces onnxruntime's fused kernels with separate operators, whose rounding a CPU's kernels could
// order differently (a fused multiply-add, say).
import { createHash } from 'node:crypto';
import { LOGIT_POSITIONS_INPUT } from './logitPositions.ts';

interface ProbeSession {
  inputNames: readonly string[];
  inputMetadata?: ReadonlyArray<{ name: string; shape?: ReadonlyArray<number | string> }>;
  run(feeds: Record<string, unknown>, fetches: string[]): Promise<Record<string, unknown>>;
}

type MakeTensor = (type: 'int64' | 'float32', data: BigInt64Array | Float32Array, dims: number[]) => unknown;

const PROMPT_TOKENS = 21;

/** sha256 of the probe's logits, or undefined when the session is not a float32 decoder with ids, mask, positions and past. */
export async function numericsProbe(session: ProbeSession, vocab: number, tensor: MakeTensor): Promise<string | undefined> {
  const past = (session.inputMetadata ?? []).filter((m) => /^past_key_values\.\d+\.(key|value)$/u.test(m.name));
  if (past.length === 0 || !['input_ids', 'attention_mask', 'position_ids'].every((n) => session.inputNames.includes(n))) return undefined;
  const ids = Array.from({ length: PROMPT_TOKENS }, (_, i) => (i * 7919 + 17) % Math.max(1, vocab));
  const hash = createHash('sha256');
  const run = async (tokens: number[], pastLength: number, cache: Record<string, unknown> | undefined) => {
    const n = tokens.length;
    const total = pastLength + n;
    const feeds: Record<string, unknown> = {
      input_ids: tensor('int64', BigInt64Array.from(tokens, BigInt), [1, n]),
      attention_mask: tensor('int64', new BigInt64Array(total).fill(1n), [1, total]),
      position_ids: tensor('int64', BigInt64Array.from({ length: n }, (_, j) => BigInt(pastLength + j)), [1, n]),
    };
    for (const m of past) {
      const [, heads, , dim] = (m.shape ?? []) as number[];
      feeds[m.name] = cache?.[m.name] ?? tensor('float32', new Float32Array(0), [1, Number(heads), 0, Number(dim)]);
    }
    if (session.inputNames.includes(LOGIT_POSITIONS_INPUT)) feeds[LOGIT_POSITIONS_INPUT] = tensor('int64', BigInt64Array.from({ length: n }, (_, j) => BigInt(j)), [1, n]);
    const presents = past.map((m) => m.name.replace(/^past_key_values/u, 'present'));
    const out = await session.run(feeds, ['logits', ...presents]);
    const logits = (out.logits as { data: unknown }).data;
    if (!(logits instanceof Float32Array)) throw new Error('the probe reads float32 logits only');
    hash.update(new Uint8Array(logits.buffer, logits.byteOffset, logits.byteLength));
    const next: Record<string, unknown> = {};
    past.forEach((m, i) => (next[m.name] = out[presents[i]!]));
    return { logits, next };
  };
  const first = await run(ids, 0, undefined);
  const last = first.logits.subarray(first.logits.length - vocab);
  let best = 0;
  for (let i = 1; i < last.length; i++) if (last[i]! > last[best]!) best = i;
  await run([best], PROMPT_TOKENS, first.next);
  return hash.digest('hex');
}
