// BERTScore through transformers.js: contextual token embeddings from one layer of an encoder (bert_score's defaults:
// no idf, no baseline rescaling, [CLS]/[SEP] weighted 0), then the greedy matching of src/metrics/bertScore.ts.
import { pythonStrip } from '../../core/python/pythonWhitespace.ts';
import { bertScoreFromEmbeddings, bertScoreWeights, type BertScoreResult, type TokenEmbeddings } from '../../metrics/bertScore.ts';
import { EncoderModelError, encoderGuide, int64Matrix, loadEncoder, specialTokenId, type EncoderDtype, type EncoderLoadOptions, type LoadedEncoder } from './loadEncoder.ts';

import { DEFAULT_BERTSCORE_MODEL } from '../defaults.ts';

export { DEFAULT_BERTSCORE_MODEL };

/**
 * bert_score's default layer (`model2layers` in bert_score/utils.py, tuned on WMT16) for models relevant here:
 * the encoder is cut after this many layers and its last hidden state is used.
 */
export const BERTSCORE_DEFAULT_LAYERS: Readonly<Record<string, number>> = {
  'microsoft/deberta-v3-large': 12,
  'microsoft/deberta-v3-base': 9,
  'microsoft/mdeberta-v3-base': 10,
  'microsoft/deberta-large-mnli': 18,
  'microsoft/deberta-xlarge-mnli': 40,
  'roberta-large': 17,
  'xlm-roberta-base': 9,
  'xlm-roberta-large': 17,
  'bert-base-multilingual-cased': 9,
  'distilbert-base-multilingual-cased': 5,
};

/** bert_score's default layer for a model id or a folder path ending in one (FacebookAI/roberta-large ⇒ roberta-large). */
export function bertScoreDefaultLayer(nameOrPath: string): { key: string; layer: number } | undefined {
  const normalized = nameOrPath.replaceAll('\\', '/').replace(/\/+$/, '');
  for (const [key, layer] of Object.entries(BERTSCORE_DEFAULT_LAYERS)) {
    if (normalized === key || normalized.endsWith(`/${key}`)) return { key, layer };
  }
  return undefined;
}

export interface BertScorerOptions extends EncoderLoadOptions {
  /** Hub id or local folder of a transformers.js (ONNX) export; default microsoft/deberta-v3-large. */
  model?: string;
  /** Hidden layer whose output is used; default bert_score's for known models, else the last layer. */
  layer?: number;
  /** Sentences per forward pass (default 16). */
  batchSize?: number;
  /** Tokens per sentence, special tokens included (default: the tokenizer's model_max_length), as bert_score truncates. */
  maxLength?: number;
}

export interface SentenceEmbedding extends TokenEmbeddings {
  ids: number[];
}

export interface BertScorerDescription {
  metric: 'BERTScore';
  model: string;
  dtype: EncoderDtype;
  layer: number;
  layerSource: string;
  output: string;
  idf: false;
  rescaleWithBaseline: false;
  batchSize: number;
  maxLength: number | null;
}

export interface BertScorer {
  readonly layer: number;
  describe(): BertScorerDescription;
  /** Token ids, weights and layer-`layer` vectors of each text (stripped, with special tokens), in input order. */
  embed(texts: readonly string[]): Promise<SentenceEmbedding[]>;
  /** P, R, F1 of candidates[i] against references[i]. */
  score(candidates: readonly string[], references: readonly string[]): Promise<BertScoreResult[]>;
  dispose(): Promise<void>;
}

/** Where the content tokens sit inside the tokenizer's special-token template (e.g. [CLS] … [SEP]). */
function specialTemplate(loaded: LoadedEncoder): { prefix: number; suffix: number } {
  for (const probe of ['a', 'hello', 'x', '1']) {
    const content = loaded.tokenizer.encode(probe, { add_special_tokens: false }).map(Number);
    const full = loaded.tokenizer.encode(probe, { add_special_tokens: true }).map(Number);
    if (content.length === 0) continue;
    for (let k = 0; k + content.length <= full.length; k++) {
      if (content.every((id, i) => full[k + i] === id)) return { prefix: k, suffix: full.length - k - content.length };
    }
  }
  throw new EncoderModelError('BERTScore', `cannot tell where ${loaded.name}'s tokenizer puts the text among its special tokens`);
}

