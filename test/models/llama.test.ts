// The llama: provider on GGUF files the project generates (make:tiny-model --format gguf): greedy answers and
// continuation log-probabilities agree with the transformers: provider on the ONNX model of the same folder; the
// repetition penalty of the generation config, stop strings and budgets; seeded sampled decoding; sequences reuse shared prompt prefixes;
// Ollama names resolve through a fake models folder; a missing node-llama-cpp is one line saying how to install it.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createProvider, ProviderError, type ChatMessage, type ContinuationRequest, type GenerateRequest } from '../../src/models/index.ts';
import { isChatModel, lokalModelOptions } from '../../src/models/open.ts';
import { LlamaProvider } from '../../src/models/llama.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';
import { ollamaManifestPath } from '../../src/models/ollamaModel.ts';
import { probeProvider } from '../../src/models/probe.ts';
import { writeTinyModel, type TinyModelShape, type TinyModelSpec } from '../support/tinyModel.ts';
import { writeTinyModelGguf } from '../support/tinyModelGguf.ts';

const work = mkdtempSync(path.join(tmpdir(), 'lokal-llama-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function makeModel(name: string, spec: Partial<TinyModelSpec>, shape: TinyModelShape = {}): string {
  const dir = path.join(work, name);
  const info = writeTinyModel(dir, spec, shape);
  writeTinyModelGguf(dir, info.spec);
  return dir;
}

const PROMPTS: GenerateRequest[] = [
  { prompt: 'The capital of Italy is', maxNewTokens: 12 },
  { prompt: 'Q: What is the capital of France?\nA:', maxNewTokens: 20, stop: ['\n', 'Q:'] },
  { prompt: 'Q: What is the capital of France?\nA: Paris\nQ: And of Spain?\nA:', maxLength: 40 },
  { prompt: 'Ano ang kabisera ng Pilipinas?', maxNewTokens: 16, stop: ['a'] },
  { messages: [{ role: 'user', content: 'Name a river in Italy.' }], maxNewTokens: 16 },
  { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Saan ang Maynila?' }], maxNewTokens: 24, stop: ['.'] },
];

const MESSAGES: ChatMessage[] = [{ role: 'user', content: 'Ano ang pambansang bayani ng Pilipinas?' }];
const CONTINUATIONS: ContinuationRequest[] = [
  { prompt: 'Q: Who is the national hero of the Philippines?\nA:', continuation: ' José Rizal' },
  { prompt: 'Q: Who is the national hero of the Philippines?\nA:', continuation: ' Andres Bonifacio, of course.' },
  { prompt: 'The capital of Italy is', continuation: ' Rome' },
  { messages: MESSAGES, continuation: 'Si José Rizal.' },
  { messages: MESSAGES, continuation: 'Hindi ko alam' },
];

const SHAPES = [
  ['llama family', 'plain', { layers: 2, hidden: 32, seed: 3 }],
  ['qwen2 family (biases, grouped-query attention, tied embeddings)', 'qwen', { layers: 2, hidden: 32, heads: 4, kvHeads: 2, qkvBias: true, tieEmbeddings: true, seed: 4 }],
] as const;
beforeAll(() => {
  for (const [, name, spec] of SHAPES) makeModel(name, spec);
});

describe.each(SHAPES)('%s: parity with transformers: on the same folder', (_, name) => {
  let dir: string;
  let llama: LlamaProvider;
  let onnx: TransformersProvider;
  beforeAll(() => {
    dir = path.join(work, name);
    llama = new LlamaProvider(path.join(dir, 'model.gguf'));
    onnx = new TransformersProvider(dir);
  });
  afterAll(async () => {
    await Promise.all([llama.close(), onnx.close()]);
  });

  test('greedy answers (plain and chat prompts, stop strings, new-token and total-length budgets) are identical', async () => {
    // one sequence (what settings give), continuing each prompt from the last one's prefix: several sequences decoded
    // together changed first tokens of 2 of these 6 answers on one CI machine (node-llama-cpp 3.21.1)
    const [fromLlama, fromOnnx] = await Promise.all([llama.generate(PROMPTS), onnx.generate(PROMPTS)]);
    expect(fromLlama.map((r) => r.text)).toEqual(fromOnnx.map((r) => r.text));
    expect(fromLlama.map((r) => [r.promptTokens, r.outputTokens])).toEqual(fromOnnx.map((r) => [r.promptTokens, r.outputTokens]));
    expect(fromLlama.map((r) => r.input)).toEqual(fromOnnx.map((r) => r.input));
    expect(fromLlama.some((r) => r.text.length > 0)).toBe(true);
  });

  test('continuation log-probabilities agree within 1e-4 (Kalahi MC), token counts equal', async () => {
    // concurrent requests, queued on the one sequence (four sequences were 3.5 nats off in one of them on a CI machine)
    const [fromLlama, fromOnnx] = await Promise.all([llama.scoreContinuations(CONTINUATIONS), onnx.scoreContinuations(CONTINUATIONS)]);
    fromLlama.forEach((r, i) => {
      expect(Math.abs(r.logprob - fromOnnx[i]!.logprob), `${i}: ${r.logprob} vs ${fromOnnx[i]!.logprob}`).toBeLessThan(1e-4);
      expect([r.tokenCount, r.promptTokens]).toEqual([fromOnnx[i]!.tokenCount, fromOnnx[i]!.promptTokens]);
      expect(r.input).toEqual(fromOnnx[i]!.input);
    });
    // scored again on the sequence, which continues from the prompts it holds: the same values
    const again = await llama.scoreContinuations(CONTINUATIONS);
    again.forEach((r, i) => expect(Math.abs(r.logprob - fromLlama[i]!.logprob)).toBeLessThan(1e-9));
  });

  test('the chat template comes from the GGUF metadata', async () => {
    expect(await isChatModel(llama)).toBe(true);
  });
});

describe('generation settings and scheduling', () => {
  test("the generation config's repetition penalty (general.sampling.penalty_repeat) applies as in transformers:", async () => {
    const base = makeModel('plain-penalty', { layers: 2, hidden: 32, seed: 3 }, { generationConfig: { eos_token_id: [382, 383], do_sample: false, repetition_penalty: 1.8 } });
    const plain = new LlamaProvider(path.join(work, 'plain', 'model.gguf'));
    const penalised = new LlamaProvider(path.join(base, 'model.gguf'));
    const onnx = new TransformersProvider(base);
    try {
      const requests = PROMPTS.slice(0, 3);
      const [a, b, c] = await Promise.all([plain.generate(requests), penalised.generate(requests), onnx.generate(requests)]);
      expect(b.map((r) => r.text)).toEqual(c.map((r) => r.text));
      expect(b.map((r) => r.text)).not.toEqual(a.map((r) => r.text));
    } finally {
      await Promise.all([plain.close(), penalised.close(), onnx.close()]);
    }
  });

  test('several sequences (the bench measures them; settings never ask) do not reuse prefixes, and asking for it is refused', async () => {
    // With prefix reuse on 8 sequences, node-llama-cpp 3.21.1 gave log-probabilities off by up to 12 nats in a few of
    // fifteen rounds; even whole evaluations on 4 sequences were once 3.5 nats off on a CI machine.
    const llama = new LlamaProvider(path.join(work, 'plain', 'model.gguf'), { sequences: 8 });
    try {
      // Two prompts sharing a long prefix, one after the other: every prompt token of both is computed.
      const shots = 'Q: What is the capital of France?\nA: Paris\nQ: What is the capital of Spain?\nA: Madrid\n';
      const [one] = await llama.generate([{ prompt: `${shots}Q: What is the capital of Italy?\nA:`, maxNewTokens: 4 }]);
      const [two] = await llama.generate([{ prompt: `${shots}Q: What is the capital of Peru?\nA:`, maxNewTokens: 4 }]);
      expect(llama.generationStats.promptTokensComputed).toBe(one!.promptTokens! + two!.promptTokens!);
    } finally {
      await llama.close();
    }
    expect(() => new LlamaProvider(path.join(work, 'plain', 'model.gguf'), { sequences: 2, sharePrefix: true })).toThrow(/sharePrefix needs one sequence/);
  });

  test('one sequence: a prompt sharing a prefix with the last one evaluates only its new tokens', async () => {
    const llama = new LlamaProvider(path.join(work, 'plain', 'model.gguf'), { sequences: 1 });
    try {
      const shots = 'Q: What is the capital of France?\nA: Paris\nQ: What is the capital of Spain?\nA: Madrid\n';
      const first = `${shots}Q: What is the capital of Italy?\nA:`;
      const second = `${shots}Q: What is the capital of Peru?\nA:`;
      const [one] = await llama.generate([{ prompt: first, maxNewTokens: 4 }]);
      const [two] = await llama.generate([{ prompt: second, maxNewTokens: 4 }]);
      const stats = llama.generationStats;
      expect(stats.promptTokens).toBe(one!.promptTokens! + two!.promptTokens!);
      const loaded = await llama.load();
      const [a, b] = [first, second].map((p) => loaded.model.tokenize(p, true).map(Number));
      const shared = a!.findIndex((t, i) => b![i] !== t);
      expect(shared).toBeGreaterThan(loaded.model.tokenize(shots, true).length);
      expect(stats.promptTokensComputed).toBe(one!.promptTokens! + two!.promptTokens! - shared);
      // and the answer is the one a fresh sequence gives
      const fresh = new LlamaProvider(path.join(work, 'plain', 'model.gguf'), { sequences: 1 });
      expect((await fresh.generate([{ prompt: second, maxNewTokens: 4 }]))[0]!.text).toBe(two!.text);
      await fresh.close();
    } finally {
      await llama.close();
    }
  });
});

describe('sampled decoding (temperature, top-p and seed passed to node-llama-cpp)', () => {
  test('same seed, same answer (one at a time or concurrent); seeds differ; temperature 0 and a one-token nucleus are greedy', async () => {
    const gguf = path.join(work, 'plain', 'model.gguf');
    const requests = PROMPTS.slice(0, 4).flatMap((r, i) => [0, 1, 2].map((t) => ({ ...r, temperature: 1.2, seed: 1000 * i + t })));
    const first = new LlamaProvider(gguf);
    const second = new LlamaProvider(gguf);
    try {
      const concurrent = (await first.generate(requests)).map((r) => r.text);
      const oneByOne: string[] = [];
      for (const r of requests) oneByOne.push((await second.generate([r]))[0]!.text);
      expect(oneByOne).toEqual(concurrent);
      // the seed reaches the sampler: three seeds of a prompt do not all agree
      for (let i = 0; i < 4; i++) expect(new Set(concurrent.slice(3 * i, 3 * i + 3)).size).toBeGreaterThan(1);
      const greedy = (await first.generate(PROMPTS)).map((r) => r.text);
      for (const extra of [{ temperature: 0, topP: 0.5, seed: 9 }, { temperature: 1.5, topP: 1e-9, seed: 9 }]) {
        expect((await second.generate(PROMPTS.map((r) => ({ ...r, ...extra })))).map((r) => r.text)).toEqual(greedy);
      }
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe('llama:ollama:<name>[:tag] through a fake Ollama models folder', () => {
  let models: string;
  let digest: string;
  beforeAll(() => {
    models = path.join(work, 'ollama-models');
    const gguf = path.join(work, 'plain', 'model.gguf');
    const hex = createHash('sha256').update(readFileSync(gguf)).digest('hex');
    digest = `sha256:${hex}`;
    mkdirSync(path.join(models, 'blobs'), { recursive: true });
    copyFileSync(gguf, path.join(models, 'blobs', `sha256-${hex}`));
    const manifest = {
      schemaVersion: 2,
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      config: { mediaType: 'application/vnd.docker.container.image.v1+json', digest: `sha256:${'0'.repeat(64)}`, size: 2 },
      layers: [
        { mediaType: 'application/vnd.ollama.image.template', digest: `sha256:${'1'.repeat(64)}`, size: 10 },
        { mediaType: 'application/vnd.ollama.image.model', digest, size: 1 },
      ],
    };
    for (const [name, tag] of [['library/tiny', 'q1'], ['library/tiny', 'latest'], ['someone/tiny', 'latest']] as const) {
      const file = path.join(models, 'manifests', 'registry.ollama.ai', name, tag);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(manifest));
    }
  });

  test('names resolve to the model layer blob; the digest is the revision; it generates like the file itself', async () => {
    const byName = (await createProvider('llama:ollama:tiny:q1', { llama: { ollamaModels: models } })) as LlamaProvider;
    const byFile = new LlamaProvider(path.join(work, 'plain', 'model.gguf'));
    try {
      expect(byName.describe()).toMatchObject({ provider: 'llama', model: 'ollama:tiny:q1', revision: digest });
      expect(byName.source.path).toBe(path.join(models, 'blobs', `sha256-${digest.slice(7)}`));
      expect((await byName.generate([PROMPTS[0]!]))[0]!.text).toBe((await byFile.generate([PROMPTS[0]!]))[0]!.text);
    } finally {
      await byName.close();
      await byFile.close();
    }
    expect(new LlamaProvider('ollama:tiny', { ollamaModels: models }).source.path).toBe(byName.source.path);
    expect(new LlamaProvider('ollama:someone/tiny', { env: { OLLAMA_MODELS: models } }).describe().revision).toBe(digest);
    expect(ollamaManifestPath('/m', 'host.example:5000/ns/model:7b')).toBe(path.join('/m', 'manifests', 'host.example:5000', 'ns', 'model', '7b'));
  });

  test('a model that was not pulled, a missing blob, a bad manifest and a bad name are clear errors', () => {
    const error = (spec: string) => {
      try {
        new LlamaProvider(spec, { ollamaModels: models });
      } catch (e) {
        return e as ProviderError;
      }
      throw new Error(`${spec} did not fail`);
    };
    expect(error('ollama:qwen2.5:0.5b').message).toContain('Ollama model "qwen2.5:0.5b" is not in');
    expect(error('ollama:qwen2.5:0.5b').message).toContain('ollama pull qwen2.5:0.5b');
    expect(error('ollama:../etc:x').kind).toBe('config');
    const broken = path.join(models, 'manifests', 'registry.ollama.ai', 'library', 'broken', 'latest');
    mkdirSync(path.dirname(broken), { recursive: true });
    writeFileSync(broken, JSON.stringify({ layers: [{ mediaType: 'application/vnd.ollama.image.model', digest: 'md5:abc' }] }));
    expect(error('ollama:broken').message).toMatch(/broken[/\\]latest: layers\.0\.digest: a sha256:<64 hex digits> digest/);
    writeFileSync(broken, JSON.stringify({ layers: [{ mediaType: 'application/vnd.ollama.image.model', digest: `sha256:${'2'.repeat(64)}` }] }));
    expect(error('ollama:broken').message).toContain(`is missing: pull the model again with \`ollama pull broken\``);
  });
});

describe('settings', () => {
  test('LOKAL_LLAMA_CONTEXT and LOKAL_LLAMA_THREADS reach the provider; LOKAL_GENERATE_BATCH_SIZE leaves it one sequence', async () => {
    const options = lokalModelOptions({ missing: 'empty', generateBatchSize: 3, llamaContext: 512, llamaThreads: 1 });
    expect(options.llama).toEqual({ contextSize: 512, threads: 1 });
    const provider = (await createProvider(`llama:${path.join(work, 'plain', 'model.gguf')}`, options)) as LlamaProvider;
    expect([provider.sequences, provider.contextSize, provider.threads]).toEqual([1, 512, 1]);
    // the sequence count is in what the cache key and fingerprint hold: several sequences can change greedy answers
    expect(provider.describe().settings).toMatchObject({ contextSize: 512, kvCache: 'F32', decoding: 'greedy', sequences: 1 });
    // a prompt longer than a sequence holds is a clear error, not a silent context shift
    const long = await provider.generate([{ prompt: 'word '.repeat(600) }]).catch((e: unknown) => e as Error);
    expect((long as Error).message).toMatch(/the context holds 512: raise LOKAL_LLAMA_CONTEXT/);
    await provider.close();
  });

  test('by default one sequence, continuing each prompt from the prefix it holds', () => {
    const provider = new LlamaProvider(path.join(work, 'plain', 'model.gguf'));
    expect(provider.sequences).toBe(1);
    expect(provider.describe().settings).toMatchObject({ sequences: 1 });
  });
});

describe('errors', () => {
  test('a missing file, a folder, and a missing node-llama-cpp (one line with the install command)', async () => {
    expect(() => new LlamaProvider(path.join(work, 'nope.gguf'))).toThrow(/GGUF file .*nope\.gguf does not exist/);
    expect(() => new LlamaProvider(path.join(work, 'plain'))).toThrow(/is a folder, not a GGUF file/);
    expect(() => new LlamaProvider(path.join(work, 'plain', 'model.gguf'), { sequences: 0 })).toThrow(/sequences must be a positive integer/);
    const missing = new LlamaProvider(path.join(work, 'plain', 'model.gguf'), {
      importLibrary: () => Promise.reject(Object.assign(new Error("Cannot find package 'node-llama-cpp'"), { code: 'ERR_MODULE_NOT_FOUND' })),
    });
    const error = await missing.generate([{ prompt: 'x' }]).catch((e: unknown) => e as ProviderError);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe(
      '[llama] llama: models need node-llama-cpp, an optional dependency that is not installed; install it with: NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install --save-dev node-llama-cpp@3.21.1',
    );
  });

  test('a file that is not GGUF fails at load, naming the file', async () => {
    const bad = path.join(work, 'bad.gguf');
    writeFileSync(bad, 'not a model');
    const provider = new LlamaProvider(bad);
    // the collection-time probe loads a llama: model, so the run stops there, before any item test
    await expect(probeProvider('llama', provider)).rejects.toThrow(/\[llama\] cannot load .*bad\.gguf: /);
  });
});
