// What a model can do, asked once (at collection, and by `lokal doctor`): take chat messages, score given text after a
// prompt (completions with echo + logprobs), score a given chat reply (vLLM's prompt_logprobs), return per-token
// log-probabilities of generated text; and, on demand, whether two greedy calls return the same text. A benchmark
// names what its tasks need, so a model that cannot do it fails once, naming the settings that work.
import { z } from 'zod';
import type { LokalModel } from './open.ts';
import type { ChatMessage, ModelProvider } from './types.ts';

export const CAPABILITIES = ['chat', 'prompt', 'scorePrompt', 'scoreChat', 'tokenLogprobs'] as const;
export type CapabilityName = (typeof CAPABILITIES)[number];

/** Whether the model can, and how that was found (the request and the server's answer, in a few words). */
interface Capability {
  supported: boolean;
  how: string;
}

export type ModelCapabilities = Record<CapabilityName, Capability>;

/** What each capability means, for `lokal doctor` and docs/models.md. */
export const CAPABILITY_LABELS: Record<CapabilityName | 'deterministic', string> = {
  chat: 'takes chat messages (a chat template)',
  prompt: 'takes a plain prompt (/completions)',
  scorePrompt: 'scores given text after a prompt (completions with echo + logprobs)',
  scoreChat: "scores a given chat reply (vLLM's prompt_logprobs)",
  tokenLogprobs: 'per-token log-probabilities of generated text',
  deterministic: 'two greedy calls return the same text',
};

/** A probe request of the OpenAI-compatible provider (OpenAIProvider.probe). */
type Probe = (endpoint: string, body: Record<string, unknown>) => Promise<{ ok: true; json: unknown } | { ok: false; reason: string }>;

const PROBE_MESSAGES: ChatMessage[] = [{ role: 'user', content: 'Kumusta ka? Sagot: A' }];
const PROBE_PROMPT = 'Ang kabisera ng Pilipinas ay';

const ChatReply = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }).passthrough(), logprobs: z.object({ content: z.array(z.object({ token: z.string(), logprob: z.number() }).passthrough()).nullish() }).passthrough().nullish() }).passthrough()).min(1),
  usage: z.object({ prompt_tokens: z.number() }).passthrough().nullish(),
});
const PromptLogprobsReply = z.object({ prompt_logprobs: z.array(z.unknown()).min(1).nullish(), choices: z.array(z.object({ prompt_logprobs: z.array(z.unknown()).min(1).nullish() }).passthrough()).min(1) });
const EchoReply = z.object({
  choices: z.array(z.object({ text: z.string(), logprobs: z.object({ tokens: z.array(z.string()).min(1), token_logprobs: z.array(z.number().nullable()), text_offset: z.array(z.number()) }).passthrough().nullish() }).passthrough()).min(1),
});