class TransformersBertScorer implements BertScorer {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly template: { prefix: number; suffix: number };
  private readonly zeroWeightIds: number[];
  private readonly padId: number;

  constructor(
    private readonly loaded: LoadedEncoder,
    readonly layer: number,
    private readonly layerSource: string,
    private readonly output: string,
    private readonly batchSize: number,
    private readonly maxLength: number,
  ) {
    this.template = specialTemplate(loaded);
    const cls = specialTokenId(loaded.tokenizer, 'cls_token');
    const sep = specialTokenId(loaded.tokenizer, 'sep_token');
    if (cls === undefined || sep === undefined)
      throw new EncoderModelError('BERTScore', `${loaded.name}'s tokenizer_config.json names no ${cls === undefined ? 'cls_token' : 'sep_token'} in its vocabulary`);
    this.zeroWeightIds = [cls, sep];
    this.padId = Number(loaded.tokenizer.pad_token_id ?? 0);
  }

  describe(): BertScorerDescription {
    return {
      metric: 'BERTScore',
      model: this.loaded.name,
      dtype: this.loaded.dtype,
      layer: this.layer,
      layerSource: this.layerSource,
      output: this.output,
      idf: false,
      rescaleWithBaseline: false,
      batchSize: this.batchSize,
      maxLength: Number.isFinite(this.maxLength) ? this.maxLength : null,
    };
  }

