// Child process for the SIGKILL resume test: asks the fake server for N answers through the cache, prints them.
import { withCache } from '../../src/models/cache.ts';
import { OpenAIProvider } from '../../src/models/openai.ts';

const { LOKAL_TEST_SERVER, LOKAL_TEST_CACHE, LOKAL_TEST_N } = process.env;
const provider = withCache(
  new OpenAIProvider('toy-model', { baseUrl: LOKAL_TEST_SERVER, env: {}, concurrency: 1, retry: { baseDelayMs: 5, maxRetries: 0 } }),
  { file: LOKAL_TEST_CACHE, mode: 'readwrite', warn: (m) => process.stderr.write(`${m}\n`) },
);
const prompts = Array.from({ length: Number(LOKAL_TEST_N) }, (_, i) => `item ${i}`);
const results = await provider.generate(prompts.map((prompt) => ({ prompt, maxNewTokens: 100 })));
process.stdout.write(JSON.stringify(results.map((r) => ({ text: r.text, cached: r.cached }))));
