// One interface for every way of asking a model: replay files, transformers.js, OpenAI-compatible servers.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** New-token budget of a generate request that names none (every provider and the cache key agree on it). */
export const DEFAULT_MAX_NEW_TOKENS = 64;

export interface GenerateRequest {
  /** A plain completion prompt (base models). Exactly one of `prompt` and `messages`. */
  prompt?: string;
  /** Chat messages, rendered with the model's chat template (instruct models). */
  messages?: ChatMessage[];
  /** New-token budget; default DEFAULT_MAX_NEW_TOKENS. */
  maxNewTokens?: number;
  /** Total-length budget counting the prompt's tokens (HF `max_length`); overrides maxNewTokens when set. */
  maxLength?: number;
  /** Generation stops before the first occurrence of any of these strings. */
  stop?: string[];
  /** Stable identity of the benchmark item (e.g. `multiloko/italian/<id>`): replay looks answers up by it. */
  itemKey?: string;
  /** Sampling temperature (openai: `temperature`; unset: 0, greedy). Part of the cache key when set. */
  temperature?: number;
  /** Nucleus sampling's kept mass (openai: `top_p`); unset: not sent. Part of the cache key when set. */
  topP?: number;
  /** This trial's seed (openai: `seed`, from trialSeed); unset: not sent. Part of the cache key when set. */
  seed?: number;
  /** The trial's index (0-based) among an item's trials: replay answers from the row of that trial, the cache keeps each
   * trial apart. Trial 0 leaves it unset, so a run of one trial asks and caches exactly as a run without trials. */
  trial?: number;
  /** The item test's: once it aborts (a cancelled run, a timeout), a request still waiting for its turn is not sent. */
  signal?: AbortSignal;
}

/**
 * What a model was actually fed for a request: the prompt text after templating (a local model: the plain prompt, or
 * the chat template rendered) or the messages array sent to a server, which renders them itself.
 */
export type ModelInput = { text: string } | { messages: ChatMessage[] };

/** What the model saw and how many tokens it read and wrote; a provider that sent nothing (replay) leaves it out. */
export interface ModelUsage {
  input?: ModelInput;
  /** Tokens of the prompt as fed (special tokens the tokenizer adds included); null when the provider does not know. */
  promptTokens?: number | null;
  /** Tokens the model generated for the answer (a final end-of-sequence token and tokens past a stop string included). */
  outputTokens?: number | null;
  /** openai: with several servers (OPENAI_BASE_URL lists them), the one that answered, its URL without credentials or query. */
  server?: string;
}

export interface GenerateResult extends ModelUsage {
  text: string;
  /** Wall time of the model call in ms; 0 for cache hits. */
  latencyMs: number;
  cached: boolean;
}

export interface ContinuationRequest {
  prompt?: string;
  messages?: ChatMessage[];
  /** The text whose log-probability after the prompt (or as the assistant's reply) is wanted. */
  continuation: string;
  itemKey?: string;
  /** As GenerateRequest's. */
  signal?: AbortSignal;
}

export interface ContinuationResult {
  /** The prompt the continuation was scored after (as fed, generation prompt included) and its token count. */
  input?: ModelInput;
  promptTokens?: number | null;
  /** Sum of natural-log probabilities of the continuation's tokens. */
  logprob: number;
  /** Number of scored tokens. */
  tokenCount: number;
  latencyMs: number;
  cached: boolean;
  /** As ModelUsage's: the server that answered (several servers only). */
  server?: string;
}

export interface ModelDescription {
  provider: string;
  model: string;
  revision?: string;
  settings: Record<string, unknown>;
  /**
   * What the server said of its backend (OpenAI's `system_fingerprint`), distinct values comma-joined in the order seen;
   * absent until a response carries one. Kept out of `settings`, which key the response cache.
   */
  systemFingerprint?: string;
  /**
   * Several servers of one model (OPENAI_BASE_URL lists them; `settings.baseUrl` joins them): each one's printable URL.
   * The response cache keys their answers by the model served, not by which servers are listed.
   */
  servers?: string[];
}

export interface ModelProvider {
  describe(): ModelDescription;
  generate(requests: GenerateRequest[]): Promise<GenerateResult[]>;
  scoreContinuations(requests: ContinuationRequest[]): Promise<ContinuationResult[]>;
  close?(): Promise<void>;
}

type ProviderErrorKind =
  | 'config' // bad provider string or options
  | 'not-found' // model or replay answer not available
  | 'unsupported' // the provider cannot do this (e.g. a server without logprobs)
  | 'http' // non-retryable HTTP status
  | 'timeout'
  | 'network'
  | 'invalid-response'
  | 'inference';

/** A typed provider failure; `message` is safe to show (never contains an API key). */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly provider: string;
  constructor(provider: string, kind: ProviderErrorKind, message: string, options?: { cause?: unknown }) {
    super(`[${provider}] ${message}`, options);
    this.name = 'ProviderError';
    this.kind = kind;
    this.provider = provider;
  }
}
