// A redacted run's report against an unredacted baseline: redactedBaseline hashes every text of the baseline the
// report could show (MultiLoKo's questions, targets, outputs and prompts; Kalahi's topics, prompts, answers and
// replies), keeps a redacted baseline's hashes as they are, and leaves the figures alone.
import { describe, expect, test } from 'vitest';
import { redactedText } from '../../src/core/redact.ts';
import { renderHtmlReport } from '../../src/report/html.ts';
import { stepSummaryMarkdown } from '../../src/report/markdown.ts';
import { redactedBaseline } from '../../src/report/redactResults.ts';
import type { KalahiResultsJson } from '../../src/benchmarks/kalahi/resultsSchema.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { SECTIONS } from './sections.ts';

// Words that occur nowhere else, so a hit can only be the baseline's text.
const WORDS = ['Zorvexa', 'Quillonde', 'Plumbrikt', 'Vextrano', 'Gravulon', 'Snorquel', 'Tiwzapel', 'Jumplork'];
const word = (i: number, what: string) => `${WORDS[i % WORDS.length]} ${what} ${i}`;

/** Eight items; `right(i)` gives EM; texts as words, or their hashes when `hashed`. */
function multiloko(right: (i: number) => boolean, hashed: boolean): MultiLoKoResultsJson {
  const t = (s: string) => (hashed ? redactedText(s) : s);
  const items: Record<string, unknown> = {};
  const texts: Record<string, unknown> = {};
  for (let i = 0; i < 8; i++) {
    items[`q${i}`] = { em: right(i) ? 1 : 0, f1: right(i) ? 1 : 0, targets: [t(word(i, 'target'))], prediction: t(word(i, 'prediction')), model_input: hashed ? { sha256: '0'.repeat(64) } : { messages: [{ role: 'user', content: word(i, 'prompt') }] } };
    texts[`q${i}`] = { question: t(word(i, 'question')), raw_prediction: t(word(i, 'raw')), answer: t(word(i, 'answer')) };
  }
  const em = [...Array(8).keys()].filter(right).length / 8;
  return {
    italian: { ...items, em },
    lokal: { items: { italian: texts } },
    summary: { model: 'replay:x', baseline: { flips: { italian: { worse: [{ id: 'q0', baseline: t(word(0, 'earlier')), current: t(word(0, 'prediction')) }], better: [] } } } },
  };
}

function kalahi(right: (i: number) => boolean, hashed: boolean): KalahiResultsJson {
  const t = (s: string) => (hashed ? redactedText(s) : s);
  const records = [...Array(8).keys()].map((i) => ({
    suite: 'full',
    promptVariationId: `v${i}`,
    promptId: `p${i}`,
    category: 'ethics',
    topic: t(word(i, 'topic')),
    prompt: t(word(i, 'kprompt')),
    mc: {
      normalised: { mc1: right(i) ? 1 : 0, mc2: 0.5, mc2_normalised: 0.5, mc3: 0.5 },
      preferred: { kind: right(i) ? 'relevant' : 'irrelevant', index: 0, text: t(word(i, 'preferred')), best: right(i) },
      references: [{ kind: 'relevant', index: 0, text: t(word(i, 'reference')), best: true, logprob: -1, score: 0.5 }],
      modelInput: hashed ? { sha256: '0'.repeat(64) } : { text: word(i, 'mcprompt') },
    },
    generation: { response: t(word(i, 'reply')), status: 'scored', metrics: {} },
  }));
  return { benchmark: 'kalahi', variants: { full: { model: 'replay:x', tasks: ['mc', 'generation'], records } }, baseline: { flips: { full: { worse: [{ promptVariationId: 'v0', baseline: t(word(0, 'kearlier')), current: t(word(0, 'preferred')) }], better: [] } } } } as KalahiResultsJson;
}

const leaked = (text: string) => WORDS.filter((w) => text.includes(w));

