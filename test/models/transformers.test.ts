import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadTinyReferenceModel, type TinyReferenceModel } from '../support/tinyModelReference.ts';
import { writeTinyModel, type TinyModelInfo } from '../support/tinyModel.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';
import { ProviderError, type ChatMessage, type ContinuationRequest } from '../../src/models/types.ts';
import { restoreConcurrentMarking } from '../support/concurrentMarking.ts';

// One tiny model per file (2 layers, hidden 32): generated in ~50 ms, loaded through AutoTokenizer/AutoModelForCausalLM.
const root = mkdtempSync(path.join(tmpdir(), 'lokal-tiny-'));
const dir = path.join(root, 'tiny');
let info: TinyModelInfo;
let ref: TinyReferenceModel;
let provider: TransformersProvider;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let tokenizer: any;

beforeAll(async () => {
  info = writeTinyModel(dir, { seed: 7 });
  ref = loadTinyReferenceModel(dir);
  provider = new TransformersProvider(dir, { env: {}, threads: 1 });
  tokenizer = await AutoTokenizer.from_pretrained(dir);
});
afterAll(async () => {
  await provider?.close();
  rmSync(root, { recursive: true, force: true });
});

const ids = (x: unknown) => (x as Array<number | bigint>).map(Number);
const chatIds = (messages: ChatMessage[], addGenerationPrompt: boolean): number[] =>
  ids(tokenizer.apply_chat_template(messages, { add_generation_prompt: addGenerationPrompt, return_tensor: false, return_dict: false }));
/** P and F token ids computed here with the tokenizer directly (docs/metrics.md#per-answer-score), for the reference network. */
function referenceScore(req: ContinuationRequest): { logprob: number; tokenCount: number } {
  const p = req.messages ? chatIds(req.messages, true) : ids(tokenizer.encode(req.prompt));
  const f = req.messages
    ? chatIds([...req.messages, { role: 'assistant', content: req.continuation }], false)
    : ids(tokenizer.encode(req.prompt! + req.continuation));
  return { logprob: f.length > p.length ? ref.continuationLogprob(f, p.length) : 0, tokenCount: f.length - p.length };
}
const closeTo = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(expected)));

const question: ChatMessage[] = [{ role: 'user', content: 'Ano ang kabisera ng Pilipinas?' }];
const requests: ContinuationRequest[] = [
  { messages: question, continuation: 'Maynila.' },
  { messages: question, continuation: 'Ang kabisera ay Quezon City.' },
  { messages: question, continuation: 'Hindi ko alam, pasensya na po. 😀' },
  { prompt: 'The capital of Italy is', continuation: ' Rome.' },
  { prompt: 'Numeri: 1, 2,', continuation: ' 3, 4 e così via — ünd 日本' },
  { prompt: 'Empty continuation', continuation: '' },
];

