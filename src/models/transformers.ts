// `transformers:<model id or local path>`: local ONNX inference on CPU through @huggingface/transformers
// (onnxruntime-node): greedy or seeded sampled generation with the chat template (concurrent calls batched, shared
// prompt prefixes reused: batchedGeneration.ts; requestSampling.ts), and batched continuation scoring from the logits.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { AutoModelForCausalLM, AutoTokenizer, env, LogLevel, StoppingCriteria, Tensor } from '@huggingface/transformers';
import {
  ProviderError,
  type ChatMessage,
  type ContinuationRequest,
  type ContinuationResult,
  type GenerateRequest,
  type GenerateResult,
  type ModelDescription,
  type ModelInput,
  type ModelProvider,
  DEFAULT_MAX_NEW_TOKENS,
} from './types.ts';

import { BatchedGeneration, emptyGenerationStats, MAX_PASS_TOKENS, type GenerationJob, type GenerationStats } from './batchedGeneration.ts';
import { DEFAULT_MODEL, DEFAULT_MODEL_DTYPE } from './defaults.ts';
import { cacheRow, commonPrefixLength, gatherPast, type GatheredPast, type PromptState, type TensorLike } from './kvCache.ts';
import { CALL_OVERHEAD_TOKENS, lengthBatches } from './lengthBatches.ts';
import { adoptLogitPositions } from './logitPositions.ts';
import { hideEngineOutputs, newKeyValuesName } from './newKeyValues.ts';
import { NEXT_TOKEN_OUTPUT } from './nextToken.ts';
import { logSumExp, sliceRow, sumLogprobs } from './logitRows.ts';
import { cutAtStop, envFlag, firstLine } from './providerText.ts';
import { useModelFileCache } from './modelFileCache.ts';
import { DTYPE_FILES, weightFiles, type ModelDtype } from './dtypeFiles.ts';
import { rangesToRead, readAhead, type FileRange } from './readAhead.ts';
import { dtypeNumerics, graphNumerics, NUMERICS, type Numerics } from './graphNumerics.ts';
import { readOnnxGraphFile, type OnnxGraphInfo } from './onnxGraphReader.ts';
import { missingOperator, OPERATOR_NOTES } from './missingOperator.ts';
import { numericsProbe } from './numericsProbe.ts';
import {
  abandonBuild,
  discardEntry,
  entryProblem,
  finishBuild,
  optimisedGraphDir,
  optimisedGraphInputs,
  optimisedGraphKey,
  PerItemEditError,
  perItemRefusal,
  refusePerItem,
  startBuild,
  type OptimisedGraphBuild,
} from './optimisedGraph.ts';
import { isUnder, unwritableCacheWarning } from './unwritableCache.ts';
import { physicalCores } from './physicalCores.ts';
import { keepMarkingOffModelCores, type ConcurrentMarking } from './concurrentMarking.ts';
import { requestSampling, tokenPicker } from './requestSampling.ts';
import { chatTemplateText, promptTextIds, requestPromptIds } from './promptTokens.ts';

export { DEFAULT_MODEL, DEFAULT_MODEL_DTYPE };

const PROVIDER = 'transformers';
/**
 * Logits cap of a generation prefill pass (floats): only each row's last position is kept, so smaller passes cost
 * about nothing and bound the logits buffers (494M model, 16 few-shot items batched: peak RSS 3,086 -> 2,771-2,800 MiB).
 */
const PREFILL_LOGITS = 16 * 1024 * 1024;

export type { ModelDtype };

export interface TransformersProviderOptions {
  /** Weight variant; default: the first present in a local folder (fp32 first), else q8 (LOKAL_DTYPE overrides). */
  dtype?: ModelDtype;
  /**
   * `exact`: what the model gives one prompt at a time (transformers.js's own generate and forward, or the same bits
   * batched per item: exactBatching); `batched`: concurrent requests batched and prompt prefixes shared. Default: exact
   * for graphs whose rows are not independent (per-tensor dynamic quantisation, float16: graphNumerics.ts), batched
   * otherwise (LOKAL_NUMERICS).
   */
  numerics?: Numerics;
  /**
   * In the exact mode, a dynamically quantised graph (quantize_dynamic's layout) gets a saved copy quantising each
   * item's activations on their own (perItemQuantisation.ts): each prompt passes alone, decode steps are batched, with
   * the bits one prompt at a time gives (checked on this CPU). Default true; false (LOKAL_EXACT_BATCHING=0): every
   * request alone through transformers.js's own generate.
   */
  exactBatching?: boolean;
  /** Hub revision (branch, tag or commit); default 'main'. */
  revision?: string;
  /** Folder holding local models as <dir>/<owner>/<name>/ (default: LOKAL_MODEL_DIR). */
  modelDir?: string;
  /** Download cache of transformers.js (default: LOKAL_MODEL_CACHE, else the library's default). */
  cacheDir?: string;
  /** Allow downloads from the Hugging Face Hub (default: true unless LOKAL_OFFLINE=1 or HF_HUB_OFFLINE=1). */
  allowRemote?: boolean;
  /** Sequences per forward pass when scoring continuations (default 8). */
  batchSize?: number;
  /** Upper bound on batch × length × vocabulary logits per forward pass (default 64M floats = 256 MB). */
  maxBatchLogits?: number;
  /**
   * Run a prompt shared by several continuations once and reuse its key/value cache; in generation, continue every
   * prompt from the stored cache of the longest token prefix it shares with earlier prompts (default true).
   */
  sharePrefix?: boolean;
  /** Requests decoded together by generate: concurrent calls join the running batch (default 8; 1 with sharePrefix false runs transformers.js's own generate one request at a time). */
  generateBatchSize?: number;
  /** Upper bound on rows × cache length of a generation batch (default 8192 positions). */
  maxBatchTokens?: number;
  /** Prefix key/value positions kept for reuse across generate calls (default 8192; 0 turns generation's prefix reuse off). */
  prefixCacheTokens?: number;
  /**
   * Positions (rows × tokens) of a generation prompt pass when the model computes logits at each row's last position
   * only (a saved optimised graph: logitPositions.ts): at most this or what the prefill's logits cap allows at every
   * position, whichever is larger (default 512).
   */
  maxPassTokens?: number;
  /**
   * onnxruntime intra-op threads (the run's LOKAL_THREADS; default 1 for weights under 64 MiB, whose matrices are too
   * small to split, else the physical cores the process may use where Linux says which, else onnxruntime's choice).
   */
  threads?: number;
  /**
   * Keep onnxruntime's optimised graph of the model (weights as external data) in the model cache folder at the first
   * load and load it with graph optimisation off later. Default 'auto': for weights of 64 MiB or more, where
   * optimising takes seconds (LOKAL_SAVE_OPTIMISED=1 always, =0 never).
   */
  saveOptimised?: boolean | 'auto';
  /**
   * Read the weight files front to back on a worker thread while the tokenizer is built and the session created, so a
   * cold load pages the mapped weights in from the page cache (readAhead.ts). Default false (LOKAL_READ_AHEAD=1: on):
   * not faster on the 2-core AMD EPYC measured (docs/performance-load.md), where the session's CPU work dominates.
   */
  readAhead?: boolean;
  /** Where the load lines go (default console.warn): `lokal: loaded …` once per load, and a line before a first optimisation. */
  log?: (line: string) => void;
  /** Environment to read (default process.env); tests pass their own. */
  env?: Record<string, string | undefined>;
}

interface Tokenizer {
  (text: string | string[], options?: Record<string, unknown>): { input_ids: Tensor; attention_mask: Tensor };
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  decode(ids: Array<number | bigint>, options?: { skip_special_tokens?: boolean }): string;
  apply_chat_template(messages: ChatMessage[], options: Record<string, unknown>): unknown;
  chat_template: unknown;
  pad_token_id?: number | null;
  eos_token_id?: number | null;
}

/** transformers.js's list of logits processors (repetition penalty, …) for one generate call. */
interface LogitsProcessors {
  (inputIds: bigint[][], logits: Tensor): Tensor;
  processors: unknown[];
}

interface GenerationConfig {
  max_length: number | null;
  max_new_tokens: number | null;
  eos_token_id: number | number[] | null;
}

interface CausalLM {
  (inputs: Record<string, unknown>): Promise<Record<string, Tensor>>;
  generate(options: Record<string, unknown>): Promise<Tensor>;
  /** Internals of transformers.js's generate, called so batched rows process logits exactly as it does. */
  _prepare_generation_config(config: null, kwargs: Record<string, unknown>): GenerationConfig;
  _get_logits_processor(config: GenerationConfig, inputLength: number, processors: null): LogitsProcessors;
  generation_config?: { eos_token_id?: number | number[] | null; repetition_penalty?: number | null } | null;
  config: { eos_token_id?: number | number[] | null; vocab_size?: number };
  dispose(): Promise<unknown>;
  sessions?: Record<string, OrtSession>;
}