async function serverCapabilities(probe: Probe): Promise<ModelCapabilities> {
  const [chat, scoreChat, scorePrompt] = await Promise.all([
    probe('/chat/completions', { messages: PROBE_MESSAGES, max_tokens: 4, logprobs: true }),
    probe('/chat/completions', { messages: PROBE_MESSAGES, max_tokens: 1, prompt_logprobs: 0, add_generation_prompt: true }),
    probe('/completions', { prompt: PROBE_PROMPT, max_tokens: 1, echo: true, logprobs: 1 }),
  ]);
  const out = {} as ModelCapabilities;
  // Chat, and token logprobs of the reply (with the prompt's token count, which max_length budgets need).
  let chatReply = chat.ok ? ChatReply.safeParse(chat.json) : undefined;
  let chatHow = chat.ok ? '' : `/chat/completions with logprobs: ${chat.reason}`;
  if (!chat.ok) {
    // A server that rejects the logprobs field may still chat.
    const plain = await probe('/chat/completions', { messages: PROBE_MESSAGES, max_tokens: 4 });
    chatReply = plain.ok ? ChatReply.safeParse(plain.json) : undefined;
    if (!plain.ok) chatHow = `/chat/completions: ${plain.reason}`;
  }
  out.chat = chatReply?.success ? { supported: true, how: '/chat/completions answers' } : { supported: false, how: chatHow || '/chat/completions: no message content in the reply' };
  const tokens = chat.ok && chatReply?.success ? chatReply.data.choices[0]!.logprobs?.content : undefined;
  const promptTokens = chat.ok && chatReply?.success ? chatReply.data.usage?.prompt_tokens : undefined;
  out.tokenLogprobs =
    !chat.ok ? { supported: false, how: chatHow }
    : !tokens || tokens.length === 0 ? { supported: false, how: '/chat/completions with logprobs: returned no logprobs.content' }
    : promptTokens === undefined ? { supported: false, how: '/chat/completions: no usage.prompt_tokens' }
    : { supported: true, how: '/chat/completions logprobs.content and usage.prompt_tokens' };
  const scored = scoreChat.ok ? PromptLogprobsReply.safeParse(scoreChat.json) : undefined;
  const hasPromptLogprobs = scored?.success === true && (scored.data.prompt_logprobs ?? scored.data.choices[0]?.prompt_logprobs) != null;
  out.scoreChat = hasPromptLogprobs
    ? { supported: true, how: '/chat/completions prompt_logprobs' }
    : { supported: false, how: `/chat/completions with prompt_logprobs: ${scoreChat.ok ? 'returned no prompt_logprobs' : scoreChat.reason}` };
  const echoed = scorePrompt.ok ? EchoReply.safeParse(scorePrompt.json) : undefined;
  out.prompt = scorePrompt.ok ? { supported: true, how: '/completions answers' } : { supported: false, how: `/completions: ${scorePrompt.reason}` };
  const echoChoice = echoed?.success ? echoed.data.choices[0] : undefined;
  const lp = echoChoice?.logprobs;
  out.scorePrompt =
    lp && lp.text_offset.length === lp.tokens.length && echoChoice!.text.startsWith(PROBE_PROMPT)
      ? { supported: true, how: '/completions echo + logprobs' }
      : { supported: false, how: `/completions with echo and logprobs: ${scorePrompt.ok ? 'returned no logprobs of the prompt' : scorePrompt.reason}` };
  return out;
}

/** What the model can do: asked of a server once; a local model can everything but maybe chat; a replay file nothing. */
export async function modelCapabilities(model: LokalModel): Promise<ModelCapabilities> {
  const inner = model.inner as ModelProvider & { probe?: Probe };
  if (model.row.needsServer && typeof inner.probe === 'function') return serverCapabilities(inner.probe.bind(inner));
  if (model.row.answersFromFile) {
    const none = { supported: false, how: 'a predictions file holds replies only' };
    return { chat: none, prompt: none, scorePrompt: none, scoreChat: none, tokenLogprobs: none };
  }
  const local = { supported: true, how: "the local model's own logits" };
  const chat = await model.chat();
  return { chat: { supported: chat, how: chat ? 'the tokenizer has a chat template' : 'the tokenizer has no chat template' }, prompt: local, scorePrompt: local, scoreChat: local, tokenLogprobs: local };
}

/** A server of a pool as capabilitiesPerServer needs it (serverPool.ts). */
interface ProbedServer {
  shown: string;
  failures: number;
}

/**
 * Each healthy server of a pool (OPENAI_BASE_URL lists several) asked on its own, for `lokal doctor`: a run asks the
 * first healthy one only, so servers that differ are named there. Empty for one server or another provider.
 */
export async function capabilitiesPerServer(model: LokalModel): Promise<Array<{ server: string; capabilities: ModelCapabilities }>> {
  const inner = model.inner as ModelProvider & { probe?: (endpoint: string, body: Record<string, unknown>, at?: ProbedServer) => ReturnType<Probe>; pool?: { servers: ProbedServer[] } };
  const servers = inner.pool?.servers ?? [];
  if (!model.row.needsServer || typeof inner.probe !== 'function' || servers.length < 2) return [];
  const probe = inner.probe.bind(inner);
  return Promise.all(
    servers.filter((s) => s.failures === 0).map(async (s) => ({ server: s.shown, capabilities: await serverCapabilities((endpoint, body) => probe(endpoint, body, s)) })),
  );
}

/** Two greedy calls with the same request: the same text, or the two texts that differ (a replay file: recorded). */
export async function greedyRepeatable(model: LokalModel): Promise<Capability> {
  if (model.row.answersFromFile) return { supported: true, how: 'replies are read from the file' };
  const chat = await model.chat();
  const request = chat ? { messages: PROBE_MESSAGES, maxNewTokens: 16 } : { prompt: PROBE_PROMPT, maxNewTokens: 16 };
  const [first] = await model.inner.generate([request]);
  const [second] = await model.inner.generate([request]);
  const same = first?.text === second?.text;
  return { supported: same, how: same ? 'the same text twice' : `${JSON.stringify(first?.text)} then ${JSON.stringify(second?.text)}` };
}
