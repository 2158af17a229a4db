// The capability probe and `lokal doctor` against fake servers shaped like common servers
// (test/support/serverShapes.ts). The expected table is written by hand from each shape's documented behaviour; the
// table of servers in docs/models.md repeats it.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { main } from '../../src/cli/index.ts';
import { doctorVerdicts } from '../../src/cli/doctor.ts';
import { modelCapabilities, greedyRepeatable, type CapabilityName } from '../../src/models/capabilities.ts';
import { openLokalModel } from '../../src/models/open.ts';
import { startFakeOpenAIServer, type FakeServer } from '../support/fakeOpenAIServer.ts';
import { SERVER_SHAPES } from '../support/serverShapes.ts';

type Row = Record<CapabilityName, boolean>;
// chat, plain prompt, echo + logprobs, prompt_logprobs, token logprobs of generated text
const EXPECTED: Record<string, Row> = {
  vLLM: { chat: true, prompt: true, scorePrompt: true, scoreChat: true, tokenLogprobs: true },
  'llama.cpp server': { chat: true, prompt: true, scorePrompt: false, scoreChat: false, tokenLogprobs: true },
  Ollama: { chat: true, prompt: true, scorePrompt: false, scoreChat: false, tokenLogprobs: false },
  'LM Studio': { chat: true, prompt: true, scorePrompt: false, scoreChat: false, tokenLogprobs: false },
  TGI: { chat: true, prompt: true, scorePrompt: false, scoreChat: false, tokenLogprobs: true },
  'hosted API (OpenAI)': { chat: true, prompt: false, scorePrompt: false, scoreChat: false, tokenLogprobs: true },
};

const servers = new Map<string, FakeServer>();
beforeAll(async () => {
  for (const [name, shape] of Object.entries(SERVER_SHAPES)) servers.set(name, await startFakeOpenAIServer(shape));
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
});

const open = (name: string) => openLokalModel('openai:toy', { openai: { baseUrl: servers.get(name)!.url, env: {} } });

describe('what each server shape supports, asked once', () => {
  test.each(Object.keys(EXPECTED))('%s', async (name) => {
    const capabilities = await modelCapabilities(await open(name));
    const found = Object.fromEntries(Object.entries(capabilities).map(([k, v]) => [k, v.supported]));
    expect(found, JSON.stringify(capabilities)).toEqual(EXPECTED[name]);
  });

  test('the reason names the request and the server’s answer', async () => {
    const hosted = await modelCapabilities(await open('hosted API (OpenAI)'));
    expect(hosted.scoreChat.how).toBe('/chat/completions with prompt_logprobs: HTTP 400: Unrecognized request argument supplied: prompt_logprobs');
    expect(hosted.prompt.how).toMatch(/^\/completions: HTTP 404/u);
    const lmStudio = await modelCapabilities(await open('LM Studio'));
    expect(lmStudio.tokenLogprobs.how).toBe('/chat/completions with logprobs: returned no logprobs.content');
  });

  test('two greedy calls: the same text, or both texts when they differ', async () => {
    expect((await greedyRepeatable(await open('vLLM'))).supported).toBe(true);
    const sampling = await startFakeOpenAIServer({ unrepeatable: true });
    try {
      const found = await greedyRepeatable(await openLokalModel('openai:toy', { openai: { baseUrl: sampling.url, env: {} } }));
      expect(found.supported).toBe(false);
      expect(found.how).toMatch(/^"#\d+ .*" then "#\d+ .*"$/u);
    } finally {
      await sampling.close();
    }
  });
});

