import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createProvider, parseProviderSpec } from '../../src/models/index.ts';
import { ReplayProvider, replayKey } from '../../src/models/replay.ts';
import { ProviderError } from '../../src/models/types.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const jsonl = path.join(dir, 'p.jsonl');
writeFileSync(
  jsonl,
  [
    { language: 'italian', id: '001_roma.txt', prediction: 'Roma' },
    { language: 'italian', id: 12, prediction: 'dodici' },
    { language: 'italian_translated_human_english', id: '001_roma.txt', prediction: 'Rome' },
    { language: 'italian', id: '001_roma.txt', prediction: 'Roma, Italia' },
    { language: 'kalahi', id: 'p-3', prediction: 'Oo.' },
  ].map((r) => JSON.stringify(r)).join('\n') + '\n',
);
const csv = path.join(dir, 'p.csv');
writeFileSync(csv, 'language,id,prediction\nfrench,7,"Paris, France"\n');

async function ask(provider: ReplayProvider, itemKey?: string) {
  return (await provider.generate([{ prompt: 'q', itemKey }]))[0]!;
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('replay provider', () => {
  test('answers by item key; the last row of a repeated key wins', async () => {
    const provider = await ReplayProvider.fromFile(jsonl);
    expect(await ask(provider, 'multiloko/italian/001_roma.txt')).toEqual({ text: 'Roma, Italia', latencyMs: 0, cached: false, missing: false });
    expect((await ask(provider, 'multiloko/italian_translated_human_english/001_roma.txt')).text).toBe('Rome');
    expect((await ask(provider, 'multiloko/italian/12')).text).toBe('dodici');
    expect((await ask(provider, 'kalahi/p-3')).text).toBe('Oo.');
    expect(provider.describe()).toEqual({ provider: 'replay', model: jsonl, settings: { onMissing: 'empty', answers: 4 } });
  });

  test('CSV ids are strings; keys compare ids as strings, so numeric dataset ids line up', async () => {
    const provider = await ReplayProvider.fromFile(csv);
    expect((await ask(provider, 'multiloko/french/7')).text).toBe('Paris, France');
    expect(replayKey({ language: 'french', id: 7 })).toBe(replayKey({ language: 'french', id: '7' }));
  });

  test('a missing answer is the empty string, flagged — or a not-found error', async () => {
    expect(await ask(await ReplayProvider.fromFile(jsonl), 'multiloko/italian/nope')).toEqual({ text: '', latencyMs: 0, cached: false, missing: true });
    const strict = await ReplayProvider.fromFile(jsonl, { onMissing: 'fail' });
    const error = await rejection(ask(strict, 'multiloko/italian/nope'));
    expect(error.kind).toBe('not-found');
    expect(error.message).toBe(`[replay] ${jsonl} has no prediction for multiloko/italian/nope (a row {language, id, prediction})`);
  });

  test('requests without an item key and log-probabilities are refused', async () => {
    const provider = await ReplayProvider.fromFile(jsonl);
    expect((await rejection(ask(provider, undefined))).kind).toBe('config');
    expect((await rejection(provider.scoreContinuations([{ prompt: 'q', continuation: 'a' }]))).kind).toBe('unsupported');
  });
});

describe('createProvider', () => {
  test('replay:<file> builds a replay provider; a colon in the path is kept', async () => {
    const provider = await createProvider(`replay:${jsonl}`);
    expect(provider).toBeInstanceOf(ReplayProvider);
    expect(parseProviderSpec('openai:llama3:8b')).toEqual({ kind: 'openai', target: 'llama3:8b' });
  });

  test('bad provider strings and unreadable files are config / not-found errors', async () => {
    expect(() => parseProviderSpec('replay:')).toThrow(/is not a provider string; expected one of replay:<predictions \.jsonl\|\.csv>/);
    expect(() => parseProviderSpec('gpt-4')).toThrow(ProviderError);
    const unknown = await rejection(createProvider('bogus:x'));
    expect(unknown.kind).toBe('config');
    expect(unknown.message).toMatch(/unknown provider "bogus"/);
    const missingFile = await rejection(createProvider(`replay:${path.join(dir, 'absent.jsonl')}`));
    expect(missingFile.kind).toBe('not-found');
    expect(missingFile.message).toMatch(/absent\.jsonl: cannot read predictions file \(ENOENT\)/);
  });
});