describe('tiny model files', () => {
  test('the tokenizer covers any UTF-8 text and round-trips it', () => {
    for (const text of ['plain ASCII', 'Grüße, ß and ñ', '日本語と😀🙂', 'ประเทศไทย', '\u0000\u007f tabs\tand\nnewlines', 'emoji 👩‍👩‍👧 zwj']) {
      const tokens = ids(tokenizer.encode(text));
      expect(tokens.every((t) => t >= 0 && t < info.spec.vocab)).toBe(true);
      expect(tokenizer.decode(tokens)).toBe(text);
    }
    const config = JSON.parse(readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8'));
    expect(config.chat_template).toContain('<|im_start|>');
  });

  test('the ONNX graph has the inputs and outputs transformers.js feeds for llama', () => {
    const model = onnxProto.onnx.ModelProto.decode(readFileSync(path.join(dir, 'onnx', 'model.onnx')));
    const inputs = model.graph!.input!.map((i) => i.name);
    const outputs = model.graph!.output!.map((o) => o.name);
    expect(inputs).toEqual(['input_ids', 'attention_mask', 'position_ids', 'past_key_values.0.key', 'past_key_values.0.value', 'past_key_values.1.key', 'past_key_values.1.value']);
    expect(outputs).toEqual(['logits', 'present.0.key', 'present.0.value', 'present.1.key', 'present.1.value']);
    // only standard ai.onnx ops (default domain) that onnxruntime's CPU provider implements
    const allowed = ['Add', 'And', 'Cast', 'Concat', 'Gather', 'Less', 'MatMul', 'Mul', 'Neg', 'Range', 'Reciprocal', 'ReduceMean', 'Reshape', 'Shape', 'Sigmoid', 'Slice', 'Softmax', 'Sqrt', 'Sub', 'Transpose', 'Unsqueeze', 'Where'];
    for (const node of model.graph!.node!) {
      expect(allowed).toContain(node.opType);
      expect(node.domain ?? '').toBe('');
    }
  });

  test('weights are deterministic in the seed', () => {
    const again = path.join(root, 'again');
    const other = path.join(root, 'other');
    writeTinyModel(again, { seed: 7 });
    writeTinyModel(other, { seed: 8 });
    const bytes = (d: string) => readFileSync(path.join(d, 'onnx', 'model.onnx'));
    expect(bytes(again).equals(bytes(dir))).toBe(true);
    expect(bytes(other).equals(bytes(dir))).toBe(false);
    expect(readFileSync(path.join(again, 'tokenizer.json'), 'utf8')).toBe(readFileSync(path.join(dir, 'tokenizer.json'), 'utf8'));
  });
});

describe('transformers provider: continuation scoring', () => {
  test('log-probabilities equal the float64 TypeScript reference network (1e-6)', async () => {
    const results = await provider.scoreContinuations(requests);
    results.forEach((r, i) => {
      const expected = referenceScore(requests[i]!);
      expect(r.tokenCount).toBe(expected.tokenCount);
      closeTo(r.logprob, expected.logprob);
      expect(r.cached).toBe(false);
    });
    // the scored chat span includes the template's end-of-turn tokens: '<|im_end|>' and '\n'
    expect(results[0]!.tokenCount).toBe(ids(tokenizer.encode('Maynila.')).length + 2);
    expect(results[5]).toMatchObject({ logprob: 0, tokenCount: 0 });
  });

  test('batched (padding + masks) and shared-prefix runs equal one-by-one runs', async () => {
    const single = new TransformersProvider(dir, { env: {}, batchSize: 1, sharePrefix: false, threads: 1 });
    const padded = new TransformersProvider(dir, { env: {}, batchSize: 6, sharePrefix: false, threads: 1 });
    try {
      const oneByOne = [];
      for (const r of requests) oneByOne.push(...(await single.scoreContinuations([r])));
      const batched = await padded.scoreContinuations(requests);
      const shared = await provider.scoreContinuations(requests);
      for (let i = 0; i < requests.length; i++) {
        expect(Math.abs(batched[i]!.logprob - oneByOne[i]!.logprob)).toBeLessThanOrEqual(1e-6);
        expect(Math.abs(shared[i]!.logprob - oneByOne[i]!.logprob)).toBeLessThanOrEqual(1e-6);
        expect(batched[i]!.tokenCount).toBe(oneByOne[i]!.tokenCount);
      }
    } finally {
      await single.close();
      await padded.close();
    }
  });

  test('raises when the prompt is not a token prefix of prompt + continuation', async () => {
    const prompt = 'The answer is ';
    const continuation = 'the capital';
    const p = ids(tokenizer.encode(prompt));
    const f = ids(tokenizer.encode(prompt + continuation));
    expect(p.every((t, i) => f[i] === t)).toBe(false); // precondition: ' ' merges with 'the' in this vocabulary
    await expect(provider.scoreContinuations([{ prompt, continuation }])).rejects.toThrow(/not a prefix .*move trailing whitespace/);
  });
});

describe('transformers provider: continuations batched across prompts', () => {
  const instruction = 'Sagutin ang tanong nang maikli at malinaw, sa isang pangungusap lamang. ';
  const longQuestion: ChatMessage[] = [
    { role: 'user', content: `${instruction}Question: Which river flows through the capital city, how long is it, and which towns does it pass?` },
  ];
  const shortQuestion: ChatMessage[] = [{ role: 'user', content: 'Oo?' }];
  const promptLength = (req: ContinuationRequest) => (req.messages ? chatIds(req.messages, true) : ids(tokenizer.encode(req.prompt))).length;
  const fullLength = (req: ContinuationRequest) => promptLength(req) + referenceScore(req).tokenCount;

  /** Scores requests one at a time (batch 1, no sharing): the baseline every batched layout must reproduce. */
  async function oneByOne(reqs: ContinuationRequest[]) {
    const single = new TransformersProvider(dir, { env: {}, batchSize: 1, sharePrefix: false, threads: 1 });
    try {
      const out = [];
      for (const r of reqs) out.push(...(await single.scoreContinuations([r])));
      return out;
    } finally {
      await single.close();
    }
  }

  async function expectExact(reqs: ContinuationRequest[], results: Array<{ logprob: number; tokenCount: number }>) {
    const baseline = await oneByOne(reqs);
    results.forEach((r, i) => {
      const expected = referenceScore(reqs[i]!);
      expect(r.tokenCount).toBe(expected.tokenCount);
      closeTo(r.logprob, expected.logprob);
      // float32 noise only: the same network, summed in other orders; a leak from a masked slot would be far larger
      expect(Math.abs(r.logprob - baseline[i]!.logprob)).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(expected.logprob)));
    });
  }

  test('rows whose prompts differ by dozens of tokens share one continuation batch without seeing the masked slots', async () => {
    const answers = ['Oo, tama.', 'Oo, tama!'];
    // precondition: equal continuation lengths, so the four rows form one batch with no padding of their own
    expect(new Set(answers.map((a) => referenceScore({ messages: shortQuestion, continuation: a }).tokenCount)).size).toBe(1);
    const reqs = [longQuestion, shortQuestion].flatMap((messages) => answers.map((continuation) => ({ messages, continuation })));
    expect(promptLength(reqs[0]!) - promptLength(reqs[2]!)).toBeGreaterThan(40);
    const p = new TransformersProvider(dir, { env: {}, batchSize: 8, threads: 1 });
    try {
      const results = await p.scoreContinuations(reqs);
      // two prompt runs (too different in length to pad together) + one run of all four continuations
      expect(p.scoringStats.forwardCalls).toBe(3);
      expect(p.scoringStats.tokens).toBe(promptLength(reqs[0]!) + promptLength(reqs[2]!) + reqs.reduce((s, r) => s + referenceScore(r).tokenCount, 0));
      await expectExact(reqs, results);
    } finally {
      await p.close();
    }
  });

  test('a graph without position ids never gets a padded cache: only prompts of equal length share a batch', async () => {
    const answers = ['Oo, tama.', 'Oo, tama!'];
    const reqs = [longQuestion, shortQuestion].flatMap((messages) => answers.map((continuation) => ({ messages, continuation })));
    const p = new TransformersProvider(dir, { env: {}, batchSize: 8, threads: 1 });
    try {
      const loaded = await p.load();
      expect(loaded.padPast).toBe(true); // precondition: the tiny graph takes position_ids
      loaded.padPast = false;
      const results = await p.scoreContinuations(reqs);
      // two prompt runs + one continuation run per prompt length (the padded layout needs one: see the test above)
      expect(p.scoringStats.forwardCalls).toBe(4);
      expect(p.scoringStats.paddedTokens).toBe(p.scoringStats.tokens);
      await expectExact(reqs, results);
    } finally {
      await p.close();
    }
  });

  test('mixed prompts (common instruction, lone prompt, one-token continuation) equal one-by-one and the reference', async () => {
    const oneToken = [' a', ' A', '.', '!', '?', ' 1'].find((c) => referenceScore({ prompt: `${instruction}Sagot:`, continuation: c }).tokenCount === 1);
    expect(oneToken).toBeDefined();
    const reqs: ContinuationRequest[] = [
      { prompt: `${instruction}Sagot:`, continuation: oneToken! },
      { prompt: `${instruction}Sagot:`, continuation: ' Maynila, ang kabisera.' },
      { prompt: `${instruction}Ano ang kabisera ng Pilipinas? Sagot:`, continuation: oneToken! },
      { prompt: `${instruction}Ano ang kabisera ng Pilipinas? Sagot:`, continuation: ' Maynila.' },
      { prompt: `${instruction}Ano ang kabisera ng Pilipinas? Sagot:`, continuation: ' Quezon City, dati.' },
      { prompt: `${instruction}Ano ang pinakamahabang ilog sa buong bansa, at gaano ito kahaba? Sagot:`, continuation: ' Ang Cagayan.' },
      { prompt: `${instruction}Ano ang pinakamahabang ilog sa buong bansa, at gaano ito kahaba? Sagot:`, continuation: oneToken! },
      { prompt: 'A lone prompt:', continuation: ' scored whole.' },
      { prompt: `${instruction}Sagot:`, continuation: '' },
    ];
    const prompts = [0, 2, 5].map((i) => ids(tokenizer.encode(reqs[i]!.prompt)));
    let common = 0;
    while (prompts.every((q) => q[common] === prompts[0]![common])) common++;
    expect(common).toBeGreaterThan(16); // precondition: long enough to be run once for all three prompts
    for (const batchSize of [2, 3, 16]) {
      const p = new TransformersProvider(dir, { env: {}, batchSize, threads: 1 });
      try {
        const results = await p.scoreContinuations(reqs);
        // the common prefix once, each prompt's own tokens once, every continuation, and the lone request whole
        const shared = reqs.slice(0, 7).reduce((s, r) => s + referenceScore(r).tokenCount, 0);
        expect(p.scoringStats.tokens).toBe(common + prompts.reduce((s, q) => s + q.length - common, 0) + shared + fullLength(reqs[7]!));
        expect(results[8]).toMatchObject({ logprob: 0, tokenCount: 0 });
        await expectExact(reqs, results);
      } finally {
        await p.close();
      }
    }
  });

  test('calls waiting for the model run as one: each gets its own results, a bad call fails alone, fewer passes', async () => {
    const questions: ChatMessage[][] = ['Ano ang kabisera ng Pilipinas?', 'Saan dumadaloy ang Ilog Pasig?', 'Sino si Rizal?'].map((content) => [
      { role: 'user', content },
    ]);
    const calls = questions.map((messages) => ['Oo.', 'Hindi, sa tingin ko ay hindi.', 'Maynila.'].map((continuation) => ({ messages, continuation })));
    const bad = [{ continuation: 'neither prompt nor messages' } as ContinuationRequest];
    const together = new TransformersProvider(dir, { env: {}, batchSize: 16, threads: 1 });
    const apart = new TransformersProvider(dir, { env: {}, batchSize: 16, threads: 1 });
    try {
      await together.load();
      // made in one tick, as concurrent tests do: all four wait for the model together
      const settled = await Promise.allSettled([calls[0]!, bad, calls[1]!, calls[2]!].map((reqs) => together.scoreContinuations(reqs)));
      const failure = settled[1]!;
      expect(failure.status).toBe('rejected');
      expect((failure as PromiseRejectedResult).reason).toBeInstanceOf(ProviderError);
      expect(String((failure as PromiseRejectedResult).reason.message)).toMatch(/exactly one of prompt and messages/);
      for (const [k, i] of [[0, 0], [1, 2], [2, 3]] as const) {
        expect(settled[i]!.status).toBe('fulfilled');
        await expectExact(calls[k]!, (settled[i] as PromiseFulfilledResult<Array<{ logprob: number; tokenCount: number }>>).value);
      }
      for (const reqs of calls) await apart.scoreContinuations(reqs);
      // apart: each call runs its prompt and its continuations; together: prompts batched, continuations across prompts
      expect(together.scoringStats.forwardCalls).toBeLessThan(apart.scoringStats.forwardCalls);
      expect(together.scoringStats.tokens).toBeLessThanOrEqual(apart.scoringStats.tokens);
    } finally {
      await together.close();
      await apart.close();
    }
  });

  test('the transformers.js forward path (models whose session takes other inputs) gives the same numbers', async () => {
    const reqs = [longQuestion, shortQuestion].flatMap((messages) => ['Oo.', 'Hindi, sa tingin ko ay hindi.'].map((continuation) => ({ messages, continuation })));
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    try {
      const loaded = await p.load();
      expect(loaded.logitsSession).toBeDefined(); // precondition: the tiny model takes the direct path by default
      loaded.logitsSession = undefined;
      await expectExact(reqs, await p.scoreContinuations(reqs));
    } finally {
      await p.close();
    }
  });
});

