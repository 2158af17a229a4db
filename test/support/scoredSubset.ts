// MultiLoKo subsets from raw answers and targets, through the real scoring and aggregation (every record carries its
// error category), for tests of the roll-up and the report.
import { aggregateSubset } from '../../src/benchmarks/multiloko/results/aggregate.ts';
import { scoreExample } from '../../src/metrics/scoreExample.ts';
import { errorCategory } from '../../src/metrics/errorCategory.ts';
import type { LokalItemRecord, LokalSubsetInfo } from '../../src/benchmarks/multiloko/run/records.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';

/** A subset of scored items, each [prediction, targets] as raw text, through the real scoring and aggregation. */
export function rolled(key: string, order: number, items: Array<[string, string[]]>, translated = false): RolledSubset {
  const info = {
    benchmark: 'multiloko', key, name: `${key} · ${translated ? 'human' : 'local'}`, language: key.split('_')[0]!, sourceLanguage: key.split('_')[0]!,
    questionLanguage: translated ? 'english' : key, translated, ...(translated ? { translation: 'human' } : {}),
    order, split: 'dev', location: '/d', file: `${key}.jsonl`, selected: items.length, total: items.length, model: 'replay:p', strict: false,
    thresholds: undefined, baseline: undefined, baselineTolerance: 0.02,
  } as LokalSubsetInfo;
  const records = items.map(([answer, targets], index): LokalItemRecord => {
    const scored = scoreExample(answer, targets);
    return {
      subset: key, id: `${key}-${index}`, index, itemKey: `${key}/${index}`, rawPrediction: answer, answer, prediction: scored.prediction,
      prompt: { mode: 'none', language: null, fewshot: 'none', shots: 0, extracted: false }, targets: scored.targets, scores: scored.scores,
      error: errorCategory(scored.prediction, scored.targets, scored.scores.edit_similarity),
      latencyMs: 0, cached: false, missing: answer === '', verdict: '',
    };
  });
  const aggregate = aggregateSubset(info, records.map((record) => ({ record, state: 'passed' as const })));
  return { aggregate, records };
}
