// BLEURT through transformers.js: a regression cross-encoder over `[CLS] reference [SEP] candidate [SEP]`
// (segment ids 0/1, truncated as BLEURT does, src/metrics/bleurt.ts); the score is the model's single logit.
import { BLEURT_20_MAX_SEQ_LENGTH, encodeBleurtPair } from '../../metrics/bleurt.ts';
import { EncoderModelError, int64Matrix, loadEncoder, specialTokenId, type EncoderDtype, type EncoderLoadOptions, type LoadedEncoder } from './loadEncoder.ts';

import { DEFAULT_BLEURT_MODEL } from '../defaults.ts';

export { DEFAULT_BLEURT_MODEL };

export interface BleurtScorerOptions extends EncoderLoadOptions {
  /** Hub id or local folder of a transformers.js (ONNX) export with one regression logit; default lucadiliello/BLEURT-20. */
  model?: string;
  /** Pairs per forward pass (default 16). */
  batchSize?: number;
  /** Tokens per pair, special tokens included (default 512 as BLEURT-20, at most the model's max_position_embeddings). */
  maxSeqLength?: number;
}

export interface BleurtScorerDescription {
  metric: 'BLEURT';
  model: string;
  dtype: EncoderDtype;
  maxSeqLength: number;
  batchSize: number;
}

export interface BleurtScorer {
  describe(): BleurtScorerDescription;
  /** BLEURT(references[i], candidates[i]) for every i (argument order as bleurt's `BleurtScorer.score`). */
  score(references: readonly string[], candidates: readonly string[]): Promise<number[]>;
  dispose(): Promise<void>;
}

class TransformersBleurtScorer implements BleurtScorer {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly loaded: LoadedEncoder,
    private readonly clsId: number,
    private readonly sepId: number,
    private readonly maxSeqLength: number,
    private readonly batchSize: number,
  ) {}

  describe(): BleurtScorerDescription {
    return { metric: 'BLEURT', model: this.loaded.name, dtype: this.loaded.dtype, maxSeqLength: this.maxSeqLength, batchSize: this.batchSize };
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  score(references: readonly string[], candidates: readonly string[]): Promise<number[]> {
    if (references.length !== candidates.length)
      return Promise.reject(new Error(`BLEURT: ${references.length} references but ${candidates.length} candidates`));
    return this.exclusive(async () => {
      const tokens = new Map<string, number[]>();
      const ids = (text: string, what: string) => {
        if (typeof text !== 'string') throw new TypeError(`BLEURT: ${what} is not a string`);
        let t = tokens.get(text);
        if (!t) tokens.set(text, (t = this.loaded.tokenizer.encode(text, { add_special_tokens: false }).map(Number)));
        return t;
      };
      const pairs = references.map((r, i) =>
        encodeBleurtPair(ids(r, `reference ${i}`), ids(candidates[i]!, `candidate ${i}`), { clsId: this.clsId, sepId: this.sepId, maxSeqLength: this.maxSeqLength }),
      );
      const scores: number[] = [];
      for (let start = 0; start < pairs.length; start += this.batchSize) {
        const batch = pairs.slice(start, start + this.batchSize);
        const width = Math.max(...batch.map((p) => p.inputIds.length));
        const pad = (row: number[], value: number) => row.concat(Array<number>(width - row.length).fill(value));
        const result = await this.loaded.model({
          input_ids: int64Matrix(batch.map((p) => pad(p.inputIds, 0))),
          attention_mask: int64Matrix(batch.map((p) => pad(p.inputIds.map(() => 1), 0))),
          token_type_ids: int64Matrix(batch.map((p) => pad(p.tokenTypeIds, 0))),
        });
        const logits = result.logits;
        if (!logits) throw new EncoderModelError('BLEURT', `${this.loaded.name} returned no logits`);
        const columns = logits.dims.length === 1 ? 1 : Number(logits.dims[1]);
        if (Number(logits.dims[0]) !== batch.length || columns !== 1)
          throw new EncoderModelError('BLEURT', `${this.loaded.name}'s logits have shape [${logits.dims.join(', ')}], expected [${batch.length}, 1] (one regression output)`);
        const data = logits.data as Float32Array;
        for (let i = 0; i < batch.length; i++) scores.push(data[i]!);
      }
      return scores;
    });
  }

  dispose(): Promise<void> {
    return this.exclusive(async () => {
      await this.loaded.model.dispose();
    });
  }
}

export async function createBleurtScorer(options: BleurtScorerOptions = {}): Promise<BleurtScorer> {
  const spec = options.model ?? DEFAULT_BLEURT_MODEL;
  const batchSize = options.batchSize ?? 16;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new EncoderModelError('BLEURT', `batchSize must be a positive integer, got ${batchSize}`);
  const loaded = await loadEncoder('BLEURT', spec, 'regression', options);
  try {
    if (!loaded.inputNames.includes('token_type_ids'))
      throw new EncoderModelError('BLEURT', `${loaded.name}'s ONNX graph has no token_type_ids input (inputs: ${loaded.inputNames.join(', ')}): BLEURT needs the segment ids of reference and candidate`);
    if (!loaded.outputNames.includes('logits'))
      throw new EncoderModelError('BLEURT', `${loaded.name}'s ONNX graph has no logits output (outputs: ${loaded.outputNames.join(', ')})`);
    const cls = specialTokenId(loaded.tokenizer, 'cls_token');
    const sep = specialTokenId(loaded.tokenizer, 'sep_token');
    if (cls === undefined || sep === undefined)
      throw new EncoderModelError('BLEURT', `${loaded.name}'s tokenizer_config.json names no ${cls === undefined ? 'cls_token' : 'sep_token'} in its vocabulary`);
    const positions = Number(loaded.model.config.max_position_embeddings ?? BLEURT_20_MAX_SEQ_LENGTH);
    const maxSeqLength = options.maxSeqLength ?? Math.min(BLEURT_20_MAX_SEQ_LENGTH, positions);
    if (!Number.isInteger(maxSeqLength) || maxSeqLength < 3 || maxSeqLength > positions)
      throw new EncoderModelError('BLEURT', `maxSeqLength must be an integer in [3, ${positions}] (the model's max_position_embeddings), got ${maxSeqLength}`);
    return new TransformersBleurtScorer(loaded, cls, sep, maxSeqLength, batchSize);
  } catch (error) {
    await loaded.model.dispose();
    throw error;
  }
}