describe('lokal doctor', () => {
  test('a chat server without logprobs (Ollama-shaped): what it supports, and letter MC and new_tokens generation work', async () => {
    vi.stubEnv('OPENAI_BASE_URL', servers.get('Ollama')!.url);
    const lines: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (lines.push(String(chunk)), true));
    let code: number;
    try {
      code = await main(['doctor', '--model', 'openai:toy']);
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
    }
    const text = lines.join('');
    expect(code, text).toBe(0);
    expect(text).toContain(`lokal doctor: openai:toy at ${servers.get('Ollama')!.url}\nsupports:\n  ✓ takes chat messages (a chat template) — /chat/completions answers\n`);
    expect(text).toContain("  ✗ scores a given chat reply (vLLM's prompt_logprobs) — /chat/completions with prompt_logprobs: returned no prompt_logprobs\n");
    expect(text).toContain('  ✓ two greedy calls return the same text — the same text twice\n');
    expect(text).toContain('  ✓ Kalahi MC, LOKAL_KALAHI_MC=letter\n');
    expect(text).toContain("  ✗ Kalahi MC, LOKAL_KALAHI_MC=logprobs (default) — needs: scores a given chat reply (vLLM's prompt_logprobs)");
    expect(text).toContain('  ✗ Kalahi generation, LOKAL_KALAHI_BUDGET=max_length (default) — needs: per-token log-probabilities of generated text');
    expect(text).toContain('  ✓ Kalahi generation, LOKAL_KALAHI_BUDGET=new_tokens\n');
  });

  test('the verdicts follow the capabilities', async () => {
    const capabilities = await modelCapabilities(await open('Ollama'));
    const verdicts = Object.fromEntries(doctorVerdicts('openai:toy', capabilities).map((v) => [v.task, v.works]));
    expect(verdicts).toEqual({
      'MultiLoKo, LOKAL_PROMPT=chat': true,
      'MultiLoKo, LOKAL_PROMPT=base': true,
      'Kalahi MC, LOKAL_KALAHI_MC=logprobs (default)': false,
      'Kalahi MC, LOKAL_KALAHI_MC=letter': true,
      'Kalahi generation, LOKAL_KALAHI_BUDGET=max_length (default)': false,
      'Kalahi generation, LOKAL_KALAHI_BUDGET=new_tokens': true,
    });
  });
});

