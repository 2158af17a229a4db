// `llama:<path to .gguf>` and `llama:ollama:<name>[:tag]`: GGUF models in process through llama.cpp (node-llama-cpp,
// an optional peer dependency, CPU): greedy or seeded sampled generation with the chat template of the GGUF metadata,
// continuation log-probabilities; concurrent requests queue on one sequence of a context, each continuing from the prefix it holds
// (sequencePool.ts also serves several sequences, which only the bench asks for).
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Template } from '@huggingface/jinja';
import type { Llama, LlamaContext, LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import { ByteLevelText } from './byteLevelText.ts';
import { importNodeLlamaCpp, type NodeLlamaCpp } from './nodeLlamaCpp.ts';
import { ollamaModelsDir, resolveOllamaModel } from './ollamaModel.ts';
import { cutAtStop, envFlag, firstLine } from './providerText.ts';
import { SequencePool } from './sequencePool.ts';
import { requestSampling } from './requestSampling.ts';
import {
  DEFAULT_MAX_NEW_TOKENS,
  ProviderError,
  type ChatMessage,
  type ContinuationRequest,
  type ContinuationResult,
  type GenerateRequest,
  type GenerateResult,
  type ModelDescription,
  type ModelInput,
  type ModelProvider,
} from './types.ts';

const PROVIDER = 'llama';
/** Below this many bytes of weights one thread is fastest: splitting tiny matrices costs more than it saves. */
const SMALL_MODEL_BYTES = 64 * 2 ** 20;

export interface LlamaProviderOptions {
  /**
   * Sequences of the context: requests decoded together. Default 1, continuing each prompt from the prefix the
   * sequence holds: on the 494M Qwen2.5 shape it was faster than 8 sequences (base 2.2x, chat 1.1x; npm run bench --
   * generation). Settings never ask for more (LOKAL_GENERATE_BATCH_SIZE is transformers:'s): with several, node-llama-cpp
   * 3.21.1 changed greedy answers (1 and 0 of 8 equal to one at a time) and, on a CI machine, a continuation's
   * log-probability by 3.5 nats; the bench still measures them.
   */
  sequences?: number;
  /** Tokens each sequence holds, prompt and answer (default 2048; LOKAL_LLAMA_CONTEXT). */
  contextSize?: number;
  /**
   * CPU threads (default LOKAL_LLAMA_THREADS, else 1 for models under 64 MiB, whose matrices are too small to split,
   * else the cores this process may run on, os.availableParallelism(): node-llama-cpp's own default counts the
   * machine's cores, and threads beyond the allowed cores spin against each other, 20-80x slower on a busy machine).
   */
  threads?: number;
  /**
   * Key/value cache precision (default F32, which keeps log-probabilities within 1e-4 of the ONNX model on the same
   * weights; F16 halves the cache's memory at about 1e-3).
   */
  kvCache?: 'F32' | 'F16';
  /**
   * Keep each sequence's evaluated tokens and continue a prompt from the longest prefix its sequence holds (default:
   * true with one sequence); false evaluates every prompt whole. With several sequences in one context, continuing
   * from kept tokens gave log-probabilities that differ from a whole evaluation (by up to 12 nats on the tiny models,
   * a few rounds in fifteen, node-llama-cpp 3.21.1), so there the default is off and asking for it is refused.
   */
  sharePrefix?: boolean;
  /** Ollama's models folder for llama:ollama: names (default OLLAMA_MODELS, else ~/.ollama/models). */
  ollamaModels?: string;
  /** Environment to read (default process.env); tests pass their own. */
  env?: Record<string, string | undefined>;
  /** How node-llama-cpp is imported (tests pass a failing import). */
  importLibrary?: () => Promise<NodeLlamaCpp>;
}

/** Where a llama: spec points: a GGUF file, or the blob of an Ollama model. */
type GgufSource = { kind: 'file'; path: string } | { kind: 'ollama'; name: string; path: string; digest: string };

/** The part of the GGUF metadata the provider reads (node-llama-cpp's parse of the file). */
interface TokenizerMetadata {
  chat_template?: string;
  ggml?: { model?: string; tokens?: string[]; token_type?: number[]; bos_token_id?: number; eos_token_id?: number; padding_token_id?: number };
}

interface Loaded {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  pool: SequencePool<LlamaContextSequence>;
  /** Generated ids → answer text (special tokens left out), as Hugging Face's decode(skip_special_tokens) gives it. */
  text(ids: number[]): string;
  chatTemplate?: Template;
  /** Special token strings a chat template may use (bos_token, eos_token, pad_token). */
  specialTokens: Record<string, string>;
  /** general.sampling.penalty_repeat (from generation_config.json's repetition_penalty), when not 1. */
  repetitionPenalty?: number;
}

/** Generation work so far (the bench reports it): prompt tokens asked for and those evaluated, tokens generated. */
interface LlamaGenerationStats {
  requests: number;
  promptTokens: number;
  promptTokensComputed: number;
  generatedTokens: number;
}

function positiveInteger(value: number | string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new ProviderError(PROVIDER, 'config', `${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

/** The GGUF file of a spec: `ollama:<name>` through Ollama's manifests, else a path to an existing file. */
function resolveGgufSource(spec: string, ollamaModels: string): GgufSource {
  const trimmed = spec.trim();
  if (trimmed.startsWith('ollama:')) {
    const name = trimmed.slice('ollama:'.length);
    const { file, digest } = resolveOllamaModel(name, ollamaModels);
    return { kind: 'ollama', name, path: file, digest };
  }
  if (trimmed === '') throw new ProviderError(PROVIDER, 'config', 'empty model path: use llama:<path to .gguf> or llama:ollama:<name>[:tag]');
  const file = path.resolve(trimmed);
  if (!existsSync(file)) throw new ProviderError(PROVIDER, 'not-found', `GGUF file ${file} does not exist (llama:<path to .gguf> or llama:ollama:<name>[:tag])`);
  if (!statSync(file).isFile()) throw new ProviderError(PROVIDER, 'config', `${file} is a folder, not a GGUF file: name the .gguf file itself`);
  return { kind: 'file', path: file };
}

/** A GGUF file's identity for caches and fingerprints: its size, modification time and first MiB (header and metadata). */
function fileFingerprint(file: string): string {
  const st = statSync(file);
  const head = Buffer.alloc(Math.min(st.size, 1 << 20));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  return `gguf-${createHash('sha256').update(`${st.size}:${st.mtimeMs}:`).update(head).digest('hex').slice(0, 16)}`;
}

export class LlamaProvider implements ModelProvider {
  readonly source: GgufSource;
  private readonly revision: string;
  readonly sequences: number;
  readonly contextSize: number;
  readonly kvCache: 'F32' | 'F16';
  /** undefined: chosen at load from the model's size. */
  readonly threads?: number;
  private loading?: Promise<Loaded>;
  readonly generationStats: LlamaGenerationStats = { requests: 0, promptTokens: 0, promptTokensComputed: 0, generatedTokens: 0 };
  /** Whether a request continues from the tokens its sequence holds (one sequence only: see sharePrefix). */
  readonly reusesPrefixes: boolean;

  constructor(
    readonly modelSpec: string,
    private readonly options: LlamaProviderOptions = {},
  ) {
    const vars = options.env ?? process.env;
    this.sequences = positiveInteger(options.sequences, 'sequences', 1);
    if (options.sharePrefix === true && this.sequences > 1)
      throw new ProviderError(PROVIDER, 'config', `sharePrefix needs one sequence: with ${this.sequences}, node-llama-cpp 3.21.1 gave wrong log-probabilities after reuse`);
    this.reusesPrefixes = options.sharePrefix ?? this.sequences === 1;
    this.contextSize = positiveInteger(options.contextSize ?? vars.LOKAL_LLAMA_CONTEXT, 'contextSize (LOKAL_LLAMA_CONTEXT)', 2048);
    const threads = options.threads ?? vars.LOKAL_LLAMA_THREADS;
    this.threads = threads === undefined || threads === '' ? undefined : positiveInteger(threads, 'threads (LOKAL_LLAMA_THREADS)', 1);
    this.kvCache = options.kvCache ?? 'F32';
    if (this.kvCache !== 'F32' && this.kvCache !== 'F16') throw new ProviderError(PROVIDER, 'config', `kvCache must be F32 or F16, got ${JSON.stringify(this.kvCache)}`);
    this.source = resolveGgufSource(modelSpec, options.ollamaModels ?? ollamaModelsDir(vars));
    this.revision = this.source.kind === 'ollama' ? this.source.digest : fileFingerprint(this.source.path);
  }

  describe(): ModelDescription {
    return {
      provider: PROVIDER,
      model: this.source.kind === 'ollama' ? `ollama:${this.source.name}` : this.source.path,
      revision: this.revision,
      settings: {
        runtime: 'llama.cpp (node-llama-cpp, CPU)',
        decoding: 'greedy',
        defaultMaxNewTokens: DEFAULT_MAX_NEW_TOKENS,
        // what can change an answer or a score (the cache key and the fingerprint hold these): several sequences
        // decoded together gave other greedy answers than one on the 494M model; threads change only the speed
        contextSize: this.contextSize,
        sequences: this.sequences,
        kvCache: this.kvCache,
        scoring: "sum of the logs of llama.cpp's float32 softmax over the continuation tokens",
      },
    };
  }

  /** Loads the model and its context once (also called lazily by generate/scoreContinuations). */
  load(): Promise<Loaded> {
    this.loading ??= this.doLoad();
    return this.loading;
  }

  /** Whether the GGUF metadata has a chat template (tokenizer.chat_template). */
  async isChatModel(): Promise<boolean> {
    return (await this.load()).chatTemplate !== undefined;
  }

  private async doLoad(): Promise<Loaded> {
    const lib = await importNodeLlamaCpp(this.options.importLibrary);
    const debug = envFlag((this.options.env ?? process.env).LOKAL_DEBUG);
    let llama: Llama | undefined;
    let model: LlamaModel | undefined;
    try {
      llama = await lib.getLlama({ gpu: false, build: 'never', logLevel: debug ? lib.LlamaLogLevel.warn : lib.LlamaLogLevel.error });
      model = await llama.loadModel({ modelPath: this.source.path });
      const context = await model.createContext({
        sequences: this.sequences,
        contextSize: this.contextSize,
        threads: this.threads ?? (model.size < SMALL_MODEL_BYTES ? 1 : availableParallelism()),
        flashAttention: false,
        experimentalKvCacheKeyType: this.kvCache,
        experimentalKvCacheValueType: this.kvCache,
      });
      const sequences = Array.from({ length: this.sequences }, () => context.getSequence());
      const metadata = model.fileInfo.metadata as unknown as { general?: { sampling?: { penalty_repeat?: number } }; tokenizer?: TokenizerMetadata };
      const tokenizer = metadata.tokenizer ?? {};
      const ggml = tokenizer.ggml ?? {};
      const tokenText = (id: number | undefined) => (id === undefined ? undefined : ggml.tokens?.[id]);
      const specialTokens = Object.fromEntries(
        [
          ['bos_token', tokenText(ggml.bos_token_id)],
          ['eos_token', tokenText(ggml.eos_token_id)],
          ['pad_token', tokenText(ggml.padding_token_id)],
        ].filter((e): e is [string, string] => e[1] !== undefined),
      );
      const loadedModel = model;
      let text = (ids: number[]) => loadedModel.detokenize(ids as Token[], false);
      if (ggml.model === 'gpt2' && ggml.tokens && ggml.token_type) {
        // llama.cpp's detokenizer cleans spaces before punctuation for some pre-tokenizers; decoding the bytes gives
        // the text Hugging Face's ByteLevel decoder gives (control tokens, type 3, are the special tokens skipped).
        const types = ggml.token_type;
        const bytes = new ByteLevelText(ggml.tokens, { skip: (id) => types[id] === 3, plain: (id) => types[id] === 4 });
        text = (ids) => bytes.decode(ids);
      }
      const penalty = metadata.general?.sampling?.penalty_repeat;
      return {
        llama,
        model,
        context,
        pool: new SequencePool(sequences),
        text,
        chatTemplate: tokenizer.chat_template ? new Template(tokenizer.chat_template) : undefined,
        specialTokens,
        repetitionPenalty: typeof penalty === 'number' && penalty !== 1 ? penalty : undefined,
      };
    } catch (error) {
      await model?.dispose().catch(() => undefined);
      await llama?.dispose().catch(() => undefined);
      throw error instanceof ProviderError ? error : new ProviderError(PROVIDER, 'not-found', `cannot load ${this.source.path}: ${firstLine(error)}`, { cause: error });
    }
  }

  /** The chat template of the GGUF metadata rendered as text (the tokens are this text's, special tokens parsed). */
  private renderChat(loaded: Loaded, messages: ChatMessage[], addGenerationPrompt: boolean): string {
    if (!loaded.chatTemplate)
      throw new ProviderError(PROVIDER, 'unsupported', `${this.describe().model} has no chat template (GGUF tokenizer.chat_template): use plain prompts with this model`);
    return loaded.chatTemplate.render({ messages, add_generation_prompt: addGenerationPrompt, ...loaded.specialTokens });
  }

  /** Token ids of a text: special tokens written in it are parsed; a plain prompt gets the BOS token the model asks for. */
  private tokenize(loaded: Loaded, text: string, plain: boolean): number[] {
    const ids = loaded.model.tokenize(text, true).map(Number);
    const bos = loaded.model.tokens.bos;
    return plain && bos !== null && loaded.model.tokens.shouldPrependBosToken ? [Number(bos), ...ids] : ids;
  }

  private promptInput(loaded: Loaded, req: { prompt?: string; messages?: ChatMessage[] }, where: string): { ids: number[]; input: ModelInput } {
    if ((req.prompt === undefined) === (req.messages === undefined))
      throw new ProviderError(PROVIDER, 'config', `${where}: exactly one of prompt and messages must be given`);
    const text = req.messages !== undefined ? this.renderChat(loaded, req.messages, true) : req.prompt!;
    const ids = this.tokenize(loaded, text, req.messages === undefined);
    if (ids.length === 0) throw new ProviderError(PROVIDER, 'config', `${where}: the prompt is empty after tokenisation`);
    if (ids.length >= this.contextSize)
      throw new ProviderError(PROVIDER, 'config', `${where}: the prompt has ${ids.length} tokens, the context holds ${this.contextSize}: raise LOKAL_LLAMA_CONTEXT`);
    return { ids, input: { text } };
  }

  /** The token ids a request's prompt is evaluated as (chat rendered with the GGUF template; BOS as the model asks). */
  async promptTokens(req: { prompt?: string; messages?: ChatMessage[] }): Promise<number[]> {
    return this.promptInput(await this.load(), req, 'prompt').ids;
  }

  async generate(requests: GenerateRequest[]): Promise<GenerateResult[]> {
    const loaded = await this.load();
    return Promise.all(requests.map((req, i) => this.generateOne(loaded, req, `request ${i}${req.itemKey ? ` (${req.itemKey})` : ''}`)));
  }

  private async generateOne(loaded: Loaded, req: GenerateRequest, where: string): Promise<GenerateResult> {
    const { ids, input } = this.promptInput(loaded, req, where);
    const stops = (req.stop ?? []).filter((s) => s !== '');
    const sampling = requestSampling(PROVIDER, req, where);
    // the budgets of transformers.js's generate: a total length (checked after each token) or a number of new tokens
    const maxLength = Math.min(req.maxLength ?? ids.length + (req.maxNewTokens ?? DEFAULT_MAX_NEW_TOKENS), this.contextSize);
    const sequence = await loaded.pool.acquire(ids);
    const started = performance.now();
    const generated: number[] = [];
    try {
      const kept = await SequencePool.reuse(sequence, ids, this.reusesPrefixes ? ids.length - 1 : 0);
      this.generationStats.requests++;
      this.generationStats.promptTokens += ids.length;
      this.generationStats.promptTokensComputed += ids.length - kept;
      const penalty = loaded.repetitionPenalty;
      const tokens = sequence.evaluate(ids.slice(kept) as Token[], {
        // Sampled: llama.cpp's chain (top-k, top-p, min-p, temperature, a draw) seeded by the trial; its default top-k 40
        // and top-p 0.95 are turned off so only the request's settings cut the distribution.
        ...(sampling ? { temperature: sampling.temperature, topP: sampling.topP, topK: 0, minP: 0, seed: sampling.seed } : { temperature: 0 }),
        yieldEogToken: true,
        // Hugging Face's repetition penalty: every distinct token of prompt and answer so far, once
        ...(penalty ? { repeatPenalty: { punishTokens: () => [...ids, ...generated] as Token[], maxPunishTokens: this.contextSize, penalty } } : {}),
      });
      for await (const token of tokens) {
        generated.push(Number(token));
        if (loaded.model.isEogToken(token) || ids.length + generated.length >= maxLength) break;
        if (stops.length > 0 && stops.some((s) => loaded.text(generated).includes(s))) break;
      }
    } catch (error) {
      throw error instanceof ProviderError ? error : new ProviderError(PROVIDER, 'inference', `${where}: generation failed: ${firstLine(error)}`);
    } finally {
      loaded.pool.release(sequence);
    }
    this.generationStats.generatedTokens += generated.length;
    const eosAt = generated.findIndex((t) => loaded.model.isEogToken(t as Token));
    const text = cutAtStop(loaded.text(eosAt >= 0 ? generated.slice(0, eosAt) : generated), stops);
    return { text, latencyMs: performance.now() - started, cached: false, input, promptTokens: ids.length, outputTokens: generated.length };
  }

  /** Token ids of the prompt (P) and of prompt + continuation (F); P must be a token prefix of F (docs/metrics.md#per-answer-score). */
  private tokenizeContinuation(loaded: Loaded, req: ContinuationRequest, where: string): { prefix: number[]; full: number[]; input: ModelInput } {
    const prompt = this.promptInput(loaded, req, where);
    const full =
      req.messages !== undefined
        ? this.tokenize(loaded, this.renderChat(loaded, [...req.messages, { role: 'assistant', content: req.continuation }], false), false)
        : this.tokenize(loaded, req.prompt! + req.continuation, true);
    const prefix = prompt.ids;
    const mismatch = prefix.findIndex((t, i) => full[i] !== t);
    if (mismatch >= 0 || full.length < prefix.length) {
      const at = mismatch >= 0 ? mismatch : full.length;
      throw new ProviderError(
        PROVIDER,
        'inference',
        `${where}: the prompt's ${prefix.length} tokens are not a prefix of the tokens of prompt + continuation ` +
          `(they differ at token ${at}: ${JSON.stringify(loaded.text(prefix.slice(at, at + 3)))} vs ${JSON.stringify(loaded.text(full.slice(at, at + 3)))}); ` +
          `the tokenizer merges across the boundary` +
          (req.prompt !== undefined ? ' (move trailing whitespace from the prompt to the start of the continuation)' : ''),
      );
    }
    if (full.length > this.contextSize)
      throw new ProviderError(PROVIDER, 'config', `${where}: prompt and continuation have ${full.length} tokens, the context holds ${this.contextSize}: raise LOKAL_LLAMA_CONTEXT`);
    return { prefix, full, input: prompt.input };
  }

  /**
   * Continuations of one prompt are scored one after another on one sequence, so the prompt is evaluated once (and
   * not at all when the sequence holds it from an earlier call); different prompts run on different sequences.
   */
  async scoreContinuations(requests: ContinuationRequest[]): Promise<ContinuationResult[]> {
    const loaded = await this.load();
    const items = requests.map((req, i) => ({ index: i, ...this.tokenizeContinuation(loaded, req, `request ${i}${req.itemKey ? ` (${req.itemKey})` : ''}`) }));
    const groups = new Map<string, typeof items>();
    for (const it of items) {
      const key = it.prefix.join(',');
      const group = groups.get(key);
      if (group) group.push(it);
      else groups.set(key, [it]);
    }
    const results = new Array<ContinuationResult>(items.length);
    await Promise.all(
      [...groups.values()].map(async (group) => {
        const sequence = await loaded.pool.acquire(group[0]!.prefix);
        try {
          for (const it of group) {
            const started = performance.now();
            const logprob = await this.scoreOne(sequence, it.prefix.length, it.full, this.reusesPrefixes);
            results[it.index] = { input: it.input, promptTokens: it.prefix.length, logprob, tokenCount: it.full.length - it.prefix.length, latencyMs: performance.now() - started, cached: false };
          }
        } catch (error) {
          throw error instanceof ProviderError ? error : new ProviderError(PROVIDER, 'inference', `continuation scoring failed: ${firstLine(error)}`);
        } finally {
          loaded.pool.release(sequence);
        }
      }),
    );
    return results;
  }

  /** log p(full[promptLength:] | full[:promptLength]): the distributions after positions promptLength − 1 … end − 1. */
  private async scoreOne(sequence: LlamaContextSequence, promptLength: number, full: number[], reuse: boolean): Promise<number> {
    if (full.length === promptLength) return 0;
    const kept = await SequencePool.reuse(sequence, full, reuse ? promptLength - 1 : 0);
    const input = full.slice(kept).map((t, j) => {
      const at = kept + j;
      return at >= promptLength - 1 && at < full.length - 1 ? ([t as Token, { generateNext: { probabilities: true } }] as const) : (t as Token);
    });
    const outputs = await sequence.controlledEvaluate(input as Parameters<LlamaContextSequence['controlledEvaluate']>[0]);
    let sum = 0;
    for (let at = promptLength; at < full.length; at++) {
      const probability = outputs[at - 1 - kept]?.next.probabilities?.get(full[at] as Token) ?? 0;
      sum += Math.log(probability);
    }
    return sum;
  }

  async close(): Promise<void> {
    if (!this.loading) return;
    const loaded = await this.loading.catch(() => undefined);
    this.loading = undefined;
    if (!loaded) return;
    await loaded.context.dispose();
    await loaded.model.dispose();
    await loaded.llama.dispose();
  }
}
