// The provider table: each kind's provider string parses, a bad one is refused with the message users see, and each
// kind's traits are the ones src/models/README.md documents.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { PROVIDER_KINDS, splitModelList } from '../../src/core/modelList.ts';
import { createProvider, ProviderError } from '../../src/models/index.ts';
import { openLokalModel } from '../../src/models/open.ts';
import { LLAMA_PEER, TRANSFORMERS_PEER } from '../../src/models/optionalPeer.ts';
import { answerFile, parseProviderSpec, PROVIDERS, providerRow, specRow, type ProviderTraits } from '../../src/models/providers.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-providers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The forms as error messages list them, written out by hand. */
const FORMS = 'replay:<predictions .jsonl|.csv>, transformers:<model id or path>, llama:<path to .gguf | ollama:name[:tag]>, openai:<model>';

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('spec forms', () => {
  test.each([
    ['replay:runs/a,b.jsonl', 'replay', 'runs/a,b.jsonl'],
    ['transformers:onnx-community/Qwen2.5-0.5B-Instruct', 'transformers', 'onnx-community/Qwen2.5-0.5B-Instruct'],
    ['llama:ollama:qwen2.5:0.5b', 'llama', 'ollama:qwen2.5:0.5b'],
    [' openai:llama3:8b ', 'openai', 'llama3:8b'],
  ])('%s parses to its kind and target, and its row', (spec, kind, target) => {
    expect(parseProviderSpec(spec)).toEqual({ kind, target });
    expect(providerRow(kind)?.kind).toBe(kind);
    expect(specRow(spec.trim())?.kind).toBe(kind);
  });

  test.each(['replay:', 'transformers:', 'llama:', 'openai: ', 'gpt-4', ':model'])('%j is not a provider string, with every form listed', (spec) => {
    expect(() => parseProviderSpec(spec)).toThrow(`model ${JSON.stringify(spec)} is not a provider string; expected one of ${FORMS}`);
  });

  test('an unknown kind is refused when built; its row is undefined', async () => {
    const error = await rejection(createProvider('bogus:x'));
    expect(error.kind).toBe('config');
    expect(error.message).toBe(`[lokal] unknown provider "bogus" in "bogus:x"; expected one of ${FORMS}`);
    expect(providerRow('bogus')).toBeUndefined();
    expect(providerRow('toString')).toBeUndefined();
    expect(specRow('bogus:x')).toBeUndefined();
    // the prefix as written: a leading space or another case is no provider's
    expect(specRow(' replay:a.jsonl')).toBeUndefined();
    expect(specRow('Replay:a.jsonl')).toBeUndefined();
  });

  test("each kind's loader refuses a target it cannot use, with the provider's own message", async () => {
    const replay = await rejection(createProvider(`replay:${path.join(dir, 'absent.jsonl')}`));
    expect([replay.kind, replay.message]).toEqual(['not-found', expect.stringMatching(/absent\.jsonl: cannot read predictions file \(ENOENT\)/u)]);
    const gguf = path.join(dir, 'absent.gguf');
    const llama = await rejection(createProvider(`llama:${gguf}`));
    expect(llama.message).toBe(`[llama] GGUF file ${gguf} does not exist (llama:<path to .gguf> or llama:ollama:<name>[:tag])`);
    const ollama = await rejection(createProvider('llama:ollama:no such name'));
    expect(ollama.message).toBe('[llama] "no such name" is not an Ollama model name (name, name:tag, namespace/name:tag or host/namespace/name:tag)');
    const folder = path.join(dir, 'no', 'model here');
    const transformers = await rejection(createProvider(`transformers:${folder}`));
    expect(transformers.message).toMatch(/^\[transformers\] model folder ".*model here" does not exist .* not a Hugging Face model id of the form owner\/name$/u);
  });

  test('the predictions file of a replay spec, as written; none for other kinds', () => {
    expect(answerFile('replay:runs/a,b.jsonl')).toBe('runs/a,b.jsonl');
    expect(answerFile('replay:C:\\runs\\a.csv')).toBe('C:\\runs\\a.csv');
    expect(answerFile('openai:replay:x')).toBeUndefined();
    expect(answerFile('transformers:replay')).toBeUndefined();
  });
});

