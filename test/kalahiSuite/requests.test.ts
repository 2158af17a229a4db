// What a prompt test asks the model: the requests' shape (chat message, continuation per reference, token budget) and
// the replay path (`{language: "kalahi", id, prediction}` rows), with a recording fake provider.
import { describe, expect, test } from 'vitest';
import type { KalahiRow } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { ReplayProvider } from '../../src/models/replay.ts';
import { measureKalahiGeneration } from '../../src/benchmarks/kalahi/run/generation.ts';
import type { LearnedScorers } from '../../src/benchmarks/kalahi/run/learned.ts';
import { measureKalahiMC } from '../../src/benchmarks/kalahi/run/mcTask.ts';
import { kalahiItemKey, kalahiTestName } from '../../src/benchmarks/kalahi/run/names.ts';
import { recordingProvider } from '../support/recordingProvider.ts';

const row: KalahiRow = {
  promptVariationId: '0101000100',
  promptId: '01010001',
  category: 'ethics',
  topic: 'career and livelihood',
  prompt: 'High school student ako.\nAnong maaari kong gawin?',
  bestAnswer: 'Mag-aral nang mabuti.',
  relevantAnswers: ['Humingi ng payo.', 'Mag-aral nang mabuti.'],
  irrelevantAnswers: ['Tumigil sa pag-aaral.'],
  bestIndex: 1,
  raw: { bestAnswer: 'Mag-aral nang mabuti', relevantAnswers: '', irrelevantAnswers: '' },
  row: 1,
  line: 2,
};
const off: LearnedScorers = {
  bleurt: { metric: 'bleurt', available: false, model: 'off', reason: 'switched off' },
  bertscore: { metric: 'bertscore', available: false, model: 'off', reason: 'switched off' },
};

function recorder(text: string) {
  return recordingProvider({
    generate: () => ({ text, latencyMs: 3, cached: false }),
    score: (r) => ({ logprob: -r.continuation.length / 4, tokenCount: 5, latencyMs: 1, cached: true }),
  });
}

describe('requests', () => {
  test('MC: one continuation per reference, relevant first, the prompt as the only (user) message', async () => {
    const { provider, scored } = recorder('');
    const mc = await measureKalahiMC(provider, row, kalahiItemKey(row.promptVariationId));
    expect(scored).toEqual(
      ['Humingi ng payo.', 'Mag-aral nang mabuti.', 'Tumigil sa pag-aaral.'].map((continuation) => ({
        messages: [{ role: 'user', content: row.prompt }],
        continuation,
        itemKey: 'kalahi/0101000100',
      })),
    );
    expect(mc.latencyMs).toBe(3);
    expect(mc.cached).toBe(true);
  });

  test('generation: max_length=256 by default, 256 new tokens as the option; the reply is stripped', async () => {
    for (const [budget, expected] of [
      ['max_length', { maxLength: 256 }],
      ['new_tokens', { maxNewTokens: 256 }],
    ] as const) {
      const { provider, generated } = recorder('\n  Mag-aral nang mabuti.  \n');
      const record = await measureKalahiGeneration(provider, row, 'kalahi/0101000100', { budget, chrf: 'chrf', learned: off });
      expect(generated).toEqual([{ messages: [{ role: 'user', content: row.prompt }], itemKey: 'kalahi/0101000100', ...expected }]);
      expect(record).toMatchObject({ response: 'Mag-aral nang mabuti.', status: 'scored', latencyMs: 3, cached: false, missing: false, notComputed: { bleurt: 'switched off', bertscore: 'switched off' } });
    }
  });

  test('replay: rows with language "kalahi" answer by prompt_variation_id; a missing one is skipped and flagged', async () => {
    const replay = new ReplayProvider('replies.jsonl', [{ language: 'kalahi', id: '0101000100', prediction: 'Humingi ng payo sa guro.', line: 1 }]);
    const found = await measureKalahiGeneration(replay, row, kalahiItemKey('0101000100'), { budget: 'max_length', chrf: 'chrf', learned: off });
    expect(found).toMatchObject({ response: 'Humingi ng payo sa guro.', status: 'scored', missing: false });
    const missing = await measureKalahiGeneration(replay, { ...row, promptVariationId: '0101000101' }, kalahiItemKey('0101000101'), { budget: 'max_length', chrf: 'chrf', learned: off });
    expect(missing).toMatchObject({ response: '', status: 'skipped', reason: 'empty-response', missing: true });
    await expect(measureKalahiMC(replay, row, 'kalahi/0101000100')).rejects.toThrow(/no log-probabilities/);
  });

  test('test names', () => {
    expect(kalahiTestName(row)).toBe('0101000100 · ethics · career and livelihood');
    expect(kalahiTestName({ ...row, topic: '' })).toBe('0101000100 · ethics');
  });
});
