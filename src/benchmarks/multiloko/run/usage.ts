// How a run asked its model, for the results summary: prompt mode, few-shot source, extraction, cache and timing.
import { specRow } from '../../../models/providers.ts';
import type { LokalPromptUse, LokalSubsetAggregate } from './records.ts';

export interface PromptSummary {
  /** The single value over every scored item, or `mixed`; `none` when nothing was scored. */
  mode: LokalPromptUse['mode'] | 'mixed';
  fewshot: LokalPromptUse['fewshot'] | 'mixed';
  shots: number | 'mixed';
  extraction: boolean | 'mixed';
  /** Every distinct use with its item count and subsets. */
  uses: Array<LokalPromptUse & { items: number; subsets: string[] }>;
}

function single<T>(values: readonly T[], fallback: T): T | 'mixed' {
  if (values.length === 0) return fallback;
  return values.every((v) => v === values[0]) ? values[0]! : 'mixed';
}

export function summarisePrompts(aggregates: readonly Pick<LokalSubsetAggregate, 'key' | 'prompts'>[]): PromptSummary {
  const uses = new Map<string, LokalPromptUse & { items: number; subsets: string[] }>();
  for (const a of aggregates) {
    for (const use of a.prompts ?? []) {
      const key = JSON.stringify([use.mode, use.language, use.fewshot, use.shots, use.extracted]);
      const known = uses.get(key);
      if (known) {
        known.items += use.items;
        if (!known.subsets.includes(a.key)) known.subsets.push(a.key);
      } else uses.set(key, { ...use, subsets: [a.key] });
    }
  }
  const all = [...uses.values()];
  return {
    mode: single(all.map((u) => u.mode), 'none'),
    fewshot: single(all.map((u) => u.fewshot), 'none'),
    shots: single(all.map((u) => u.shots), 0),
    extraction: single(all.map((u) => u.extracted), false),
    uses: all,
  };
}

/**
 * `base prompt, few-shot official ×5, extracted` / `chat prompt, zero-shot, extracted` / `replay, answers as given`.
 * With the run's `model`, a run that is not a replay and asked nothing (every item failed) never reads as a replay.
 */
export function describePrompts(prompt: PromptSummary, model?: string): string {
  const extraction = prompt.extraction === 'mixed' ? 'extraction mixed' : prompt.extraction ? 'answers extracted' : 'answers as given';
  if (prompt.mode === 'none' && prompt.uses.length === 0 && model !== undefined && !specRow(model)?.answersFromFile) return 'no item was answered';
  if (prompt.mode === 'none') return `no prompt (replay), ${extraction}`;
  const fewshot = prompt.fewshot === 'none' ? 'zero-shot' : `few-shot ${prompt.fewshot}${prompt.shots === 'mixed' ? '' : ` ×${prompt.shots}`}`;
  return `${prompt.mode} prompt, ${fewshot}, ${extraction}`;
}

export interface CallSummary {
  /** Scored items answered from the response cache. */
  cached: number;
  /** Scored items the model answered in this run (cache hits and replay misses excluded). */
  model_calls: number;
  /** Summed and mean latency of those calls, in ms (cache hits excluded). */
  model_ms_total: number;
  model_ms_mean: number | null;
}

export function summariseCalls(aggregates: readonly Pick<LokalSubsetAggregate, 'cached' | 'modelCalls' | 'modelMs'>[]): CallSummary {
  let cached = 0;
  let calls = 0;
  let ms = 0;
  for (const a of aggregates) {
    cached += a.cached ?? 0;
    calls += a.modelCalls ?? 0;
    ms += a.modelMs ?? 0;
  }
  return { cached, model_calls: calls, model_ms_total: ms, model_ms_mean: calls === 0 ? null : ms / calls };
}
