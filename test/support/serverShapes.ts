// Fake OpenAI-compatible servers shaped like common servers, as their documentation describes them (docs/models.md: "Which
// servers can run what"). What each does with the fields lokal sends:
// - vLLM: OpenAI's completions and chat APIs (echo + logprobs included) plus its own `prompt_logprobs` (docs.vllm.ai,
//   "OpenAI-Compatible Server", extra parameters).
// - llama.cpp server: chat with per-token logprobs; no echo on /v1/completions, no prompt_logprobs (unknown fields
//   are not an error).
// - Ollama (OpenAI compatibility, versions before logprobs were listed): chat; logprobs, echo and prompt_logprobs
//   ignored.
// - LM Studio: chat and completions; logprobs accepted but stubbed (null), echo and prompt_logprobs ignored.
// - TGI (Messages API): chat with logprobs; echo and prompt_logprobs ignored.
// - a hosted API (OpenAI): chat with logprobs; prompt_logprobs rejected (400), no /completions for chat models (404).
import type { FakeServerOptions } from './fakeOpenAIServer.ts';

export const SERVER_SHAPES: Record<string, FakeServerOptions> = {
  vLLM: {},
  'llama.cpp server': { echo: 'ignored', promptLogprobs: 'ignored' },
  Ollama: { echo: 'ignored', promptLogprobs: 'ignored', chatLogprobs: 'null' },
  'LM Studio': { echo: 'ignored', promptLogprobs: 'ignored', chatLogprobs: 'null' },
  TGI: { echo: 'ignored', promptLogprobs: 'ignored' },
  'hosted API (OpenAI)': { promptLogprobs: false, completions: false },
};