/** The parts of onnxruntime's InferenceSession used to fetch the logits alone. */
interface OrtSession {
  inputNames: readonly string[];
  outputNames: readonly string[];
  inputMetadata?: ReadonlyArray<{ name: string; type?: string; shape?: ReadonlyArray<number | string> }>;
  run(feeds: Record<string, unknown>, fetches: string[]): Promise<Record<string, unknown>>;
}

/** A decoder session whose inputs are exactly ids, mask, positions and past keys/values of a known shape. */
interface LogitsSession {
  session: OrtSession;
  /** Cache inputs with their element type and [heads, dim]. */
  past: Array<{ name: string; type: 'float32' | 'float16'; heads: number; dim: number }>;
  /** The input choosing which positions get logits (a saved optimised graph's; logitPositions.ts), if any. */
  logitPositions?: string;
}

/** How a model was loaded: from its saved optimised graph, optimised now and saved, or from its files alone. */
type LoadReport =
  | { kind: 'saved'; seconds: number; dir: string }
  | { kind: 'optimised'; seconds: number; dir: string; rebuilt?: string }
  | { kind: 'plain'; seconds: number };

/** Weights under this size run on one thread by default: splitting their small matrices costs more than it saves. */
const SMALL_WEIGHTS_BYTES = 64 * 2 ** 20;

/** Weights from this size on get a saved optimised graph by default (smaller ones optimise in well under a second). */
const SAVE_OPTIMISED_MIN_BYTES = 64 * 2 ** 20;

/** Bytes of a model's graph file and its external data files. */
function weightBytes(folder: string, modelFile: string): number {
  const onnxDir = path.join(folder, 'onnx');
  return readdirSync(onnxDir)
    .filter((name) => name === modelFile || name.startsWith(`${modelFile}_data`) || name.startsWith(`${modelFile}.data`))
    .reduce((sum, name) => sum + statSync(path.join(onnxDir, name)).size, 0);
}

/** The onnxruntime-node version transformers.js runs on (part of a saved graph's key). */
function ortVersion(): string {
  const versions = (env.backends.onnx as { versions?: Record<string, string> }).versions ?? {};
  return versions.node ?? versions.common ?? 'unknown';
}

type ModelSource = { kind: 'local'; path: string } | { kind: 'hub'; id: string };

const HUB_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

/** Where a model spec points: an existing folder (as given, or under LOKAL_MODEL_DIR) or a Hub id. */
function resolveModelSource(spec: string, modelDir: string | undefined): ModelSource {
  const trimmed = spec.trim();
  if (trimmed === '') throw new ProviderError(PROVIDER, 'config', 'empty model name: use transformers:<hub id or local folder>');
  const asPath = path.resolve(trimmed);
  if (existsSync(asPath) && statSync(asPath).isDirectory()) return { kind: 'local', path: asPath };
  if (modelDir) {
    const under = path.resolve(modelDir, trimmed);
    if (existsSync(under) && statSync(under).isDirectory()) return { kind: 'local', path: under };
  }
  if (HUB_ID.test(trimmed)) return { kind: 'hub', id: trimmed };
  throw new ProviderError(
    PROVIDER,
    'not-found',
    `model folder "${trimmed}" does not exist (resolved to ${asPath}${modelDir ? `; also looked in LOKAL_MODEL_DIR=${modelDir}` : ''}) ` +
      `and it is not a Hugging Face model id of the form owner/name`,
  );
}

/**
 * The folder of a `transformers:` model's tokenizer files when they are on disk, as a load would find them: its local
 * folder (as given or under LOKAL_MODEL_DIR), or a Hub model's folder in the download cache (LOKAL_MODEL_CACHE, else
 * transformers.js's); otherwise why not, in one line. Nothing is downloaded.
 */
export function localTokenizerFolder(spec: string, vars: Readonly<Record<string, string | undefined>> = process.env): { folder: string } | { missing: string } {
  let source: ModelSource;
  try {
    source = resolveModelSource(spec, vars.LOKAL_MODEL_DIR);
  } catch (error) {
    return { missing: (error as Error).message.replace(/^\[transformers\] /u, '') };
  }
  if (source.kind === 'local') return { folder: source.path };
  const cacheRoot = path.resolve(vars.LOKAL_MODEL_CACHE ?? env.cacheDir ?? '.cache');
  const folder = path.join(cacheRoot, source.id);
  if (existsSync(path.join(folder, 'tokenizer.json'))) return { folder };
  return { missing: `${source.id} is not in the download cache (no ${path.join(folder, 'tokenizer.json')}; LOKAL_MODEL_CACHE sets the cache)` };
}

/** A fingerprint of a local model folder, so a cache never mixes up two models saved at the same path. */
function localFingerprint(dir: string): string {
  const hash = createHash('sha256');
  for (const name of ['config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json']) {
    const file = path.join(dir, name);
    if (existsSync(file)) hash.update(name).update(readFileSync(file));
  }
  const onnxDir = path.join(dir, 'onnx');
  if (existsSync(onnxDir)) {
    for (const name of readdirSync(onnxDir).sort()) {
      const st = statSync(path.join(onnxDir, name));
      hash.update(`${name}:${st.size}:${st.mtimeMs}`);
    }
  }
  return `local-${hash.digest('hex').slice(0, 16)}`;
}

/** Stops generation once the decoded new text contains any stop string (cut off afterwards). */
class StopStringCriteria extends StoppingCriteria {
  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly promptLength: number,
    private readonly stops: string[],
  ) {
    super();
  }
  override _call(inputIds: number[][]): boolean[] {
    return inputIds.map((ids) => stopHit(this.tokenizer.decode(ids.slice(this.promptLength), { skip_special_tokens: true }), this.stops));
  }
}

interface Loaded {
  tokenizer: Tokenizer;
  model: CausalLM;
  eos: number[];
  padId: number;
  vocab: number;
  /** Set when scoring may run the session directly and skip copying out the key/value outputs it does not use. */
  logitsSession?: LogitsSession;
  /**
   * Rows with prompts of different lengths may share a continuation batch (shorter prompts padded and masked in the
   * cache): only for graphs that take position ids, i.e. attention from mask and positions (optimum exports). Fused
   * attention ops that locate the cache by per-row lengths would misread a padded cache, so those batch equal lengths.
   */
  padPast: boolean;
}

interface Scoring {
  index: number;
  prefix: number[];
  full: number[];
  /** The prompt as fed (the chat template rendered, generation prompt included). */
  input: ModelInput;
}

/** One scoreContinuations call waiting for its results. */
interface ScoringCall {
  requests: ContinuationRequest[];
  resolve(results: ContinuationResult[]): void;
  reject(error: unknown): void;
}

export class TransformersProvider implements ModelProvider {
  readonly source: ModelSource;
  readonly dtype: ModelDtype;
  private readonly revision: string;
  private readonly options: Required<
    Pick<TransformersProviderOptions, 'batchSize' | 'maxBatchLogits' | 'sharePrefix' | 'generateBatchSize' | 'maxBatchTokens' | 'prefixCacheTokens' | 'maxPassTokens'>
  > &
    TransformersProviderOptions;
  private loading?: Promise<Loaded>;
  /** Work done by scoreContinuations so far (benchmarks report it): forward passes, tokens run, padded positions. */
  readonly scoringStats = { forwardCalls: 0, tokens: 0, paddedTokens: 0 };
  /** Generation's batched engine (created at first use when the model's session allows it). */
  private batched?: BatchedGeneration;
  /** Work of generate calls answered by transformers.js's own generate (one request at a time). */
  private readonly sequentialStats: GenerationStats = emptyGenerationStats();
  /** While transformers.js's generate runs one prompt alone: its passes compute logits at the last position only. */
  private lastLogitsOnly = false;
  /** Whether the head's last row comes out the same bits computed alone as among a pass's rows (checked once, exact numerics). */
  private lastRowAlone: Promise<boolean> | undefined;
  /** The left padding a decode step may give a row without changing its bits (checked once, exact numerics batched per item). */
  private decodeAlignment: Promise<number | undefined> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Scoring calls waiting for the model to be free; a call made meanwhile joins them. */
  private waitingScoring?: ScoringCall[];
  private readonly modelDir?: string;
  private readonly cacheDir?: string;
  private readonly allowRemote: boolean;
  private readonly saveOptimised: boolean | 'auto';
  private readonly readAhead: boolean;
  /** How items are run (see TransformersProviderOptions.numerics), and why the graph needs the exact mode when it does. */
  readonly numerics: Numerics;
  private readonly numericsReason?: string;
  /** Whether the exact mode batches per item (see TransformersProviderOptions.exactBatching). */
  private readonly perItem: boolean;
  /** Why it runs one prompt at a time in this process after all (no per-item graph could be loaded), once known. */
  private perItemMissing?: string;
  /** Why the exact mode cannot batch per item (the graph's pattern, or exactBatching off). */
  private readonly perItemUnavailable?: string;
  /** The local graph's nodes and types (undefined for a Hub model, or a graph that could not be read). */
  private readonly graph?: OnnxGraphInfo;
  /** How the last load went: from a saved optimised graph, optimised and saved, or plain (tests and benchmarks read it). */
  loadReport?: LoadReport;
  /** onnxruntime's intra-op threads of the loaded session (undefined: onnxruntime's default). */
  threads?: number;
  /** What the load did to V8's concurrent marking (concurrentMarking.ts). */
  concurrentMarking?: ConcurrentMarking;

