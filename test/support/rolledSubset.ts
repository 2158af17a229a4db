// A MultiLoKo subset as the roll-up receives it, from its items' EM values alone (the other means follow from EM),
// for tests of the gates and the baseline judgement without a run.
import type { LokalSubsetAggregate } from '../../src/benchmarks/multiloko/run/records.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';

export function rolledSubset(key: string, ems: number[]): RolledSubset {
  const em = ems.reduce((a, b) => a + b, 0) / ems.length;
  const aggregate = {
    benchmark: 'multiloko', key, name: `${key} · local`, language: key, sourceLanguage: key, questionLanguage: key, translated: false,
    scored: ems.length, missing: 0, failed: 0, skipped: 0, cached: 0, modelCalls: 0, modelMs: 0, prompts: [],
    means: { em, f1: em, bleu: 100 * em, chrf: 100 * em, edit_distance: 1 - em, edit_similarity: em, edit_distance_first: 1 - em },
  } as unknown as LokalSubsetAggregate;
  const records = ems.map((v, i) => ({ subset: key, id: `q${i}`, index: i, prediction: v ? 'right' : 'wrong', scores: { em: v } }));
  return { aggregate, records: records as unknown as RolledSubset['records'] };
}
