// `openai:<model>`: any OpenAI-compatible server (vLLM, llama.cpp server, Ollama, TGI, OpenAI). Chat completions
// for generation; completions with echo + logprobs (prompts) or vLLM's prompt_logprobs (chat) for scoring.
import { z } from 'zod';
import { DEFAULT_RETRY_POLICY, HttpStatusError, checkRetryPolicy, isServerFailure, postJson, redact, redactJson, safeUrl, type RetryPolicy } from './http.ts';
import { parseServerList, ServerDropped, ServerPool, type Lease, type PoolServer } from './serverPool.ts';
import {
  ProviderError,
  type ChatMessage,
  type ContinuationRequest,
  type ContinuationResult,
  type GenerateRequest,
  type GenerateResult,
  type ModelDescription,
  type ModelProvider,
  type ModelUsage,
  DEFAULT_MAX_NEW_TOKENS,
} from './types.ts';
import { cutAtStop } from './providerText.ts';

const PROVIDER = 'openai';
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** OpenAI accepts at most 4 stop sequences; the rest are cut after the answer arrives. */
const MAX_SERVER_STOPS = 4;

/**
 * One request of an item: the time spent in its HTTP calls, the item's abort signal and key (its turn for a free slot),
 * and the servers that answered its calls.
 */
interface RequestCall {
  ms: number;
  signal?: AbortSignal;
  itemKey?: string;
  servers?: Set<string>;
}

const newCall = (signal: AbortSignal | undefined, itemKey: string | undefined): RequestCall => ({ ms: 0, signal, itemKey, servers: new Set() });

export interface OpenAIProviderOptions {
  /** Default: OPENAI_BASE_URL, else https://api.openai.com/v1. Several servers: their URLs separated by commas. */
  baseUrl?: string;
  /** Default: OPENAI_API_KEY (may be absent for local servers). Never printed or stored. */
  apiKey?: string;
  /** Requests in flight at once, per server (default 8; LOKAL_CONCURRENCY overrides). */
  concurrency?: number;
  /** Accept servers of one pool that serve different model ids (default: LOKAL_ALLOW_MIXED_SERVERS, else refused). */
  allowMixedServers?: boolean;
  /**
   * Retry and timeout settings (defaults in DEFAULT_RETRY_POLICY): `timeoutMs` per attempt (120 s), `totalTimeoutMs`
   * per request, every attempt and wait included (5 min), `maxRetries` (5), `maxResponseBytes` (64 MiB).
   */
  retry?: Partial<RetryPolicy>;
  /** Recorded in describe() (servers do not report one). */
  revision?: string;
  /** Extra JSON fields for every request (e.g. { seed: 0 }). */
  extraBody?: Record<string, unknown>;
  env?: Record<string, string | undefined>;
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  /** Where a pool's lines go when a server is dropped and when it is back (default console.warn). */
  log?: (line: string) => void;
}

// --- response schemas (zod at the edge) -------------------------------------------------------------------------
const Usage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int().optional() }).passthrough();
const ChatTokenLogprob = z.object({ token: z.string(), logprob: z.number(), bytes: z.array(z.number().int()).nullish() }).passthrough();
const PromptLogprobs = z.array(z.record(z.string(), z.object({ logprob: z.number() }).passthrough()).nullable());
/** A generation reply: a choice whose message has text. `content: null` or no choices is an unusable reply. */
const ChatGenerationResponse = z
  .object({
    choices: z
      .array(
        z
          .object({
            message: z.object({ content: z.string() }).passthrough(),
            logprobs: z.object({ content: z.array(ChatTokenLogprob).nullable().optional() }).passthrough().nullish(),
          })
          .passthrough(),
      )
      .min(1),
    usage: Usage.nullish(),
  })
  .passthrough();
const ChatResponse = z
  .object({
    choices: z
      .array(
        z
          .object({
            message: z.object({ content: z.string().nullable().optional() }).passthrough(),
            logprobs: z.object({ content: z.array(ChatTokenLogprob).nullable().optional() }).passthrough().nullish(),
          })
          .passthrough(),
      )
      .min(1),
    usage: Usage.nullish(),
    prompt_logprobs: PromptLogprobs.nullish(),
  })
  .passthrough();