  constructor(
    readonly modelSpec: string,
    options: TransformersProviderOptions = {},
  ) {
    const vars = options.env ?? process.env;
    this.modelDir = options.modelDir ?? vars.LOKAL_MODEL_DIR;
    this.cacheDir = options.cacheDir ?? vars.LOKAL_MODEL_CACHE;
    this.allowRemote = options.allowRemote ?? !(envFlag(vars.LOKAL_OFFLINE) || envFlag(vars.HF_HUB_OFFLINE));
    this.readAhead = options.readAhead ?? envFlag(vars.LOKAL_READ_AHEAD);
    this.saveOptimised = options.saveOptimised ?? (vars.LOKAL_SAVE_OPTIMISED === undefined || vars.LOKAL_SAVE_OPTIMISED.trim() === '' ? 'auto' : envFlag(vars.LOKAL_SAVE_OPTIMISED));
    this.options = {
      batchSize: 8,
      maxBatchLogits: 64 * 1024 * 1024,
      sharePrefix: true,
      generateBatchSize: 8,
      maxBatchTokens: 8192,
      prefixCacheTokens: 8192,
      maxPassTokens: MAX_PASS_TOKENS,
      ...options,
    };
    for (const key of ['batchSize', 'generateBatchSize', 'maxBatchTokens', 'maxPassTokens'] as const) {
      if (!Number.isInteger(this.options[key]) || this.options[key] < 1)
        throw new ProviderError(PROVIDER, 'config', `${key} must be a positive integer, got ${this.options[key]}`);
    }
    if (!Number.isInteger(this.options.prefixCacheTokens) || this.options.prefixCacheTokens < 0)
      throw new ProviderError(PROVIDER, 'config', `prefixCacheTokens must be a non-negative integer, got ${this.options.prefixCacheTokens}`);
    this.source = resolveModelSource(modelSpec, this.modelDir);
    const requested = options.dtype ?? (vars.LOKAL_DTYPE as ModelDtype | undefined);
    if (requested !== undefined && !DTYPE_FILES.some(([d]) => d === requested))
      throw new ProviderError(PROVIDER, 'config', `unknown dtype "${requested}" (one of ${DTYPE_FILES.map(([d]) => d).join(', ')})`);
    if (this.source.kind === 'local') {
      const onnxDir = path.join(this.source.path, 'onnx');
      const present = DTYPE_FILES.filter(([, file]) => existsSync(path.join(onnxDir, file)));
      if (present.length === 0)
        throw new ProviderError(
          PROVIDER,
          'not-found',
          `${onnxDir} holds no ONNX weights (expected one of ${DTYPE_FILES.map(([, f]) => f).join(', ')})`,
        );
      this.dtype = requested ?? present[0]![0];
      if (!present.some(([d]) => d === this.dtype))
        throw new ProviderError(
          PROVIDER,
          'not-found',
          `${onnxDir} has no weights for dtype ${this.dtype} (${DTYPE_FILES.find(([d]) => d === this.dtype)![1]}); it holds ${present.map(([d, f]) => `${f} (${d})`).join(', ')}`,
        );
      this.revision = options.revision ?? localFingerprint(this.source.path);
      try {
        this.graph = readOnnxGraphFile(path.join(onnxDir, DTYPE_FILES.find(([d]) => d === this.dtype)![1]));
      } catch {
        // not readable as a graph: onnxruntime's load names the problem
      }
    } else {
      this.dtype = requested ?? (this.source.id === DEFAULT_MODEL ? DEFAULT_MODEL_DTYPE : 'q8');
      this.revision = options.revision ?? 'main';
      // downloaded before: its graph says; otherwise the numerics of the dtype as transformers.js's models publish it
      const cacheRoot = this.cacheDir ?? env.cacheDir;
      const downloaded = cacheRoot && this.revision === 'main' ? path.join(path.resolve(cacheRoot), this.source.id, 'onnx', DTYPE_FILES.find(([d]) => d === this.dtype)![1]) : undefined;
      try {
        if (downloaded && existsSync(downloaded)) this.graph = readOnnxGraphFile(downloaded);
      } catch {
        // a partial download: the dtype's numerics below
      }
    }
    const fromGraph = this.graph ? graphNumerics(this.graph) : dtypeNumerics(this.dtype);
    const numerics = options.numerics ?? (vars.LOKAL_NUMERICS?.trim() ? (vars.LOKAL_NUMERICS.trim().toLowerCase() as Numerics) : undefined);
    if (numerics !== undefined && !NUMERICS.includes(numerics))
      throw new ProviderError(PROVIDER, 'config', `numerics must be one of ${NUMERICS.join(', ')}, got "${numerics}" (LOKAL_NUMERICS)`);
    this.numericsReason = fromGraph.numerics === 'exact' ? fromGraph.reason : undefined;
    this.numerics = numerics ?? fromGraph.numerics;
    const exactBatching = options.exactBatching ?? (vars.LOKAL_EXACT_BATCHING?.trim() ? envFlag(vars.LOKAL_EXACT_BATCHING) : true);
    this.perItemUnavailable =
      fromGraph.notPerItem ?? (!exactBatching ? 'LOKAL_EXACT_BATCHING=0' : this.saveOptimised === false ? 'it needs the saved optimised graph (LOKAL_SAVE_OPTIMISED=0)' : undefined);
    this.perItem = this.numerics === 'exact' && fromGraph.numerics === 'exact' && this.perItemUnavailable === undefined;
  }

  describe(): ModelDescription {
    return {
      provider: PROVIDER,
      model: this.source.kind === 'local' ? this.source.path : this.source.id,
      revision: this.revision,
      settings: {
        dtype: this.dtype,
        numerics: this.numerics,
        decoding: 'greedy',
        defaultMaxNewTokens: DEFAULT_MAX_NEW_TOKENS,
        device: 'cpu',
        scoring: 'sum of float64 log-softmax over the continuation tokens',
      },
    };
  }

  /** Loads tokenizer and model once (also called lazily by generate/scoreContinuations). */
  load(): Promise<Loaded> {
    this.loading ??= this.doLoad();
    return this.loading;
  }

