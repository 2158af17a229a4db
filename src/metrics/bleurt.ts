// BLEURT's input encoding of a reference/candidate pair (google-research/bleurt `encoding.py`: `_truncate_seq_pair`
// and `encode_example`): pure, so it can be checked by hand. The model runs in src/models/encoders/bleurtScorer.ts.

/** BLEURT-20's maximum input length in tokens (`max_seq_length` of its bleurt_config.json). */
export const BLEURT_20_MAX_SEQ_LENGTH = 512;

/**
 * Shortens a token pair to at most `maxLength` tokens in total, one token at a time from the end of the longer side;
 * on a tie the candidate loses the token (BLEURT pops the reference only when it is strictly longer).
 */
export function truncateSeqPair(reference: readonly number[], candidate: readonly number[], maxLength: number): { reference: number[]; candidate: number[] } {
  if (!Number.isInteger(maxLength) || maxLength < 0) throw new Error(`maxLength must be a non-negative integer, got ${maxLength}`);
  let refLength = reference.length;
  let candLength = candidate.length;
  while (refLength + candLength > maxLength) {
    if (refLength > candLength) refLength--;
    else candLength--;
  }
  return { reference: reference.slice(0, refLength), candidate: candidate.slice(0, candLength) };
}

interface BleurtPairEncoding {
  inputIds: number[];
  /** Segment ids: 0 for [CLS], the reference and the first [SEP]; 1 for the candidate and the last [SEP]. */
  tokenTypeIds: number[];
}

/**
 * `[CLS] reference [SEP] candidate [SEP]` from the two texts' token ids (tokenised separately, no special tokens),
 * truncated to `maxSeqLength` tokens in total. BLEURT then pads to max_seq_length with id 0 and mask 0; padding
 * is masked out of attention, so callers may pad to any length.
 */
export function encodeBleurtPair(
  referenceIds: readonly number[],
  candidateIds: readonly number[],
  options: { clsId: number; sepId: number; maxSeqLength: number },
): BleurtPairEncoding {
  const { clsId, sepId, maxSeqLength } = options;
  if (!Number.isInteger(maxSeqLength) || maxSeqLength < 3) throw new Error(`maxSeqLength must be an integer of at least 3, got ${maxSeqLength}`);
  const { reference, candidate } = truncateSeqPair(referenceIds, candidateIds, maxSeqLength - 3);
  return {
    inputIds: [clsId, ...reference, sepId, ...candidate, sepId],
    tokenTypeIds: [0, ...reference.map(() => 0), 0, ...candidate.map(() => 1), 1],
  };
}