describe('a local model and a replay file', () => {
  test('transformers: everything from its own logits, chat from its template; greedy calls repeat', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const { writeTinyModel } = await import('../support/tinyModel.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'lokal-doctor-tiny-'));
    try {
      writeTinyModel(path.join(dir, 'tiny'), { seed: 3 });
      const model = await openLokalModel(`transformers:${path.join(dir, 'tiny')}`, {});
      const capabilities = await modelCapabilities(model);
      expect(Object.values(capabilities).every((c) => c.supported)).toBe(true);
      expect(capabilities.chat.how).toBe('the tokenizer has a chat template');
      expect((await greedyRepeatable(model)).supported).toBe(true);
      expect(doctorVerdicts('transformers:tiny', capabilities).every((v) => v.works)).toBe(true);
      await model.provider.close?.();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('replay: replies only; Kalahi MC cannot run from a file', () => {
    const none = { supported: false, how: 'a predictions file holds replies only' };
    const verdicts = doctorVerdicts('replay:p.jsonl', { chat: none, prompt: none, scorePrompt: none, scoreChat: none, tokenLogprobs: none });
    expect(verdicts.map((v) => [v.task, v.works])).toEqual([
      ['MultiLoKo and Kalahi generation: the replies the file holds', true],
      ['Kalahi MC (either protocol)', false],
    ]);
  });
});

describe('MultiLoKo on a chat-only server', () => {
  test('the base prompt needs /completions: a requirement only for openai: models with LOKAL_PROMPT=base', async () => {
    const { prepareMultiLoKo } = await import('../../src/benchmarks/multiloko/run/plan.ts');
    const path = await import('node:path');
    const data = path.resolve(__dirname, '../../data/fixtures/multiloko');
    const base = { data, split: 'dev', prompt: 'base', fewshot: 'dataset', shots: 5, strict: false, missing: 'empty', maxNewTokens: 64, output: 'results', baselineTolerance: 0.02, baselineMode: 'significance', baselineAlpha: 0.05, baselineMargin: 0.01 } as const;
    const plan = await prepareMultiLoKo({ ...base, model: 'openai:toy', languages: ['italian'] } as never, []);
    const [need] = plan.modelRequirements!('openai:toy');
    expect(need!.capability).toBe('prompt');
    const hosted = await modelCapabilities(await open('hosted API (OpenAI)'));
    expect(hosted.prompt.supported).toBe(false);
    expect(need!.problem(hosted.prompt.how)).toBe("MultiLoKo's base prompt (LOKAL_PROMPT=base) is a plain completion prompt, and this server takes none (/completions: HTTP 404: no route POST /v1/completions): set LOKAL_PROMPT=chat");
    expect(plan.modelRequirements!('transformers:x')).toEqual([]);
    const chat = await prepareMultiLoKo({ ...base, prompt: 'chat', model: 'openai:toy', languages: ['italian'] } as never, []);
    expect(chat.modelRequirements!('openai:toy')).toEqual([]);
  });
});

describe('lokal doctor on several servers', () => {
  async function doctor(env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    const out: string[] = [];
    const err: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    const writeErr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (err.push(String(chunk)), true));
    try {
      return { code: await main(['doctor', '--model', 'openai:toy-model']), out: out.join(''), err: err.join('') };
    } finally {
      write.mockRestore();
      writeErr.mockRestore();
      vi.unstubAllEnvs();
    }
  }

  test('each server is reached and named with its model; different models are refused in one line unless allowed', async () => {
    const a = await startFakeOpenAIServer({ models: ['toy-model'] });
    const b = await startFakeOpenAIServer({ models: ['toy-model'] });
    const c = await startFakeOpenAIServer({ models: ['qwen'] });
    try {
      const same = await doctor({ OPENAI_BASE_URL: `${a.url},${b.url}` });
      expect(same.code, same.err).toBe(0);
      expect(same.out).toContain(`lokal doctor: openai:toy-model at ${a.url},${b.url}\nservers:\n  ✓ ${a.url} — serves toy-model\n  ✓ ${b.url} — serves toy-model\nsupports:\n`);
      const mixed = await doctor({ OPENAI_BASE_URL: `${a.url},${c.url}` });
      expect(mixed.code).not.toBe(0);
      const line = `the servers of OPENAI_BASE_URL serve different models: ${a.url} serves toy-model; ${c.url} serves qwen: give servers of one model, or set LOKAL_ALLOW_MIXED_SERVERS=1`;
      expect(mixed.err).toContain(line);
      expect(mixed.err.split('\n').filter((l) => l.includes('serve different models'))).toHaveLength(1);
      const allowed = await doctor({ OPENAI_BASE_URL: `${a.url},${c.url}`, LOKAL_ALLOW_MIXED_SERVERS: '1' });
      expect(allowed.code, allowed.err).toBe(0);
      expect(allowed.out).toContain(`servers:\n  ✓ ${a.url} — serves toy-model\n  ✓ ${c.url} — serves qwen\n`);
      // Servers that can do different things: each is asked, and those differing from the first are named.
      expect(same.out).not.toContain('servers that differ:');
      const ollama = await startFakeOpenAIServer(SERVER_SHAPES.Ollama);
      try {
        const differ = await doctor({ OPENAI_BASE_URL: `${a.url},${ollama.url}` });
        expect(differ.code, differ.err).toBe(0);
        expect(differ.out).toContain(`servers that differ:\n  ✗ ${ollama.url}: scores given text after a prompt (completions with echo + logprobs) — `);
        expect(differ.out).toContain(`  ✗ ${ollama.url}: scores a given chat reply (vLLM's prompt_logprobs) — /chat/completions with prompt_logprobs: returned no prompt_logprobs\n`);
        expect(differ.out).not.toContain(`${a.url}: `);
      } finally {
        await ollama.close();
      }
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