  private async doLoad(): Promise<Loaded> {
    if (!envFlag(process.env.LOKAL_DEBUG)) env.logLevel = LogLevel.ERROR;
    env.allowLocalModels = true;
    env.allowRemoteModels = this.source.kind === 'hub' && this.allowRemote;
    if (this.modelDir) env.localModelPath = path.resolve(this.modelDir);
    if (this.cacheDir) env.cacheDir = path.resolve(this.cacheDir);
    // Weights by path, without transformers.js reading the whole file in the background (modelFileCache.ts).
    useModelFileCache(this.options.log);
    const where = this.source.kind === 'local' ? this.source.path : this.source.id;
    const common = { revision: this.revision.startsWith('local-') ? 'main' : this.revision };
    // started before the tokenizer, so the weights are read while it is built; stopped once the session exists
    const reading = this.readAhead ? readAhead(this.weightsToRead()) : undefined;
    try {
      const tokenizer = (await AutoTokenizer.from_pretrained(where, common)) as unknown as Tokenizer;
      const model = await this.loadModel(where, common);
      this.concurrentMarking = keepMarkingOffModelCores(this.threads);
      const log = this.options.log ?? ((line: string) => console.warn(line));
      if (this.numericsReason !== undefined && this.perItem && this.perItemMissing === undefined)
        log(`lokal: ${PROVIDER}:${this.modelSpec} (${this.dtype}) gives each item what transformers.js gives it one prompt at a time (exact numerics): ${this.numericsReason}; its saved graph therefore quantises each item on its own (prompts pass alone, decode steps are batched)`);
      else if (this.numericsReason !== undefined && this.numerics === 'exact') {
        // why it is not batched per item, unless that is the reason already given (float16)
        const notBatched = this.perItemMissing ?? this.perItemUnavailable;
        const why = notBatched !== undefined && notBatched !== this.numericsReason ? `; not batched per item: ${notBatched}` : '';
        log(`lokal: ${PROVIDER}:${this.modelSpec} (${this.dtype}) runs one prompt at a time, as transformers.js does (exact numerics): ${this.numericsReason}${why} (LOKAL_NUMERICS=batched batches anyway)`);
      } else if (this.numericsReason !== undefined)
        log(`lokal: ${PROVIDER}:${this.modelSpec} (${this.dtype}) runs batched (LOKAL_NUMERICS=batched) although ${this.numericsReason}: an item's answer may depend on the items batched with it`);
      const eosRaw = model.generation_config?.eos_token_id ?? model.config.eos_token_id ?? tokenizer.eos_token_id;
      const eos = (Array.isArray(eosRaw) ? eosRaw : eosRaw == null ? [] : [eosRaw]).map(Number);
      const padId = Number(tokenizer.pad_token_id ?? eos[0] ?? 0);
      // a saved graph's logit-positions input, hidden from transformers.js: every position unless a caller names some
      const int64 = (data: BigInt64Array, dims: number[]) => new Tensor('int64', data, dims).ort_tensor;
      const positions = new Map(Object.values(model.sessions ?? {}).map((s) => [s, adoptLogitPositions(s, int64, () => this.lastLogitsOnly)]));
      // and the outputs only the batched engine fetches (new keys and values, next token)
      for (const session of Object.values(model.sessions ?? {})) hideEngineOutputs(session);
      const padPast = Object.values(model.sessions ?? {}).some((session) => session.inputNames.includes('position_ids'));
      const direct = logitsSession(model);
      return { tokenizer, model, eos, padId, vocab: Number(model.config.vocab_size ?? 0), logitsSession: direct && { ...direct, logitPositions: positions.get(direct.session) }, padPast };
    } catch (error) {
      throw this.loadError(error);
    } finally {
      await reading?.stop();
    }
  }

  /** What a load will map: the saved graph's prepacked weights when an entry is there (checked later), else the model's own weights. */
  private weightsToRead(): FileRange[] {
    const folder = this.weightsFolder();
    if (!folder) return [];
    const modelFile = DTYPE_FILES.find(([d]) => d === this.dtype)![1];
    const onnxDir = path.join(folder, 'onnx');
    if (!existsSync(path.join(onnxDir, modelFile))) return [];
    if (this.saveOptimised) {
      const cacheRoot = path.resolve(this.cacheDir ?? env.cacheDir ?? path.join(folder, '.cache'));
      const entryOnnx = path.join(optimisedGraphDir(cacheRoot, { modelFolder: folder, modelFile, dtype: this.entryDtype() }), 'onnx');
      if (existsSync(path.join(entryOnnx, modelFile))) return rangesToRead(path.join(entryOnnx, modelFile), weightFiles(entryOnnx, modelFile).map((name) => path.join(entryOnnx, name)));
    }
    return rangesToRead(path.join(onnxDir, modelFile), weightFiles(onnxDir, modelFile).map((name) => path.join(onnxDir, name)));
  }

  /** The dtype an optimised graph's entry is kept under: the per-item graph is kept apart from the model's own. */
  private entryDtype(): string {
    return this.perItem && this.perItemMissing === undefined ? `${this.dtype}-per-item` : this.dtype;
  }

  /** The folder holding config.json and the weights: the local folder, or a Hub model's download cache once it is there. */
  private weightsFolder(): string | undefined {
    if (this.source.kind === 'local') return this.source.path;
    if (this.revision !== 'main' || !env.cacheDir) return undefined;
    const folder = path.join(env.cacheDir, this.source.id);
    return existsSync(path.join(folder, 'config.json')) ? folder : undefined;
  }

  /**
   * The model's sessions: from the saved optimised graph when its entry matches (graph optimisation off), else from
   * the model's own files, saving the optimised graph on the way. An entry that fails its checks or does not load is
   * removed and rebuilt.
   */
  private async loadModel(where: string, common: { revision: string }): Promise<CausalLM> {
    const log = this.options.log ?? ((line: string) => console.warn(line));
    const name = `${PROVIDER}:${this.modelSpec}`;
    const modelFile = DTYPE_FILES.find(([d]) => d === this.dtype)![1];
    this.threads = this.sessionThreads(modelFile);
    const threadOptions: Record<string, unknown> = this.threads ? { intraOpNumThreads: this.threads } : {};
    const load = (from: string, extra: Record<string, unknown>) =>
      AutoModelForCausalLM.from_pretrained(from, { ...common, dtype: this.dtype, device: 'cpu', session_options: { ...threadOptions, ...extra } }) as unknown as Promise<CausalLM>;
    const started = performance.now();
    const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
    const folder = this.saveOptimised ? this.weightsFolder() : undefined;
    const perItem = this.perItem;
    // the per-item graph lives in the saved graph only (its edit is made on onnxruntime's optimised graph), whatever its size
    const worthSaving =
      folder !== undefined && existsSync(path.join(folder, 'onnx', modelFile)) && (this.saveOptimised === true || perItem || weightBytes(folder, modelFile) >= SAVE_OPTIMISED_MIN_BYTES);
    const loadPlain = async (why = 'the model is not in a local folder yet (a first download)') => {
      if (perItem) this.perItemMissing = why;
      const model = await load(where, {});
      this.loadReport = { kind: 'plain', seconds: Number(seconds()) };
      log(`lokal: loaded ${name} (${this.dtype}) in ${seconds()} s`);
      return model;
    };
    if (!folder || !worthSaving) return loadPlain();
    const cacheRoot = path.resolve(this.cacheDir ?? env.cacheDir ?? path.join(folder, '.cache'));
    // no thread count in the key: threads change how fast the graph runs, not the graph onnxruntime saves
    const entry = () => {
      const input = { modelFolder: folder, modelFile, dtype: this.entryDtype(), ortVersion: ortVersion(), executionProvider: 'cpu' };
      const inputs = optimisedGraphInputs(input);
      return { input, inputs, key: optimisedGraphKey(inputs), dir: optimisedGraphDir(cacheRoot, input) };
    };
    let { input, inputs, key, dir } = entry();
    // refused on this CPU and runtime before (its graph did not give the model's own numbers): the model's own entry
    const refusal = perItem ? perItemRefusal(dir, key) : undefined;
    if (refusal !== undefined) {
      this.perItemMissing = refusal;
      ({ input, inputs, key, dir } = entry());
    }
    const editPerItem = perItem && this.perItemMissing === undefined;
    let problem = entryProblem(dir, modelFile, key);
    if (problem === undefined) {
      try {
        const model = await load(dir, { graphOptimizationLevel: 'disabled' });
        this.loadReport = { kind: 'saved', seconds: Number(seconds()), dir };
        log(`lokal: loaded ${name} (${this.dtype}) in ${seconds()} s from its saved optimised graph (${dir})`);
        return model;
      } catch (error) {
        problem = `onnxruntime could not load it (${firstLine(error)})`;
      }
    }
    let build: OptimisedGraphBuild;
    try {
      if (problem !== 'absent') discardEntry(dir);
      build = startBuild(dir, input);
    } catch (error) {
      // A cache that is a file or read-only: load as without one (an error of the model's own files is the load's).
      if (!isUnder((error as NodeJS.ErrnoException).path, cacheRoot)) throw error;
      const warning = unwritableCacheWarning(cacheRoot, error);
      if (warning) log(warning);
      return loadPlain(`the model cache ${cacheRoot} cannot be written`);
    }
    log(`lokal: optimising ${name} (${this.dtype}) for the first time${problem === 'absent' ? '' : ` (the saved graph was rebuilt: ${problem})`}; later runs load the saved graph from ${dir}`);
    let model: CausalLM;
    try {
      model = await load(folder, build.sessionOptions);
    } catch (error) {
      abandonBuild(build);
      throw error;
    }
    const optimiseMs = performance.now() - started;
    const probe = (m: CausalLM) =>
      m.sessions?.model ? numericsProbe(m.sessions.model, Number(m.config.vocab_size ?? 0), (type, data, dims) => new Tensor(type, data, dims).ort_tensor) : Promise.resolve(undefined);
    // the model's own numbers, from the graph as onnxruntime optimised it, for the per-item graph to reproduce
    const reference = editPerItem ? await probe(model).catch(() => undefined) : undefined;
    try {
      finishBuild(build, modelFile, key, inputs, optimiseMs, { perItem: editPerItem });
    } catch (error) {
      abandonBuild(build);
      this.loadReport = { kind: 'plain', seconds: Number(seconds()) };
      if (editPerItem) this.perItemMissing = firstLine(error);
      // a graph the edit cannot take: recorded, so the next run saves and loads the model's own graph instead
      if (error instanceof PerItemEditError) refusePerItem(dir, key, firstLine(error));
      log(`lokal: loaded ${name} (${this.dtype}) in ${seconds()} s; its optimised graph could not be saved in ${dir}: ${firstLine(error)}`);
      return model;
    }
    if (editPerItem) {
      // the session runs the graph as onnxruntime optimised it; the per-item edit is in the saved file only
      await model.dispose();
      model = await load(dir, { graphOptimizationLevel: 'disabled' });
      const edited = await probe(model).catch(() => undefined);
      if (reference === undefined || edited !== reference) {
        const why =
          reference === undefined || edited === undefined
            ? `its per-item graph could not be checked against the model's own (the probe did not run on its graph)`
            : `its per-item graph did not give the model's own logits on this CPU and onnxruntime ${ortVersion()} (a fixed probe)`;
        await model.dispose();
        discardEntry(dir);
        refusePerItem(dir, key, why);
        this.perItemMissing = why;
        // the model's own graph, optimised in this process (its entry is saved by the next run)
        model = await load(folder, {});
        this.loadReport = { kind: 'plain', seconds: Number(seconds()) };
        log(`lokal: loaded ${name} (${this.dtype}) in ${seconds()} s; ${why}: it runs one prompt at a time`);
        return model;
      }
    }
    this.loadReport = { kind: 'optimised', seconds: Number(seconds()), dir, rebuilt: problem === 'absent' ? undefined : problem };
    log(`lokal: loaded ${name} (${this.dtype}) in ${seconds()} s, optimised for the first time (saved for later runs)`);
    return model;
  }