describe('redactedBaseline', () => {
  // This run: redacted, the odd items right; the baseline: unredacted, the even items right (every item flips).
  const run = { benchmarks: { multiloko: multiloko((i) => i % 2 === 1, true), kalahi: kalahi((i) => i % 2 === 1, true) } };
  const baseline = { benchmarks: { multiloko: multiloko((i) => i % 2 === 0, false), kalahi: kalahi((i) => i % 2 === 0, false) } };

  test('the report and the step summary show none of an unredacted baseline\'s texts; without it they do', async () => {
    const shown = await renderHtmlReport({ ...run, baseline: redactedBaseline(baseline, SECTIONS) }, SECTIONS);
    expect(shown).toContain('compared with a baseline run');
    expect(leaked(shown)).toEqual([]);
    expect(leaked(stepSummaryMarkdown({ ...run, baseline: redactedBaseline(baseline, SECTIONS) }, SECTIONS))).toEqual([]);
    // The baseline's answer is there as its hash, the one a redacted run of it would have written.
    expect(shown).toContain(redactedText(word(0, 'raw')));
    expect(shown).toContain(redactedText(word(0, 'preferred')));
    // The control: the same report from the baseline as it is quotes it.
    expect(leaked(await renderHtmlReport({ ...run, baseline }, SECTIONS))).not.toEqual([]);
  });

  test('every text of the baseline file is hashed, a hash stays as it is, figures and ids are kept', () => {
    const redacted = redactedBaseline(baseline, SECTIONS);
    const own = redacted.benchmarks as { multiloko: MultiLoKoResultsJson; kalahi: KalahiResultsJson };
    expect(leaked(JSON.stringify(redacted))).toEqual([]);
    const item = (own.multiloko.italian as Record<string, Record<string, unknown>>).q0!;
    expect(item).toMatchObject({ em: 1, f1: 1, targets: [redactedText(word(0, 'target'))], prediction: redactedText(word(0, 'prediction')) });
    expect(item.model_input).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/u) });
    expect(own.kalahi.variants!.full!.records![0]!.mc!.normalised).toEqual(baseline.benchmarks.kalahi.variants!.full!.records![0]!.mc!.normalised);
    // A redacted baseline is its own redaction; the input is not changed.
    const again = redactedBaseline(run, SECTIONS);
    expect(again).toEqual(run);
    expect(leaked(JSON.stringify(baseline))).toHaveLength(WORDS.length);
  });

  test('a Kalahi baseline with trials: the options shown and every trial\'s reply are hashed as a redacted run hashes its own', () => {
    const withTrials = kalahi((i) => i % 2 === 0, false);
    for (const [i, record] of withTrials.variants!.full!.records!.entries()) {
      const r = record as Record<string, Record<string, unknown>>;
      r.mc!.trials = { asked: 2, options: [{ kind: 'relevant', index: 0, text: word(i, 'option'), best: true }], trials: [0, 1].map((t) => ({ trial: t, response: word(i, `letter${t}`), mc1: 1 })) };
      r.generation!.trials = { asked: 2, scored: 2, majority: word(i, 'reply0'), trials: [0, 1].map((t) => ({ trial: t, response: word(i, `reply${t}`), status: 'scored', metrics: {} })) };
    }
    const redacted = redactedBaseline({ benchmarks: { kalahi: withTrials } }, SECTIONS);
    expect(leaked(JSON.stringify(redacted))).toEqual([]);
    const record = (redacted.benchmarks as { kalahi: KalahiResultsJson }).kalahi.variants!.full!.records![3] as Record<string, Record<string, Record<string, unknown>>>;
    expect(record.mc!.trials!.trials).toEqual([0, 1].map((t) => ({ trial: t, response: redactedText(word(3, `letter${t}`)), mc1: 1 })));
    expect(record.generation!.trials!.majority).toBe(redactedText(word(3, 'reply0')));
  });
});