describe('transformers provider: generation', () => {
  test('greedy decoding equals the argmax of the reference network, step by step', async () => {
    const steps = 12;
    const cases = [{ messages: question }, { prompt: 'Question: What is 2 + 2?\nAnswer:' }];
    for (const c of cases) {
      const promptIds = c.messages ? chatIds(c.messages, true) : ids(tokenizer.encode(c.prompt));
      const expected = ref.greedy(promptIds, steps, [info.specialIds['<|im_end|>'], info.specialIds['<|endoftext|>']]);
      // precondition: no near-ties, so float32 vs float64 cannot flip an argmax
      expect(Math.min(...expected.margins)).toBeGreaterThan(1e-4);
      const tokens = expected.tokens.filter((t) => t !== info.specialIds['<|im_end|>'] && t !== info.specialIds['<|endoftext|>']);
      const [r] = await provider.generate([{ ...c, maxNewTokens: steps }]);
      expect(r!.text).toBe(tokenizer.decode(tokens, { skip_special_tokens: true }));
      const [again] = await provider.generate([{ ...c, maxNewTokens: steps }]);
      expect(again!.text).toBe(r!.text);
    }
  });

  test('maxLength counts the prompt; stop strings cut the text', async () => {
    const promptIds = chatIds(question, true);
    const expected = ref.greedy(promptIds, 3).tokens;
    const [r] = await provider.generate([{ messages: question, maxLength: promptIds.length + 3 }]);
    expect(r!.text).toBe(tokenizer.decode(expected, { skip_special_tokens: true }));

    const [full] = await provider.generate([{ messages: question, maxNewTokens: 16 }]);
    const chars = [...full!.text];
    const stop = chars.slice(4, 6).join('');
    const [cut] = await provider.generate([{ messages: question, maxNewTokens: 16, stop: [stop, 'zzzz-not-there'] }]);
    expect(cut!.text).toBe(full!.text.slice(0, full!.text.indexOf(stop)));
  });

  test('describe() names the model, a content fingerprint as revision, and the settings', () => {
    const d = provider.describe();
    expect(d).toMatchObject({ provider: 'transformers', model: dir, settings: { dtype: 'fp32', decoding: 'greedy' } });
    expect(d.revision).toMatch(/^local-[0-9a-f]{16}$/);
  });
});