  /** The intra-op threads of the session (see TransformersProviderOptions.threads); undefined: onnxruntime's default. */
  private sessionThreads(modelFile: string): number | undefined {
    if (this.options.threads !== undefined) return this.options.threads;
    const folder = this.weightsFolder();
    if (folder && existsSync(path.join(folder, 'onnx', modelFile)) && weightBytes(folder, modelFile) < SMALL_WEIGHTS_BYTES) return 1;
    return physicalCores();
  }

  private loadError(error: unknown): ProviderError {
    const reason = firstLine(error);
    const missing = missingOperator(reason);
    if (missing) {
      const file = DTYPE_FILES.find(([d]) => d === this.dtype)![1];
      const onnxDir = this.source.kind === 'local' ? path.join(this.source.path, 'onnx') : undefined;
      const others = onnxDir ? DTYPE_FILES.filter(([d, f]) => d !== this.dtype && existsSync(path.join(onnxDir, f))).map(([d]) => d) : [];
      const op = `${missing.domain ? `${missing.domain}:` : ''}${missing.op}`;
      return new ProviderError(
        PROVIDER,
        'unsupported',
        `${onnxDir ? path.join(onnxDir, file) : `${this.source.kind === 'hub' ? this.source.id : ''} onnx/${file}`} (${this.dtype}) needs the operator ${op}${OPERATOR_NOTES[missing.op] ?? ''}, ` +
          `which onnxruntime-node ${ortVersion()} does not have: install a newer onnxruntime-node or pick another dtype with LOKAL_DTYPE` +
          (others.length ? ` (this folder also has ${others.join(', ')})` : ''),
      );
    }
    if (this.source.kind === 'local')
      return new ProviderError(PROVIDER, 'not-found', `cannot load the model in ${this.source.path}: ${reason}`);
    const looked = [
      this.modelDir ? `LOKAL_MODEL_DIR=${path.resolve(this.modelDir)}/${this.source.id}` : undefined,
      `the download cache ${env.cacheDir ?? '(none)'}`,
    ].filter(Boolean);
    const remote = this.allowRemote
      ? `could not be downloaded from ${env.remoteHost} (${reason})`
      : `downloads are disabled (LOKAL_OFFLINE/HF_HUB_OFFLINE; ${reason})`;
    return new ProviderError(
      PROVIDER,
      'not-found',
      `model "${this.source.id}" (dtype ${this.dtype}) is not available locally (looked in ${looked.join(' and ')}) and ${remote}. ` +
        `Download it once with network access, set LOKAL_MODEL_DIR to a folder holding ${this.source.id}/ ` +
        `(config.json, tokenizer.json, tokenizer_config.json, onnx/${DTYPE_FILES.find(([d]) => d === this.dtype)![1]}), ` +
        `or pass a local folder: transformers:/path/to/model`,
    );
  }

  /** Runs model work one call at a time (onnxruntime already uses every core for one call). */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The prompt's token ids and the text they were encoded from (the chat template rendered, for messages). */
  private promptInput(loaded: Loaded, req: { prompt?: string; messages?: ChatMessage[] }, where: string): { ids: number[]; input: ModelInput } {
    if ((req.prompt === undefined) === (req.messages === undefined))
      throw new ProviderError(PROVIDER, 'config', `${where}: exactly one of prompt and messages must be given`);
    const { text, ids } = requestPromptIds(loaded.tokenizer, req, () => this.noChatTemplate());
    return { ids, input: { text } };
  }

  private noChatTemplate(): ProviderError {
    return new ProviderError(PROVIDER, 'unsupported', `${this.describe().model} has no chat template (tokenizer_config.json chat_template): use plain prompts with this model`);
  }

  private chatIds(loaded: Loaded, messages: ChatMessage[], addGenerationPrompt: boolean): number[] {
    if (!loaded.tokenizer.chat_template) throw this.noChatTemplate();
    return promptTextIds(loaded.tokenizer, chatTemplateText(loaded.tokenizer, messages, addGenerationPrompt), true);
  }

  /** Work done by generate so far: forward passes, prompt tokens asked and run, prefix hits/fallbacks/misses, … */
  get generationStats(): GenerationStats {
    return this.batched?.stats ?? this.sequentialStats;
  }

  async generate(requests: GenerateRequest[]): Promise<GenerateResult[]> {
    const loaded = await this.load();
    const align = this.perItem && this.perItemMissing === undefined ? await this.paddingAlignment(loaded) : undefined;
    const engine = this.generationEngine(loaded, align);
    const where = (req: GenerateRequest, i: number) => `request ${i}${req.itemKey ? ` (${req.itemKey})` : ''}`;
    if (engine) return Promise.all(requests.map((req, i) => this.generateBatched(loaded, engine, req, where(req, i))));
    const results: GenerateResult[] = [];
    for (const [i, req] of requests.entries()) {
      results.push(await this.exclusive(() => this.generateOne(loaded, req, where(req, i))));
    }
    return results;
  }

  /**
   * The batched engine, when the model runs through its session directly (ids, mask, positions, past → logits,
   * present) and batching or prefix reuse is on; otherwise undefined and transformers.js generates one at a time.
   */
  private generationEngine(loaded: Loaded, decodeAlignment?: number): BatchedGeneration | undefined {
    if (this.batched) return this.batched;
    const direct = loaded.logitsSession;
    // exact numerics batch per item or not at all; per item, a stored prefix would split the prompt a scale is taken over
    const exact = this.numerics === 'exact';
    const prefixTokens = this.options.sharePrefix && !exact ? this.options.prefixCacheTokens : 0;
    if (exact && decodeAlignment === undefined) return undefined;
    if (!direct || !loaded.padPast || (this.options.generateBatchSize === 1 && prefixTokens === 0)) return undefined;
    const past = direct.past.map((p) => {
      const fresh = newKeyValuesName(p.name);
      return { ...p, present: p.name.replace(/^past_key_values/, 'present'), ...(direct.session.outputNames.includes(fresh) ? { fresh } : {}) };
    });
    if (past.some((p) => !direct.session.outputNames.includes(p.present))) return undefined;
    this.batched = new BatchedGeneration(
      {
        session: direct.session,
        past,
        padId: loaded.padId,
        vocab: Math.max(1, loaded.vocab),
        logitPositions: direct.logitPositions,
        ...(direct.session.outputNames.includes(NEXT_TOKEN_OUTPUT) ? { nextToken: NEXT_TOKEN_OUTPUT } : {}),
        input: (type, data, dims) => new Tensor(type, data, dims).ort_tensor,
        float32: (t: TensorLike) => (t.type === 'float32' ? (t.data as Float32Array) : (new Tensor(t.type as 'float16', t.data, [...t.dims]).to('float32').data as Float32Array)),
        text: (ids) => loaded.tokenizer.decode(ids, { skip_special_tokens: false }),
        preallocate: true,
      },
      {
        batchSize: this.options.generateBatchSize,
        maxBatchTokens: this.options.maxBatchTokens,
        maxBatchLogits: Math.min(this.options.maxBatchLogits, PREFILL_LOGITS),
        prefixCacheTokens: prefixTokens,
        maxPassTokens: this.options.maxPassTokens,
        promptAlone: exact,
        ...(exact ? { decodeAlignment } : {}),
      },
      (run) => void this.exclusive(run),
      () => this.waitingScoring !== undefined,
    );
    return this.batched;
  }