  /** bert_score's `sent_encode`: strip, add special tokens, truncate the text (not the specials) to maxLength. */
  encode(text: string): number[] {
    const stripped = pythonStrip(text);
    const full = this.loaded.tokenizer.encode(stripped, { add_special_tokens: true }).map(Number);
    if (full.length <= this.maxLength) return full;
    const { prefix, suffix } = this.template;
    const content = this.loaded.tokenizer.encode(stripped, { add_special_tokens: false }).map(Number);
    return [...full.slice(0, prefix), ...content.slice(0, Math.max(0, this.maxLength - prefix - suffix)), ...full.slice(full.length - suffix)];
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  embed(texts: readonly string[]): Promise<SentenceEmbedding[]> {
    return this.exclusive(async () => {
      const byText = await this.embedUnique(texts);
      return texts.map((t) => byText.get(t)!);
    });
  }

  /** Each distinct text once, longest first so batches pad little; padding is masked out of attention. */
  private async embedUnique(texts: readonly string[]): Promise<Map<string, SentenceEmbedding>> {
    texts.forEach((t, i) => {
      if (typeof t !== 'string') throw new TypeError(`BERTScore: text ${i} is not a string`);
    });
    const encoded = [...new Set(texts)].map((text) => ({ text, ids: this.encode(text) }));
    encoded.sort((a, b) => b.ids.length - a.ids.length);
    const out = new Map<string, SentenceEmbedding>();
    for (let start = 0; start < encoded.length; start += this.batchSize) {
      const batch = encoded.slice(start, start + this.batchSize);
      const width = batch[0]!.ids.length;
      const inputs = {
        input_ids: int64Matrix(batch.map((e) => [...e.ids, ...Array<number>(width - e.ids.length).fill(this.padId)])),
        attention_mask: int64Matrix(batch.map((e) => e.ids.map(() => 1).concat(Array<number>(width - e.ids.length).fill(0)))),
        ...(this.loaded.inputNames.includes('token_type_ids') ? { token_type_ids: int64Matrix(batch.map(() => Array<number>(width).fill(0))) } : {}),
      };
      const result = await this.loaded.model(inputs);
      const states = result[this.output];
      if (!states) throw new EncoderModelError('BERTScore', `${this.loaded.name} returned no ${this.output} output`);
      const [b, s, h] = states.dims as number[];
      if (b !== batch.length || s !== width || h === undefined)
        throw new EncoderModelError('BERTScore', `${this.loaded.name}'s ${this.output} has shape [${states.dims.join(', ')}], expected [${batch.length}, ${width}, hidden]`);
      const data = states.data as Float32Array;
      batch.forEach((e, row) => {
        const vectors = e.ids.map((_, p) => data.slice((row * s + p) * h, (row * s + p + 1) * h));
        out.set(e.text, { ids: e.ids, weights: bertScoreWeights(e.ids, this.zeroWeightIds), vectors });
      });
    }
    return out;
  }

  score(candidates: readonly string[], references: readonly string[]): Promise<BertScoreResult[]> {
    if (candidates.length !== references.length)
      return Promise.reject(new Error(`BERTScore: ${candidates.length} candidates but ${references.length} references`));
    return this.exclusive(async () => {
      const byText = await this.embedUnique([...candidates, ...references]);
      return candidates.map((c, i) => bertScoreFromEmbeddings(byText.get(c)!, byText.get(references[i]!)!));
    });
  }

  dispose(): Promise<void> {
    return this.exclusive(async () => {
      await this.loaded.model.dispose();
    });
  }
}

/**
 * Loads the encoder and picks its output: `hidden_states.<layer>` when the ONNX graph exposes per-layer states,
 * else `last_hidden_state` when the model has exactly `layer` layers (an export cut at that layer, as bert_score
 * cuts the model); anything else is an error, since another layer gives other scores than the reference.
 */
export async function createBertScorer(options: BertScorerOptions = {}): Promise<BertScorer> {
  const spec = options.model ?? DEFAULT_BERTSCORE_MODEL;
  const batchSize = options.batchSize ?? 16;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new EncoderModelError('BERTScore', `batchSize must be a positive integer, got ${batchSize}`);
  if (options.layer !== undefined && (!Number.isInteger(options.layer) || options.layer < 0))
    throw new EncoderModelError('BERTScore', `layer must be a non-negative integer, got ${options.layer}`);
  const loaded = await loadEncoder('BERTScore', spec, 'base', options);
  try {
    const layers = Number(loaded.model.config.num_hidden_layers);
    const known = bertScoreDefaultLayer(loaded.source.kind === 'hub' ? loaded.source.id : (loaded.source.id ?? loaded.source.path));
    const layer = options.layer ?? known?.layer ?? layers;
    const layerSource = options.layer !== undefined ? 'option' : known ? `bert_score default for ${known.key}` : 'last layer of the model';
    if (!Number.isInteger(layer)) throw new EncoderModelError('BERTScore', `${loaded.name}'s config.json has no num_hidden_layers; pass layer explicitly`);
    let output: string;
    if (loaded.outputNames.includes(`hidden_states.${layer}`)) output = `hidden_states.${layer}`;
    else if (layer === layers && loaded.outputNames.includes('last_hidden_state')) output = 'last_hidden_state';
    else
      throw new EncoderModelError(
        'BERTScore',
        `layer ${layer} (${layerSource}) is needed, but ${loaded.name} is a ${layers}-layer export whose ONNX outputs are ` +
          `[${loaded.outputNames.join(', ')}]. Export the model cut to ${layer} layers (num_hidden_layers=${layer}; see ` +
          `${encoderGuide()}), or pass layer: ${layers} to use its last layer (scores then differ from the reference)`,
      );
    const maxLength = options.maxLength ?? loaded.tokenizer.model_max_length ?? Infinity;
    if (!(maxLength >= 3)) throw new EncoderModelError('BERTScore', `maxLength must be at least 3, got ${maxLength}`);
    return new TransformersBertScorer(loaded, layer, layerSource, output, batchSize, maxLength);
  } catch (error) {
    await loaded.model.dispose();
    throw error;
  }
}