describe('the table', () => {
  test('one row per kind the model list knows, in the order the forms are listed; each kind starts a new model after a comma', () => {
    expect(PROVIDERS.map((row) => row.kind)).toEqual(['replay', 'transformers', 'llama', 'openai']);
    expect(PROVIDERS.map((row) => row.kind)).toEqual([...PROVIDER_KINDS]);
    for (const row of PROVIDERS) {
      expect(row.form.startsWith(`${row.kind}:<`), row.form).toBe(true);
      expect(splitModelList(`replay:a,b.jsonl,${row.kind}:x`)).toEqual(['replay:a,b.jsonl', `${row.kind}:x`]);
    }
  });

  // As src/models/README.md's table says.
  const documented: Record<string, ProviderTraits> = {
    replay: { answersFromFile: true, runsInProcess: false, needsServer: false, cachedByDefault: false, alwaysChat: false },
    transformers: { answersFromFile: false, runsInProcess: true, needsServer: false, cachedByDefault: true, alwaysChat: false, peer: TRANSFORMERS_PEER },
    llama: { answersFromFile: false, runsInProcess: true, needsServer: false, cachedByDefault: true, alwaysChat: false, peer: LLAMA_PEER },
    openai: { answersFromFile: false, runsInProcess: false, needsServer: true, cachedByDefault: true, alwaysChat: true },
  };

  test.each(Object.keys(documented))('%s has the documented traits', (kind) => {
    // (load and tokenizerFolder are what a row does, not what it is)
    const { kind: _, form: __, load: ___, tokenizerFolder: ____, ...traits } = providerRow(kind)!;
    expect(traits).toEqual(documented[kind]);
  });

  test('where a model\'s tokenizer files are on disk: a transformers: folder as given or under LOKAL_MODEL_DIR, a Hub id in the download cache; no other kind reads one', async () => {
    const row = providerRow('transformers')!;
    const models = mkdtempSync(path.join(dir, 'models-'));
    mkdirSync(path.join(models, 'owner', 'name'), { recursive: true });
    expect(await row.tokenizerFolder!(path.join(models, 'owner', 'name'), {})).toEqual({ folder: path.join(models, 'owner', 'name') });
    expect(await row.tokenizerFolder!('owner/name', { LOKAL_MODEL_DIR: models })).toEqual({ folder: path.join(models, 'owner', 'name') });
    // the same id as a Hub model: found in the cache only with its tokenizer.json
    const cache = mkdtempSync(path.join(dir, 'cache-'));
    expect(await row.tokenizerFolder!('owner/name', { LOKAL_MODEL_CACHE: cache })).toEqual({ missing: `owner/name is not in the download cache (no ${path.join(cache, 'owner', 'name', 'tokenizer.json')}; LOKAL_MODEL_CACHE sets the cache)` });
    mkdirSync(path.join(cache, 'owner', 'name'), { recursive: true });
    writeFileSync(path.join(cache, 'owner', 'name', 'tokenizer.json'), '{}');
    expect(await row.tokenizerFolder!('owner/name', { LOKAL_MODEL_CACHE: cache })).toEqual({ folder: path.join(cache, 'owner', 'name') });
    expect((await row.tokenizerFolder!('./no such folder', {})) as { missing: string }).toHaveProperty('missing', expect.stringContaining('model folder "./no such folder" does not exist'));
    expect(['replay', 'llama', 'openai'].map((kind) => providerRow(kind)!.tokenizerFolder)).toEqual([undefined, undefined, undefined]);
  });

  test('a built model carries its row: a replay model is not cached; an openai model is, and takes chat messages', async () => {
    const file = path.join(dir, 'p.jsonl');
    writeFileSync(file, '{"language": "italian", "id": 1, "prediction": "Roma"}\n');
    const cache = { mode: 'readwrite' as const, file: path.join(dir, 'cache.jsonl') };
    const replay = await openLokalModel(`replay:${file}`, { cache });
    expect([replay.kind, replay.row.kind, replay.provider === replay.inner]).toEqual(['replay', 'replay', true]);
    const served = await openLokalModel('openai:m', { cache, openai: { baseUrl: 'http://127.0.0.1:9/v1' } });
    expect([served.kind, served.row.kind, served.provider === served.inner]).toEqual(['openai', 'openai', false]);
    expect(await served.chat()).toBe(true);
    expect(await replay.chat()).toBe(false);
  });
});