  /** The settings transformers.js's generate would use for this request: total-length budget, logits processors, EOS. */
  private generationPlan(loaded: Loaded, req: GenerateRequest, promptLength: number) {
    const budget = requestBudget(req);
    const config = loaded.model._prepare_generation_config(null, { ...budget, do_sample: false, num_beams: 1 });
    if (config.max_new_tokens !== null) config.max_length = promptLength + config.max_new_tokens;
    const processors = loaded.model._get_logits_processor(config, promptLength, null);
    const eos = config.eos_token_id === null ? [] : (Array.isArray(config.eos_token_id) ? config.eos_token_id : [config.eos_token_id]).map(Number);
    return { budget, maxLength: config.max_length ?? Infinity, processors, eos };
  }

  private generateBatched(loaded: Loaded, engine: BatchedGeneration, req: GenerateRequest, where: string): Promise<GenerateResult> {
    return new Promise((resolve, reject) => {
      const { ids, input } = this.promptInput(loaded, req, where);
      if (ids.length === 0) throw new ProviderError(PROVIDER, 'config', `${where}: the prompt is empty after tokenisation`);
      const stops = (req.stop ?? []).filter((s) => s !== '');
      const plan = this.generationPlan(loaded, req, ids.length);
      const sampling = requestSampling(PROVIDER, req, where);
      const job: GenerationJob = {
        ids,
        // any of the stopping criteria transformers.js's generate checks after each token: total length, EOS, stop strings
        done: (all, generated) =>
          all.length >= plan.maxLength ||
          plan.eos.includes(all.at(-1)!) ||
          (stops.length > 0 && stopHit(loaded.tokenizer.decode(generated, { skip_special_tokens: true }), stops)),
        process:
          plan.processors.processors.length > 0 ? (all, logits) => void plan.processors([all], new Tensor('float32', logits, [1, logits.length])) : undefined,
        ...(sampling ? { pick: tokenPicker(sampling) } : {}),
        resolve: (generated, latencyMs) =>
          resolve({ text: finalText(loaded, generated, stops), latencyMs, cached: false, input, promptTokens: ids.length, outputTokens: generated.length }),
        reject: (error) =>
          reject(error instanceof ProviderError ? error : new ProviderError(PROVIDER, 'inference', `${where}: generation failed: ${firstLine(error)}`)),
      };
      engine.submit(job);
    });
  }