describe('transformers provider: locating models offline', () => {
  const catchError = async (work: () => Promise<unknown> | unknown): Promise<ProviderError> => {
    try {
      await work();
    } catch (error) {
      expect(error).toBeInstanceOf(ProviderError);
      return error as ProviderError;
    }
    throw new Error('expected a ProviderError');
  };

  test('a missing local folder is a clear not-found error', async () => {
    const e = await catchError(() => new TransformersProvider('./no/such/model-folder', { env: {} }));
    expect(e.kind).toBe('not-found');
    expect(e.message).toMatch(/model folder "\.\/no\/such\/model-folder" does not exist/);
  });

  test('a Hub id that is neither local nor downloadable names where it looked and how to fix it', async () => {
    const cacheDir = path.join(root, 'hf-cache');
    mkdirSync(cacheDir, { recursive: true });
    const p = new TransformersProvider('someone/not-downloaded-model', { env: {}, allowRemote: false, cacheDir, modelDir: root });
    const e = await catchError(() => p.generate([{ prompt: 'x' }]));
    expect(e.kind).toBe('not-found');
    expect(e.message).toContain('"someone/not-downloaded-model"');
    expect(e.message).toContain(`LOKAL_MODEL_DIR=${root}/someone/not-downloaded-model`);
    expect(e.message).toMatch(/downloads are disabled/);
    expect(e.message).not.toMatch(/\n\s+at /);
  });

  test('LOKAL_MODEL_DIR holds models by name', () => {
    const p = new TransformersProvider('tiny', { env: { LOKAL_MODEL_DIR: root } });
    expect(p.source).toEqual({ kind: 'local', path: dir });
  });
});

