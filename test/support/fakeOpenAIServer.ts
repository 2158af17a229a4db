// A small OpenAI-compatible HTTP server with a deterministic toy "model", for tests, benches and trying the
// `openai:` provider without a real server. Speaks /v1/chat/completions (incl. vLLM's prompt_logprobs) and
// /v1/completions (incl. echo + logprobs) and GET /v1/models, with injectable latency and faults (429, 5xx, dropped connections).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToyMessage {
  role: string;
  content: string;
}

// --- The toy model: tokens are code points; everything below is its definition. ------------------------------

/** Chat rendering: `<role>content</role>` per message, then `<assistant>` as the generation prompt. */
export function toyRenderChat(messages: ToyMessage[], addGenerationPrompt: boolean): string {
  return messages.map((m) => `<${m.role}>${m.content}</${m.role}>`).join('') + (addGenerationPrompt ? '<assistant>' : '');
}

/** log p(token at position i) for i ≥ 1 (position 0 has none): depends on the code point and the position. */
export function toyLogprob(codePoint: number, position: number): number {
  return -(((codePoint + 3 * position) % 7) + 1) / 8;
}

/** The toy model's answer to a prompt text (before max_tokens and stop are applied). */
export function toyAnswer(promptText: string): string {
  const cps = [...promptText];
  return `echo(${cps.length}): ${cps.slice(-12).reverse().join('')}`;
}

export type Fault =
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  | { kind: 'drop' }
  | { kind: 'delay'; ms: number };

export interface FakeServerOptions {
  /** Required bearer token (none: no auth). */
  apiKey?: string;
  /** Delay before every answer, in ms. */
  latencyMs?: number;
  /** Answer vLLM's prompt_logprobs (default true); false: reject it with 400 like OpenAI does; 'ignored': answer without it. */
  promptLogprobs?: boolean | 'ignored';
  /** Accept echo on /completions (default true); false: reject it with 400; 'ignored': answer without echoing the prompt. */
  echo?: boolean | 'ignored';
  /** Chat `logprobs: true` (default 'returned'): 'null' answers logprobs null (a stub), 'rejected' a 400. */
  chatLogprobs?: 'returned' | 'null' | 'rejected';
  /** Serve /completions (default true); false: 404, as chat-only APIs do. */
  completions?: boolean;
  /** The model's answer to a rendered prompt (default toyAnswer); the request's body gives its sampling fields (`seed`). */
  answer?: (promptText: string, body: Record<string, unknown>) => string;
  /** Each answer starts with a counter (a server that samples even at temperature 0). */
  unrepeatable?: boolean;
  /** Chooses a fault for the n-th request (1-based) or returns undefined to answer normally. */
  fault?: (n: number, body: Record<string, unknown>) => Fault | undefined;
  port?: number;
  /** The ids GET /models lists (default ['toy-model']); null: no such route (404). */
  models?: string[] | null;
}

export interface FakeServerStats {
  requests: number;
  answered: number;
  inFlight: number;
  maxInFlight: number;
  /** Successful answers per request signature (endpoint + prompt text), to detect repeated calls. */
  answeredBySignature: Map<string, number>;
}

export interface FakeServer {
  url: string;
  stats: FakeServerStats;
  options: FakeServerOptions;
  port: number;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function cut(answer: string[], maxTokens: number, stops: string[]): string[] {
  let tokens = answer.slice(0, Math.max(0, maxTokens));
  const text = tokens.join('');
  let end = text.length;
  for (const s of stops) {
    const at = s ? text.indexOf(s) : -1;
    if (at >= 0 && at < end) end = at;
  }
  if (end < text.length) tokens = [...text.slice(0, end)];
  return tokens;
}

function promptLogprobs(text: string) {
  return [...text].map((ch, i) => (i === 0 ? null : { [String(ch.codePointAt(0))]: { logprob: toyLogprob(ch.codePointAt(0)!, i), rank: 1, decoded_token: ch } }));
}

function chatCompletion(body: Record<string, unknown>, options: FakeServerOptions): { status: number; json: unknown } {
  const messages = body.messages as ToyMessage[];
  if (!Array.isArray(messages)) return { status: 400, json: { error: { message: 'messages is required' } } };
  const wantsPromptLogprobs = body.prompt_logprobs !== undefined && options.promptLogprobs !== 'ignored';
  if (wantsPromptLogprobs && options.promptLogprobs === false)
    return { status: 400, json: { error: { message: 'Unrecognized request argument supplied: prompt_logprobs' } } };
  if (body.logprobs && options.chatLogprobs === 'rejected') return { status: 400, json: { error: { message: 'logprobs is not supported' } } };
  const addGenerationPrompt = body.add_generation_prompt !== false;
  const prompt = toyRenderChat(messages, addGenerationPrompt);
  const tokens = cut([...answerOf(prompt, options, body)], Number(body.max_tokens ?? 16), (body.stop as string[] | undefined) ?? []);
  const promptLength = [...prompt].length;
  const content = tokens.join('');
  return {
    status: 200,
    json: {
      id: 'chatcmpl-toy',
      object: 'chat.completion',
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content },
          finish_reason: 'stop',
          logprobs: body.logprobs && (options.chatLogprobs ?? 'returned') === 'returned'
            ? { content: tokens.map((t, i) => ({ token: t, logprob: toyLogprob(t.codePointAt(0)!, promptLength + i), bytes: [...Buffer.from(t, 'utf8')] })) }
            : null,
        },
      ],
      usage: { prompt_tokens: promptLength, completion_tokens: tokens.length, total_tokens: promptLength + tokens.length },
      ...(wantsPromptLogprobs ? { prompt_logprobs: promptLogprobs(prompt) } : {}),
    },
  };
}