  private async generateOne(loaded: Loaded, req: GenerateRequest, where: string): Promise<GenerateResult> {
    const { ids, input } = this.promptInput(loaded, req, where);
    if (ids.length === 0) throw new ProviderError(PROVIDER, 'config', `${where}: the prompt is empty after tokenisation`);
    const stops = (req.stop ?? []).filter((s) => s !== '');
    const budget = requestBudget(req);
    const sampling = requestSampling(PROVIDER, req, where);
    const started = performance.now();
    // generate reads each pass's last position: with the same bits, the head need not run at the others (a quarter of
    // a prompt pass's arithmetic on Qwen2.5-0.5B, and the logits of every position copied out of onnxruntime).
    this.lastLogitsOnly = await this.headRowAlone(loaded);
    let sequences: Tensor;
    try {
      sequences = await loaded.model.generate({
        input_ids: new Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]),
        attention_mask: new Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
        ...budget,
        do_sample: false,
        num_beams: 1,
        ...(stops.length > 0 ? { stopping_criteria: [new StopStringCriteria(loaded.tokenizer, ids.length, stops)] } : {}),
        // transformers.js's own sampler draws from Math.random: ours, last after its processors, leaves one token for its argmax
        ...(sampling ? { logits_processor: [sampledTokenOnly(tokenPicker(sampling))] } : {}),
      });
    } catch (error) {
      throw new ProviderError(PROVIDER, 'inference', `${where}: generation failed: ${firstLine(error)}`);
    } finally {
      this.lastLogitsOnly = false;
    }
    const latencyMs = performance.now() - started;
    const generated = (sequences.tolist() as Array<Array<bigint | number>>)[0]!.map(Number).slice(ids.length);
    const stats = this.sequentialStats;
    stats.requests++;
    stats.forwardCalls += generated.length;
    stats.decodeSteps += Math.max(0, generated.length - 1);
    stats.promptTokens += ids.length;
    stats.promptTokensComputed += ids.length;
    stats.generatedTokens += generated.length;
    stats.largestBatch = 1;
    return { text: finalText(loaded, generated, stops), latencyMs, cached: false, input, promptTokens: ids.length, outputTokens: generated.length };
  }

  /**
   * Exact numerics batched per item: the smallest left padding (1, 2, 4, … 64 positions) whose multiples leave a
   * decode step's row the same bits as alone, or undefined (rows then decode one at a time). Attention's kernels sum a
   * row's positions in vector lanes, so padding that shifts them across lanes changes the last bits (on the 2-core AMD
   * EPYC measured: multiples of 4), and per-item quantisation turns such bits into other roundings. Checked once per
   * load on a fixed prompt of 21 tokens: one decode step alone, then with 1, 2, 3 and 64 times the padding tried,
   * beside a zero row.
   */
  private paddingAlignment(loaded: Loaded): Promise<number | undefined> {
    this.decodeAlignment ??= this.exclusive(async () => {
      const log = this.options.log ?? ((line: string) => console.warn(line));
      const vocab = Math.max(1, loaded.vocab);
      const prompt = Array.from({ length: 21 }, (_, i) => (i * 7919 + 17) % vocab);
      const next = [(prompt.length * 7919 + 17) % vocab];
      const stats = { ...this.scoringStats };
      try {
        const head = await this.forwardFull(loaded, [prompt], prompt.length, null, true);
        const own: PromptState = { length: prompt.length, last: new Float32Array(0), cache: cacheRow(head.present, 0, prompt.length) };
        const alone = (await this.forwardFull(loaded, [next], 1, gatherPast([own]))).logits.data as Float32Array;
        const padded = async (pad: number) => {
          // a second row pads the first: its cache zeros (rows are independent per item, so its contents do not matter)
          const zeros: PromptState = { length: prompt.length + pad, last: new Float32Array(0), cache: {} };
          for (const [name, t] of Object.entries(own.cache)) {
            const [, heads, , dim] = t.dims as [number, number, number, number];
            zeros.cache[name] = new Tensor('float32', new Float32Array(heads * zeros.length * dim), [1, heads, zeros.length, dim]);
          }
          const both = (await this.forwardFull(loaded, [next, next], 1, gatherPast([own, zeros]))).logits.data as Float32Array;
          return both.subarray(0, alone.length).every((x, i) => Object.is(x, alone[i]));
        };
        for (const align of [1, 2, 4, 8, 16, 32, 64]) {
          if ((await padded(align)) && (await padded(2 * align)) && (await padded(3 * align)) && (await padded(64 * align))) return align;
        }
        log(`lokal: ${PROVIDER}:${this.modelSpec} (${this.dtype}) decodes one prompt at a time: no left padding up to 64 positions leaves a row's bits as alone on this CPU`);
        return undefined;
      } catch (error) {
        log(`lokal: ${PROVIDER}:${this.modelSpec} (${this.dtype}) decodes one prompt at a time: the padding check failed (${firstLine(error)})`);
        return undefined;
      } finally {
        Object.assign(this.scoringStats, stats);
      }
    });
    return this.decodeAlignment;
  }

  /**
   * Whether transformers.js's generate may get the last position's logits only: the graph names its logit positions
   * and, on this machine, a pass of 64 tokens gives the last row the same bits alone as among all 64 (the head's
   * kernel is chosen by onnxruntime per CPU, so it is checked rather than assumed). Checked once per load.
   */
  private headRowAlone(loaded: Loaded): Promise<boolean> {
    this.lastRowAlone ??= (async () => {
      const direct = loaded.logitsSession;
      if (!direct?.logitPositions) return false;
      const width = 64;
      const vocab = Math.max(1, loaded.vocab);
      // Tokens spread over the vocabulary (a fixed sequence: the check is the same in every run).
      const row = Array.from({ length: width }, (_, i) => (i * 7919 + 17) % vocab);
      // The check's two passes are not the run's scoring work.
      const stats = { ...this.scoringStats };
      let all: Tensor;
      let last: Tensor;
      try {
        all = (await this.forwardFull(loaded, [row], width, null)).logits;
        this.lastLogitsOnly = true;
        last = (await this.forwardFull(loaded, [row], width, null)).logits;
      } catch {
        // A graph that cannot run this pass (fewer positions than 64, say) keeps every position.
        return false;
      } finally {
        this.lastLogitsOnly = false;
        Object.assign(this.scoringStats, stats);
      }
      const v = all.dims.at(-1)!;
      if (last.dims.length !== 3 || last.dims[1] !== 1 || last.dims[2] !== v) return false;
      const a = (all.data as Float32Array).subarray((width - 1) * v, width * v);
      const b = last.data as Float32Array;
      for (let i = 0; i < v; i++) if (!Object.is(a[i], b[i])) return false;
      return true;
    })();
    return this.lastRowAlone;
  }

  /**
   * Token ids of the prompt (P) and of prompt + continuation (F); P must be a token prefix of F (docs/metrics.md#per-answer-score).
   * `prompts` memoises P by prompt within one call (a Kalahi question is scored with several answers).
   */
  tokenizeContinuation(
    loaded: Loaded,
    req: ContinuationRequest,
    where: string,
    prompts?: Map<string, { ids: number[]; input: ModelInput }>,
  ): { prefix: number[]; full: number[]; input: ModelInput } {
    if ((req.prompt === undefined) === (req.messages === undefined))
      throw new ProviderError(PROVIDER, 'config', `${where}: exactly one of prompt and messages must be given`);
    const key = req.messages !== undefined ? `m${JSON.stringify(req.messages)}` : `p${req.prompt!}`;
    const prompt = prompts?.get(key) ?? this.promptInput(loaded, req, where);
    const full =
      req.messages !== undefined
        ? this.chatIds(loaded, [...req.messages, { role: 'assistant', content: req.continuation }], false)
        : loaded.tokenizer.encode(req.prompt! + req.continuation, { add_special_tokens: true }).map(Number);
    prompts?.set(key, prompt);
    const prefix = prompt.ids;
    const mismatch = prefix.findIndex((t, i) => full[i] !== t);
    if (mismatch >= 0 || full.length < prefix.length) {
      const at = mismatch >= 0 ? mismatch : full.length;
      throw new ProviderError(
        PROVIDER,
        'inference',
        `${where}: the prompt's ${prefix.length} tokens are not a prefix of the tokens of prompt + continuation ` +
          `(they differ at token ${at}: ${JSON.stringify(loaded.tokenizer.decode(prefix.slice(at, at + 3)))} vs ` +
          `${JSON.stringify(loaded.tokenizer.decode(full.slice(at, at + 3)))}); the tokenizer merges across the boundary` +
          (req.prompt !== undefined ? ' (move trailing whitespace from the prompt to the start of the continuation)' : ''),
      );
    }
    if (prefix.length === 0 && full.length > 0)
      throw new ProviderError(PROVIDER, 'config', `${where}: the prompt is empty after tokenisation, so the first continuation token has no context`);
    return { prefix, full, input: prompt.input };
  }

  async scoreContinuations(requests: ContinuationRequest[]): Promise<ContinuationResult[]> {
    const loaded = await this.load();
    // Calls made while the model is busy wait together and then run as one, so continuations of different callers'
    // prompts share batches (Kalahi's concurrent prompt tests each ask for one prompt's answers).
    return new Promise((resolve, reject) => {
      if (this.waitingScoring) {
        this.waitingScoring.push({ requests, resolve, reject });
        return;
      }
      const calls: ScoringCall[] = [{ requests, resolve, reject }];
      this.waitingScoring = calls;
      void this.exclusive(async () => {
        this.waitingScoring = undefined;
        await this.scoreCalls(loaded, calls);
      });
    });
  }

  /** One run over the requests of several calls; a call whose requests cannot be tokenised fails alone. */
  private async scoreCalls(loaded: Loaded, calls: ScoringCall[]): Promise<void> {
    const started = performance.now();
    const prompts = new Map<string, { ids: number[]; input: ModelInput }>();
    const items: Scoring[] = [];
    const accepted: Array<{ call: ScoringCall; items: Scoring[] }> = [];
    for (const call of calls) {
      try {
        const base = items.length;
        const own = call.requests.map((req, i) => ({
          index: base + i,
          ...this.tokenizeContinuation(loaded, req, `request ${i}${req.itemKey ? ` (${req.itemKey})` : ''}`, prompts),
        }));
        items.push(...own);
        accepted.push({ call, items: own });
      } catch (error) {
        call.reject(error);
      }
    }
    const sums = new Array<number>(items.length).fill(0);
    try {
      await this.scoreItems(loaded, items, sums);
    } catch (error) {
      const failure = error instanceof ProviderError ? error : new ProviderError(PROVIDER, 'inference', `continuation scoring failed: ${firstLine(error)}`);
      for (const { call } of accepted) call.reject(failure);
      return;
    }
    // One batched computation: its wall time is shared equally by the requests it answered.
    const latencyMs = items.length > 0 ? (performance.now() - started) / items.length : 0;
    for (const { call, items: own } of accepted) {
      call.resolve(own.map((it) => ({ input: it.input, promptTokens: it.prefix.length, logprob: sums[it.index]!, tokenCount: it.full.length - it.prefix.length, latencyMs, cached: false })));
    }
  }

  private async scoreItems(loaded: Loaded, items: Scoring[], sums: number[]): Promise<void> {
    const todo = items.filter((it) => it.full.length > it.prefix.length);
    if (this.numerics === 'exact') {
      // transformers.js's forward over prompt + continuation, one sequence alone: no batch, padding or shared prefix
      // (per item too: a batch's padding and a shared prompt's split would change the scale of an item's quantisation)
      for (const it of todo) {
        const { logits } = await this.forwardFull(loaded, [it.full], it.full.length, null);
        sums[it.index] = sumLogprobs(logits, 0, it.full.length, it.full, it.prefix.length - 1, it.prefix.length, it.full.length);
      }
      return;
    }
    const plain: Scoring[] = [];
    if (this.options.sharePrefix) {
      const groups = new Map<string, Scoring[]>();
      for (const it of todo) {
        const key = it.prefix.join(',');
        const group = groups.get(key);
        if (group) group.push(it);
        else groups.set(key, [it]);
      }
      const shared: Scoring[][] = [];
      // A prompt scored once gains nothing from a cached prefix: it runs whole, without key/value copies.
      for (const group of groups.values()) (group.length >= 2 ? shared.push(group) : plain.push(...group));
      await this.scoreSharedPrefixes(loaded, shared, sums);
    } else plain.push(...todo);
    await this.scorePlain(loaded, plain, sums);
  }

  private lengthBatches<T>(items: T[], length: (t: T) => number, vocab: number): T[][] {
    return lengthBatches(items, length, { batchSize: this.options.batchSize, maxBatchLogits: this.options.maxBatchLogits, vocab });
  }

  /** One forward pass per sequence over prompt + continuation, right-padded batches. */
  private async scorePlain(loaded: Loaded, items: Scoring[], sums: number[]): Promise<void> {
    const vocab = loaded.vocab || 1;
    for (const batch of this.lengthBatches(items, (it) => it.full.length, vocab)) {
      const width = Math.max(...batch.map((it) => it.full.length));
      const { logits } = await this.forwardFull(loaded, batch.map((it) => it.full), width, null);
      batch.forEach((it, b) => {
        sums[it.index] = sumLogprobs(logits, b, width, it.full, it.prefix.length - 1, it.prefix.length, it.full.length);
      });
    }
  }

  /**
   * Each shared prompt runs once (prompts batched together, right-padded) and keeps its own key/value cache; the
   * token prefix common to all those prompts (an instruction, a chat header) runs once before them. Then the
   * continuations of all prompts, sorted by length, run in batches across prompts: each row's past is its own
   * prompt's cache, left-padded to the batch's longest prompt and masked there (see `forwardFull`).
   */
  private async scoreSharedPrefixes(loaded: Loaded, groups: Scoring[][], sums: number[]): Promise<void> {
    const vocab = loaded.vocab || 1;
    const prompts = groups.map((g) => g[0]!.prefix);
    // every prompt keeps at least one token of its own, whose logits predict its first continuation token
    const common = Math.min(commonPrefixLength(prompts), ...prompts.map((p) => p.length - 1));
    let root: PromptState | undefined;
    if (prompts.length >= 2 && common * (prompts.length - 1) > CALL_OVERHEAD_TOKENS) {
      const head = await this.forwardFull(loaded, [prompts[0]!.slice(0, common)], common, null, true);
      root = { length: common, last: new Float32Array(0), cache: cacheRow(head.present, 0, common) };
    }
    const skip = root?.length ?? 0;
    const states = new Map<Scoring[], PromptState>();
    for (const batch of this.lengthBatches(groups, (g) => g[0]!.prefix.length - skip, vocab)) {
      const width = Math.max(...batch.map((g) => g[0]!.prefix.length - skip));
      const past = root ? gatherPast(batch.map(() => root)) : null;
      const head = await this.forwardFull(loaded, batch.map((g) => g[0]!.prefix.slice(skip)), width, past, true);
      batch.forEach((g, r) => {
        const p = g[0]!.prefix.length;
        // present = the common prefix (no padding: every row has it whole) followed by this row's own tokens
        states.set(g, { length: p, last: sliceRow(head.logits, r, width, p - skip - 1).slice(), cache: cacheRow(head.present, r, p) });
      });
    }
    // Sorted by prompt length first, so continuations of equal length share a batch with prompts of similar length.
    const rows = groups
      .flatMap((g) => g.map((it) => ({ it, state: states.get(g)! })))
      .sort((a, b) => a.state.length - b.state.length);
    let past: { states: PromptState[]; gathered: GatheredPast } | undefined;
    const continuation = (r: (typeof rows)[number]) => r.it.full.length - r.state.length;
    // Without a padded cache, only rows of equal prompt length may share a pass (rows are sorted, so they are runs).
    const classes: Array<typeof rows> = [];
    for (const r of rows) {
      const last = classes.at(-1);
      if (last && (loaded.padPast || last[0]!.state.length === r.state.length)) last.push(r);
      else classes.push([r]);
    }
    const batches = classes.flatMap((same) => this.lengthBatches(same, continuation, vocab));
    // A prompt's last row predicts the first token of each of its continuations: its log-sum-exp is taken once.
    const lastLogSumExp = new Map<PromptState, number>();
    for (const batch of batches) {
      const conts = batch.map((r) => r.it.full.slice(r.state.length));
      const width = Math.max(...conts.map((c) => c.length));
      const pastStates = batch.map((r) => r.state);
      // N questions × the same K answers: consecutive batches often take the same prompts in the same order
      if (!past || past.states.length !== pastStates.length || past.states.some((st, r) => st !== pastStates[r]))
        past = { states: pastStates, gathered: gatherPast(pastStates) };
      const { logits } = await this.forwardFull(loaded, conts, width, past.gathered);
      batch.forEach(({ it, state }, b) => {
        const cont = conts[b]!;
        // the first continuation token is predicted by the prompt's last position
        let lse = lastLogSumExp.get(state);
        if (lse === undefined) lastLogSumExp.set(state, (lse = logSumExp(state.last)));
        sums[it.index] = state.last[cont[0]!]! - lse + sumLogprobs(logits, b, width, cont, 0, 1, cont.length);
      });
    }
  }

  /**
   * One forward pass over right-padded rows. With `past`, row r continues its own prompt of past.lengths[r] tokens,
   * stored right-aligned in a cache of pastWidth positions: the attention mask hides the slots before it and the
   * row's padding, and position ids continue from the row's own prompt length (the cache holds keys already rotated
   * at their true positions, so where a row sits in the buffer does not matter for rotary embeddings).
   */
  private async forwardFull(
    loaded: Loaded,
    rows: number[][],
    width: number,
    past: GatheredPast | null,
    wantPresent = false,
  ): Promise<{ logits: Tensor; present: Record<string, Tensor> }> {
    const b = rows.length;
    this.scoringStats.forwardCalls++;
    for (const row of rows) this.scoringStats.tokens += row.length;
    this.scoringStats.paddedTokens += b * width;
    const pastWidth = past?.width ?? 0;
    const total = pastWidth + width;
    const ids = new BigInt64Array(b * width).fill(BigInt(loaded.padId));
    const mask = new BigInt64Array(b * total);
    const positions = new BigInt64Array(b * width);
    rows.forEach((row, r) => {
      const own = past?.lengths[r] ?? 0;
      for (let j = 0; j < row.length; j++) ids[r * width + j] = BigInt(row[j]!);
      mask.fill(1n, r * total + pastWidth - own, r * total + pastWidth + row.length);
      // Padding positions repeat the last real position (they are masked out and their outputs ignored).
      for (let j = 0; j < width; j++) positions[r * width + j] = BigInt(own + Math.min(j, row.length - 1));
    });
    const inputs: Record<string, unknown> = {
      input_ids: new Tensor('int64', ids, [b, width]),
      attention_mask: new Tensor('int64', mask, [b, total]),
      position_ids: new Tensor('int64', positions, [b, width]),
    };
    const direct = loaded.logitsSession;
    if (direct && !wantPresent) {
      // Same feeds transformers.js would build, but only the logits are copied out of onnxruntime.
      const feeds: Record<string, unknown> = {};
      for (const [name, t] of Object.entries(inputs)) feeds[name] = (t as Tensor).ort_tensor;
      for (const { name, type, heads, dim } of direct.past) {
        const t = past?.cache[name] ?? new Tensor(type, type === 'float32' ? new Float32Array(0) : new Uint16Array(0), [b, heads, 0, dim]);
        feeds[name] = t.ort_tensor;
      }
      const out = (await direct.session.run(feeds, ['logits'])).logits as { type: 'float32'; data: Float32Array; dims: readonly number[] };
      const logits = new Tensor(out.type, out.data, [...out.dims]);
      return { logits: logits.type === 'float32' ? logits : logits.to('float32'), present: {} };
    }
    if (past) inputs.past_key_values = past.cache;
    const out = await loaded.model(inputs);
    const present: Record<string, Tensor> = {};
    for (const [name, t] of Object.entries(out)) {
      if (name.startsWith('present')) present[name.replace('present', 'past_key_values')] = t;
    }
    const logits = out.logits!.type === 'float32' ? out.logits! : out.logits!.to('float32');
    return { logits, present };
  }

  async close(): Promise<void> {
    this.batched = undefined;
    if (!this.loading) return;
    const loaded = await this.loading.catch(() => undefined);
    this.loading = undefined;
    await loaded?.model.dispose();
  }
}