describe('onnxruntime threads', () => {
  test('weights under 64 MiB run on one thread unless threads are given; threads change no answer', async () => {
    const request = { prompt: 'Q: capital of Italy?\nA:', maxNewTokens: 5 };
    const byDefault = new TransformersProvider(dir, { env: {} });
    const two = new TransformersProvider(dir, { env: {}, threads: 2 });
    try {
      const [a] = await byDefault.generate([request]);
      const [b] = await two.generate([request]);
      expect(byDefault.threads).toBe(1);
      expect(two.threads).toBe(2);
      expect(b!.text).toBe(a!.text);
      // V8's concurrent marking (concurrentMarking.ts): stopped only when the threads take every CPU of this machine
      const cpus = availableParallelism();
      expect(byDefault.concurrentMarking).toBe(cpus > 1 ? 'kept: cores to spare' : 'stopped');
      expect(two.concurrentMarking).toBe(cpus > 2 ? 'kept: cores to spare' : 'stopped');
    } finally {
      restoreConcurrentMarking(two);
      await byDefault.close();
      await two.close();
    }
  });
});

describe('an answer that ends at once', () => {
  test('end-of-sequence as the first generated token is an empty answer, batched and one row at a time', async () => {
    const request = { prompt: 'Q: capital of Italy?\nA:', maxNewTokens: 4 };
    const [first] = await provider.generate([{ ...request, maxNewTokens: 1 }]);
    // a copy of the model whose end-of-sequence token is the one it answers first
    const ending = path.join(root, 'ends-at-once');
    cpSync(dir, ending, { recursive: true });
    const firstId = ids(tokenizer.encode(first!.text, { add_special_tokens: false }))[0]!;
    const generation = JSON.parse(readFileSync(path.join(dir, 'generation_config.json'), 'utf8'));
    writeFileSync(path.join(ending, 'generation_config.json'), JSON.stringify({ ...generation, eos_token_id: firstId }));
    for (const options of [{ generateBatchSize: 8 }, { generateBatchSize: 1, sharePrefix: false }]) {
      const p = new TransformersProvider(ending, { env: {}, threads: 1, ...options });
      try {
        const [greedy] = await p.generate([request]);
        expect(greedy!.text).toBe('');
        expect(greedy!.outputTokens).toBe(1);
      } finally {
        await p.close();
      }
    }
  });
});