function completion(body: Record<string, unknown>, options: FakeServerOptions): { status: number; json: unknown } {
  const prompt = body.prompt;
  if (typeof prompt !== 'string') return { status: 400, json: { error: { message: 'prompt must be a string' } } };
  if (body.echo && options.echo === false) return { status: 400, json: { error: { message: 'echo is not supported' } } };
  if (options.echo === 'ignored') body = { ...body, echo: undefined };
  const promptTokens = [...prompt];
  const tokens = cut([...answerOf(prompt, options, body)], Number(body.max_tokens ?? 16), (body.stop as string[] | undefined) ?? []);
  const all = body.echo ? [...promptTokens, ...tokens] : tokens;
  const first = body.echo ? 0 : promptTokens.length;
  // Every token is one code point, so its offset (in code points, as Python servers count) is its position.
  const offsets = all.map((_, i) => first + i);
  return {
    status: 200,
    json: {
      id: 'cmpl-toy',
      object: 'text_completion',
      model: body.model,
      choices: [
        {
          index: 0,
          text: (body.echo ? prompt : '') + tokens.join(''),
          finish_reason: 'stop',
          logprobs:
            body.logprobs !== undefined && body.logprobs !== null
              ? {
                  tokens: all,
                  token_logprobs: all.map((t, i) => (first + i === 0 ? null : toyLogprob(t.codePointAt(0)!, first + i))),
                  text_offset: offsets,
                  top_logprobs: null,
                }
              : null,
        },
      ],
      usage: { prompt_tokens: promptTokens.length, completion_tokens: tokens.length, total_tokens: promptTokens.length + tokens.length },
    },
  };
}

let answers = 0;
function answerOf(prompt: string, options: FakeServerOptions, body: Record<string, unknown>): string {
  const text = options.answer ? options.answer(prompt, body) : toyAnswer(prompt);
  return options.unrepeatable ? `#${++answers} ${text}` : text;
}

export async function startFakeOpenAIServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const stats: FakeServerStats = { requests: 0, answered: 0, inFlight: 0, maxInFlight: 0, answeredBySignature: new Map() };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const n = ++stats.requests;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        stats.inFlight--;
      }
    };
    res.on('close', finish);
    const raw = await readBody(req);
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      // Like some proxies, echo what was received: clients must not pass this on verbatim.
      send(res, 401, { error: { message: `invalid API key: ${req.headers.authorization ?? '(none)'}` } });
      return;
    }
    if (req.method === 'GET' && (req.url ?? '').replace(/^\/v1/, '') === '/models') {
      const ids = options.models === undefined ? ['toy-model'] : options.models;
      if (ids === null) send(res, 404, { error: { message: `no route GET ${req.url}` } });
      else send(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', owned_by: 'toy' })) });
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw);
    } catch {
      send(res, 400, { error: { message: 'body is not JSON' } });
      return;
    }
    const fault = options.fault?.(n, body);
    const latency = (fault?.kind === 'delay' ? fault.ms : 0) + (options.latencyMs ?? 0);
    if (latency > 0) await new Promise((r) => setTimeout(r, latency).unref());
    if (fault?.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'status') {
      send(res, fault.status, fault.body ?? { error: { message: `injected ${fault.status}` } }, fault.headers);
      return;
    }
    const path = (req.url ?? '').replace(/^\/v1/, '');
    const answer =
      req.method === 'POST' && path === '/chat/completions'
        ? chatCompletion(body, options)
        : req.method === 'POST' && path === '/completions' && options.completions !== false
          ? completion(body, options)
          : { status: 404, json: { error: { message: `no route ${req.method} ${req.url}` } } };
    if (answer.status === 200) {
      stats.answered++;
      const signature = `${path} ${JSON.stringify(body.messages ?? body.prompt)} ${JSON.stringify(body.add_generation_prompt ?? null)}`;
      stats.answeredBySignature.set(signature, (stats.answeredBySignature.get(signature) ?? 0) + 1);
    }
    send(res, answer.status, answer.json);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => send(res, 500, { error: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    stats,
    options,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