/** transformers.js's budget arguments: a total length (prompt included) or a number of new tokens. */
function requestBudget(req: GenerateRequest): { max_length: number; max_new_tokens: null } | { max_new_tokens: number } {
  return req.maxLength !== undefined ? { max_length: req.maxLength, max_new_tokens: null } : { max_new_tokens: req.maxNewTokens ?? DEFAULT_MAX_NEW_TOKENS };
}

/**
 * A logits processor for transformers.js's greedy generate (one row): draws the next token from the processed logits
 * with the request's picker and leaves only it finite, so the argmax that follows takes exactly the drawn token.
 */
function sampledTokenOnly(pick: (logits: Float32Array) => number): (inputIds: bigint[][], logits: Tensor) => Tensor {
  return (_inputIds, logits) => {
    const data = logits.data as Float32Array;
    if (logits.dims[0] !== 1) throw new Error(`sampled decoding runs one sequence at a time (got ${logits.dims[0]})`);
    const token = pick(data);
    data.fill(-Infinity);
    data[token] = 0;
    return logits;
  };
}

/** Whether decoded new text contains a stop string (the check transformers.js's stopping criterion makes each step). */
function stopHit(text: string, stops: string[]): boolean {
  return stops.some((s) => text.includes(s));
}

/** The answer of generated token ids: up to the first EOS, decoded without special tokens, cut before any stop string. */
function finalText(loaded: Loaded, generated: number[], stops: string[]): string {
  const eosAt = generated.findIndex((t) => loaded.eos.includes(t));
  const kept = eosAt >= 0 ? generated.slice(0, eosAt) : generated;
  // an end-of-sequence first is an empty answer (the tokenizer refuses to decode no ids)
  if (kept.length === 0) return '';
  return cutAtStop(loaded.tokenizer.decode(kept, { skip_special_tokens: true }), stops);
}

/**
 * The model's session, when it takes nothing but input_ids, attention_mask, position_ids and
 * past_key_values.N.key/value of shape [batch, heads, past, dim] (Llama/Qwen exports); other models (merged decoders
 * with use_cache_branch, num_logits_to_keep, …) run through transformers.js.
 */
function logitsSession(model: CausalLM): LogitsSession | undefined {
  const session = model.sessions && Object.keys(model.sessions).length === 1 ? model.sessions.model : undefined;
  if (!session?.inputMetadata || typeof session.run !== 'function' || !session.outputNames.includes('logits')) return undefined;
  const past: LogitsSession['past'] = [];
  for (const meta of session.inputMetadata) {
    if (['input_ids', 'attention_mask', 'position_ids'].includes(meta.name)) continue;
    const [, heads, , dim] = meta.shape ?? [];
    const type = meta.type;
    if (!/^past_key_values\.\d+\.(key|value)$/.test(meta.name) || meta.shape?.length !== 4 || typeof heads !== 'number' || typeof dim !== 'number') return undefined;
    if (type !== 'float32' && type !== 'float16') return undefined;
    past.push({ name: meta.name, type, heads, dim });
  }
  return session.inputNames.includes('position_ids') && session.inputNames.includes('attention_mask') ? { session, past } : undefined;
}