const CompletionLogprobs = z
  .object({
    tokens: z.array(z.string()),
    token_logprobs: z.array(z.number().nullable()),
    text_offset: z.array(z.number().int()),
  })
  .passthrough();
const CompletionResponse = z
  .object({
    choices: z.array(z.object({ text: z.string(), logprobs: CompletionLogprobs.nullish() }).passthrough()).min(1),
    usage: Usage.nullish(),
  })
  .passthrough();

const ModelList = z.object({ data: z.array(z.object({ id: z.string() }).passthrough()).min(1) }).passthrough();

/** A reply's JSON with the key replaced wherever the server echoed it; undefined when it is not JSON. */
function redactJsonText(text: string, secret: string | undefined): unknown {
  try {
    return redactJson(JSON.parse(text), secret);
  } catch {
    return undefined;
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function parse<T>(schema: z.ZodType<T>, json: unknown, where: string): T {
  const result = schema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    let found: unknown = json;
    for (const key of issue.path) found = found !== null && typeof found === 'object' ? (found as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined;
    const expected = issue.code === 'invalid_type' ? `expected ${issue.expected}, got ${describeValue(found)}` : issue.message;
    throw new ProviderError(PROVIDER, 'invalid-response', `${where}: unexpected response: ${issue.path.join('.') || '(root)'}: ${expected}`);
  }
  return result.data;
}

/** Where a base URL may not carry what it carries: credentials belong in OPENAI_API_KEY, queries break the paths. */
function checkBaseUrl(baseUrl: string, source: string, secret: string | undefined): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ProviderError(PROVIDER, 'config', `${source} is not a URL: ${JSON.stringify(redact(baseUrl.replace(/\/\/[^/@]*@/, '//[redacted]@'), secret))}`);
  }
  const shown = safeUrl(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProviderError(PROVIDER, 'config', `${source} must be an http:// or https:// URL, got ${JSON.stringify(url.protocol)} (${shown})`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ProviderError(PROVIDER, 'config', `${source} must not contain credentials (user:password@ in ${shown}): give the key in OPENAI_API_KEY`);
  }
  if (/[?#]/.test(baseUrl)) {
    throw new ProviderError(PROVIDER, 'config', `${source} must not contain a query string or fragment (${shown} has one): endpoint paths are appended to it`);
  }
}

const codePoints = (s: string) => [...s].length;

/** The server's own token counts (usage.prompt_tokens / completion_tokens); null where it reports none. */
function usageCounts(usage: z.infer<typeof Usage> | null | undefined): Pick<ModelUsage, 'promptTokens' | 'outputTokens'> {
  return { promptTokens: usage?.prompt_tokens ?? null, outputTokens: usage?.completion_tokens ?? null };
}

export class OpenAIProvider implements ModelProvider {
  /** The first server's base URL (the only one, unless OPENAI_BASE_URL lists several). */
  readonly baseUrl: string;
  /** Every server's base URL, in the order given. */
  readonly baseUrls: string[];
  readonly concurrency: number;
  readonly allowMixedServers: boolean;
  private readonly apiKey?: string;
  private readonly policy: RetryPolicy;
  readonly pool: ServerPool;

  constructor(
    readonly model: string,
    private readonly options: OpenAIProviderOptions = {},
  ) {
    const vars = options.env ?? process.env;
    if (model.trim() === '') throw new ProviderError(PROVIDER, 'config', 'empty model name: use openai:<model served by the server>');
    const source = options.baseUrl !== undefined ? 'the base URL' : vars.OPENAI_BASE_URL !== undefined ? 'OPENAI_BASE_URL' : 'the default base URL';
    this.baseUrls = parseServerList(options.baseUrl ?? vars.OPENAI_BASE_URL ?? DEFAULT_BASE_URL, source);
    this.baseUrls.forEach((url, i) => checkBaseUrl(url, this.baseUrls.length === 1 ? source : `${source} entry ${i + 1} of ${this.baseUrls.length}`, options.apiKey ?? vars.OPENAI_API_KEY));
    this.baseUrl = this.baseUrls[0]!;
    this.allowMixedServers = options.allowMixedServers ?? ['1', 'true', 'yes', 'on'].includes((vars.LOKAL_ALLOW_MIXED_SERVERS ?? '').trim().toLowerCase());
    this.apiKey = options.apiKey ?? vars.OPENAI_API_KEY ?? undefined;
    const concurrency = options.concurrency ?? (vars.LOKAL_CONCURRENCY ? Number(vars.LOKAL_CONCURRENCY) : 8);
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new ProviderError(PROVIDER, 'config', `concurrency must be a positive integer (LOKAL_CONCURRENCY), got ${concurrency}`);
    this.concurrency = concurrency;
    this.policy = checkRetryPolicy({ ...DEFAULT_RETRY_POLICY, ...options.retry }, PROVIDER);
    this.pool = new ServerPool(this.baseUrls, {
      concurrency,
      baseDelayMs: this.policy.baseDelayMs,
      maxDelayMs: this.policy.maxDelayMs,
      probe: (server) => this.answers(server),
      ...(options.log ? { log: options.log } : {}),
    });
  }

  /** Every `system_fingerprint` the server's responses carried, in the order first seen. */
  private readonly systemFingerprints = new Set<string>();

  describe(): ModelDescription {
    return {
      provider: PROVIDER,
      model: this.model,
      ...(this.options.revision ? { revision: this.options.revision } : {}),
      ...(this.systemFingerprints.size > 0 ? { systemFingerprint: [...this.systemFingerprints].join(',') } : {}),
      ...(this.baseUrls.length > 1 ? { servers: this.baseUrls.map(safeUrl) } : {}),
      settings: {
        // Several servers: the pool, in the order given (the fingerprint names the pool; the cache key leaves it out).
        baseUrl: this.baseUrls.map(safeUrl).join(','),
        temperature: 0,
        defaultMaxNewTokens: DEFAULT_MAX_NEW_TOKENS,
        ...(this.options.extraBody ? { extraBody: this.options.extraBody } : {}),
      },
    };
  }

  /** Items in the order of their first request: a later request of an item waits only for items that began before it. */
  private readonly itemTurns = new Map<string, number>();

  /** An item's turn for a free slot: its next request goes before the first requests of items that began after it. */
  private turnOf(itemKey: string | undefined): number | undefined {
    if (itemKey === undefined) return undefined;
    let turn = this.itemTurns.get(itemKey);
    if (turn === undefined) this.itemTurns.set(itemKey, (turn = this.itemTurns.size));
    return turn;
  }

  /**
   * One HTTP call inside the concurrency limit; `call.ms` accumulates the time spent in calls. A reply that does not
   * fit `schema` is retried like a server error and, if it stays so, fails the item (so it is never cached). With
   * several servers, a server that fails the call is left out for a while and the call goes to another one.
   */
  private async post<T>(endpoint: string, body: Record<string, unknown>, call: RequestCall, schema: z.ZodType<T>, where: string): Promise<T> {
    const headers: Record<string, string> = this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
    const several = this.pool.servers.length > 1;
    const priority = this.turnOf(call.itemKey);
    const failures: string[] = [];
    for (;;) {
      let lease: Lease;
      try {
        lease = await this.pool.acquire(priority);
      } catch (error) {
        // Every server is down: this request's own failures, then each server's.
        throw new ProviderError(PROVIDER, 'network', `${where}: ${(error as Error).message.replace(/^\[[^\]]*\] /u, '')}${failures.length > 0 ? ` (this request: ${failures.join('; ')})` : ''}`, { cause: error });
      }
      const { server } = lease;
      const started = performance.now();
      try {
        // Its item was cancelled while it waited for a free slot (Ctrl-C): the server is not asked.
        call.signal?.throwIfAborted();
        const { json } = await postJson(`${server.url}${endpoint}`, { ...this.options.extraBody, ...body }, {
          provider: PROVIDER,
          headers,
          policy: this.policy,
          secret: this.apiKey,
          onRetry: this.options.onRetry,
          failFast: several,
          ...(several ? { signal: lease.signal } : {}),
          check: (reply) => parse(schema, reply, `${where}: POST ${endpoint}`),
        });
        this.pool.succeeded(server);
        // Recorded per item: printable (no user info or query) and without the key, like every server-supplied field.
        call.servers?.add(redact(server.shown, this.apiKey));
        // The server's backend configuration, for the run's fingerprint (OpenAI and vLLM send it; many servers do not).
        const fingerprint = (json as { system_fingerprint?: unknown }).system_fingerprint;
        if (typeof fingerprint === 'string' && fingerprint !== '') this.systemFingerprints.add(fingerprint);
        return json;
      } catch (error) {
        const moved = error instanceof ServerDropped;
        // 4xx and unusable replies are answers about the request itself: the same on every server, so not moved.
        if (!several || !(moved || isServerFailure(error)) || call.signal?.aborted) throw error;
        const reason = (error as Error).message.replace(/^\[[^\]]*\] /u, '');
        if (!moved) this.pool.failed(server, reason);
        failures.push(reason);
        // At most as many servers' failures as the pool has servers: a server that keeps coming back cannot loop a request.
        if (failures.length >= this.pool.servers.length)
          throw new ProviderError(PROVIDER, moved ? 'network' : (error as ProviderError).kind, `${where}: every server of the pool failed: ${failures.join('; ')}`, { cause: error });
        this.options.onRetry?.({ attempt: failures.length, delayMs: 0, reason: `${failures.at(-1)} (asking another server)` });
      } finally {
        call.ms += performance.now() - started;
        this.pool.release(lease);
      }
    }
  }

  /**
   * One POST for the capability probe (capabilities.ts), with the model and greedy decoding: the reply's JSON, or why
   * there is none (an HTTP status with the server's message, a timeout); one retry at most. Several servers: `at`, else
   * the first healthy one.
   */
  async probe(endpoint: string, body: Record<string, unknown>, at?: PoolServer): Promise<{ ok: true; json: unknown } | { ok: false; reason: string }> {
    const headers: Record<string, string> = this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
    const server = at ?? this.pool.servers.find((s) => s.failures === 0) ?? this.pool.servers[0]!;
    try {
      const { json } = await postJson(`${server.url}${endpoint}`, { ...this.options.extraBody, model: this.model, temperature: 0, ...body }, {
        provider: PROVIDER,
        headers,
        policy: { ...this.policy, maxRetries: Math.min(1, this.policy.maxRetries) },
        secret: this.apiKey,
      });
      return { ok: true, json };
    } catch (error) {
      if (error instanceof HttpStatusError) return { ok: false, reason: `HTTP ${error.status}${error.serverMessage ? `: ${error.serverMessage}` : ''}` };
      return { ok: false, reason: (error as Error).message.replace(/^\[[^\]]*\] /u, '') };
    }
  }

  /**
   * Whether a dropped server of the pool answers again: any reply to GET /models but a 5xx (a server without the route
   * answers 404), within 10 s at most; undefined when it does, else why not.
   */
  private async answers(server: PoolServer): Promise<string | undefined> {
    const headers: Record<string, string> = this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
    try {
      const response = await fetch(`${server.url}/models`, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(Math.min(this.policy.timeoutMs, 10_000)) });
      await response.body?.cancel();
      return response.status >= 500 ? `GET /models: HTTP ${response.status}` : undefined;
    } catch (error) {
      return `GET /models: ${redact((error as Error).message, this.apiKey)}`;
    }
  }

  /**
   * The model ids a server lists at GET /models (OpenAI, vLLM, llama.cpp server, Ollama and TGI serve it), or why it
   * lists none (an HTTP status, a timeout, a reply without `data[].id`).
   */
  async servedModels(server: PoolServer): Promise<{ ok: true; ids: string[] } | { ok: false; reason: string }> {
    const headers: Record<string, string> = this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {};
    try {
      const response = await fetch(`${server.url}/models`, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(Math.min(this.policy.timeoutMs, 30_000)) });
      const text = await response.text();
      if (!response.ok) return { ok: false, reason: `GET /models: HTTP ${response.status}` };
      const parsed = ModelList.safeParse(redactJsonText(text, this.apiKey));
      if (!parsed.success) return { ok: false, reason: 'GET /models: no data[].id in the reply' };
      return { ok: true, ids: [...new Set(parsed.data.data.map((m) => m.id))].sort() };
    } catch (error) {
      return { ok: false, reason: `GET /models: ${redact((error as Error).message, this.apiKey)}` };
    }
  }

  async generate(requests: GenerateRequest[]): Promise<GenerateResult[]> {
    return Promise.all(
      requests.map(async (req, i) => {
        const call = newCall(req.signal, req.itemKey);
        const answer = await this.generateOne(req, `request ${i}${req.itemKey ? ` (${req.itemKey})` : ''}`, call);
        return { ...answer, latencyMs: call.ms, cached: false, ...this.answeredBy(call) };
      }),
    );
  }

  /** With several servers, which answered the request's calls (printable URLs, comma-joined); one server: nothing. */
  private answeredBy(call: RequestCall): { server?: string } {
    return this.pool.servers.length > 1 && call.servers && call.servers.size > 0 ? { server: [...call.servers].join(',') } : {};
  }

  /** The answer, what was sent (the prompt, or the messages the server renders), and the server's token counts. */
  private async generateOne(req: GenerateRequest, where: string, call: RequestCall): Promise<ModelUsage & { text: string }> {
    if ((req.prompt === undefined) === (req.messages === undefined))
      throw new ProviderError(PROVIDER, 'config', `${where}: exactly one of prompt and messages must be given`);
    const stops = (req.stop ?? []).filter((s) => s !== '');
    const limitByLength = req.maxLength !== undefined;
    const common: Record<string, unknown> = {
      model: this.model,
      temperature: req.temperature ?? 0,
      // maxLength counts prompt tokens: ask for at most maxLength new tokens, then cut using the reported usage.
      max_tokens: limitByLength ? req.maxLength : (req.maxNewTokens ?? DEFAULT_MAX_NEW_TOKENS),
      ...(stops.length > 0 ? { stop: stops.slice(0, MAX_SERVER_STOPS) } : {}),
      // Sent only when set, so a request without trial settings is byte-identical to one made before trials existed.
      ...(req.topP !== undefined ? { top_p: req.topP } : {}),
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
    };
    if (req.messages !== undefined) {
      const res = await this.post('/chat/completions', { ...common, messages: req.messages, ...(limitByLength ? { logprobs: true } : {}) }, call, ChatGenerationResponse, where);
      const choice = res.choices[0]!;
      let text = choice.message.content;
      if (limitByLength) {
        const tokens = choice.logprobs?.content ?? undefined;
        text = this.cutToBudget(text, req.maxLength!, res.usage?.prompt_tokens, tokens?.map((t) => (t.bytes ? Buffer.from(t.bytes).toString('utf8') : t.token)), where);
      }
      // A server that echoes the request's Authorization header: the key never reaches the cache, results or report.
      return { text: redact(cutAtStop(text, stops), this.apiKey), input: { messages: req.messages }, ...usageCounts(res.usage) };
    }
    const res = await this.post('/completions', { ...common, prompt: req.prompt, ...(limitByLength ? { logprobs: 1 } : {}) }, call, CompletionResponse, where);
    const choice = res.choices[0]!;
    let text = choice.text;
    if (limitByLength) text = this.cutToBudget(text, req.maxLength!, res.usage?.prompt_tokens, choice.logprobs?.tokens, where);
    return { text: redact(cutAtStop(text, stops), this.apiKey), input: { text: req.prompt! }, ...usageCounts(res.usage) };
  }

  /** Keeps max(1, maxLength − prompt tokens) generated tokens (HF max_length semantics). */
  private cutToBudget(text: string, maxLength: number, promptTokens: number | undefined, tokens: string[] | undefined, where: string): string {
    if (promptTokens === undefined)
      throw new ProviderError(PROVIDER, 'unsupported', `${where}: maxLength needs the prompt's token count, but the server reported no usage.prompt_tokens`);
    const budget = Math.max(1, maxLength - promptTokens);
    if (tokens === undefined) {
      throw new ProviderError(PROVIDER, 'unsupported', `${where}: maxLength needs per-token logprobs to cut the answer, but the server returned none`);
    }
    return tokens.length <= budget ? text : tokens.slice(0, budget).join('');
  }

  async scoreContinuations(requests: ContinuationRequest[]): Promise<ContinuationResult[]> {
    const prefixLengths = new Map<string, Promise<number[]>>(); // one P request per distinct conversation
    return Promise.all(
      requests.map(async (req, i) => {
        const where = `request ${i}${req.itemKey ? ` (${req.itemKey})` : ''}`;
        const call = newCall(req.signal, req.itemKey);
        if ((req.prompt === undefined) === (req.messages === undefined))
          throw new ProviderError(PROVIDER, 'config', `${where}: exactly one of prompt and messages must be given`);
        const scored =
          req.messages !== undefined
            ? await this.scoreChat(req.messages, req.continuation, where, prefixLengths, call)
            : await this.scorePrompt(req.prompt!, req.continuation, where, call);
        const input = req.messages !== undefined ? { messages: req.messages } : { text: req.prompt! };
        return { input, ...scored, latencyMs: call.ms, cached: false, ...this.answeredBy(call) };
      }),
    );
  }

  private unsupported(error: unknown, what: string, where: string): never {
    if (error instanceof HttpStatusError && [400, 404, 405, 422, 501].includes(error.status))
      throw new ProviderError(PROVIDER, 'unsupported', `${where}: the server at ${safeUrl(this.baseUrl)} cannot score continuations (${what}): HTTP ${error.status}${error.serverMessage ? `: ${error.serverMessage}` : ''}`);
    throw error;
  }

  /** Completions with echo + logprobs: the logprobs of the prompt's own tokens after the prompt text. */
  private async scorePrompt(prompt: string, continuation: string, where: string, call: RequestCall): Promise<{ logprob: number; tokenCount: number; promptTokens: number | null }> {
    if (continuation === '') return { logprob: 0, tokenCount: 0, promptTokens: null };
    const what = '/completions with echo and logprobs';
    let res: z.infer<typeof CompletionResponse>;
    try {
      res = await this.post('/completions', { model: this.model, prompt: prompt + continuation, max_tokens: 1, temperature: 0, echo: true, logprobs: 1 }, call, CompletionResponse, where);
    } catch (error) {
      this.unsupported(error, what, where);
    }
    const lp = res.choices[0]!.logprobs;
    if (!lp || lp.tokens.length === 0)
      throw new ProviderError(PROVIDER, 'unsupported', `${where}: the server at ${safeUrl(this.baseUrl)} cannot score continuations: ${what} returned no logprobs`);
    if (lp.token_logprobs.length !== lp.tokens.length || lp.text_offset.length !== lp.tokens.length)
      throw new ProviderError(PROVIDER, 'invalid-response', `${where}: logprobs.tokens, token_logprobs and text_offset differ in length`);
    // Offsets count characters of the Python string the server decoded, i.e. code points.
    const start = codePoints(prompt);
    const end = start + codePoints(continuation);
    if (!lp.text_offset.includes(start))
      throw new ProviderError(PROVIDER, 'inference', `${where}: no token starts where the continuation starts (code point ${start}); the tokenizer merges across the boundary (move trailing whitespace from the prompt to the continuation)`);
    let logprob = 0;
    let tokenCount = 0;
    let promptTokens = 0;
    for (let i = 0; i < lp.tokens.length; i++) {
      const offset = lp.text_offset[i]!;
      if (offset < start) promptTokens++;
      if (offset < start || offset >= end) continue;
      const value = lp.token_logprobs[i];
      if (value === null || value === undefined)
        throw new ProviderError(PROVIDER, 'invalid-response', `${where}: token ${i} (${JSON.stringify(lp.tokens[i])}) of the continuation has no logprob`);
      logprob += value;
      tokenCount++;
    }
    return { logprob, tokenCount, promptTokens };
  }

  /** vLLM chat completions with prompt_logprobs: token ids and logprobs of the rendered conversation. */
  private async promptTokens(messages: ChatMessage[], addGenerationPrompt: boolean, where: string, call: RequestCall): Promise<Array<{ id: string; logprob: number } | null>> {
    const what = "vLLM's prompt_logprobs on /chat/completions";
    let res: z.infer<typeof ChatResponse>;
    try {
      res = await this.post('/chat/completions', {
        model: this.model,
        messages,
        max_tokens: 1,
        temperature: 0,
        prompt_logprobs: 0,
        add_generation_prompt: addGenerationPrompt,
        continue_final_message: false,
      }, call, ChatResponse, where);
    } catch (error) {
      this.unsupported(error, what, where);
    }
    const entries = res.prompt_logprobs ?? (res.choices[0] as { prompt_logprobs?: unknown }).prompt_logprobs;
    if (!entries)
      throw new ProviderError(PROVIDER, 'unsupported', `${where}: the server at ${safeUrl(this.baseUrl)} cannot score chat replies: ${what} returned no prompt_logprobs (a vLLM server is needed)`);
    const parsed = parse(PromptLogprobs, entries, `${where}: prompt_logprobs`);
    return parsed.map((entry, i) => {
      if (entry === null) return null;
      const keys = Object.keys(entry);
      if (keys.length !== 1)
        throw new ProviderError(PROVIDER, 'invalid-response', `${where}: prompt_logprobs[${i}] has ${keys.length} entries; with prompt_logprobs=0 exactly one (the prompt token) is expected`);
      return { id: keys[0]!, logprob: entry[keys[0]!]!.logprob };
    });
  }

  /** docs/metrics.md#per-answer-score on a server: P = [user] + generation prompt, F = [user, assistant], sum over F after |P|. */
  private async scoreChat(
    messages: ChatMessage[],
    continuation: string,
    where: string,
    prefixes: Map<string, Promise<number[]>>,
    call: RequestCall,
  ): Promise<{ logprob: number; tokenCount: number; promptTokens: number }> {
    const key = JSON.stringify(messages);
    let prefixPromise = prefixes.get(key);
    if (!prefixPromise) {
      prefixPromise = this.promptTokens(messages, true, where, call).then((t) => t.map((e) => (e ? Number(e.id) : -1)));
      prefixes.set(key, prefixPromise);
    }
    const [prefix, full] = await Promise.all([prefixPromise, this.promptTokens([...messages, { role: 'assistant', content: continuation }], false, where, call)]);
    const mismatch = prefix.findIndex((id, i) => i > 0 && (full[i] === undefined || full[i] === null || Number(full[i]!.id) !== id));
    if (mismatch >= 0 || full.length < prefix.length)
      throw new ProviderError(PROVIDER, 'inference', `${where}: the prompt's ${prefix.length} tokens are not a prefix of the conversation's tokens (first difference at token ${mismatch >= 0 ? mismatch : full.length})`);
    let logprob = 0;
    for (let i = prefix.length; i < full.length; i++) {
      const entry = full[i];
      if (!entry) throw new ProviderError(PROVIDER, 'invalid-response', `${where}: prompt_logprobs[${i}] is null`);
      logprob += entry.logprob;
    }
    return { logprob, tokenCount: full.length - prefix.length, promptTokens: prefix.length };
  }
}
