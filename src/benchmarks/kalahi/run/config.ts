// A Kalahi run's settings: the shared lokal settings (model, limit, output, thresholds, …) plus the Kalahi keys, with
// their defaults — the reference's choices (full variant, both tasks, max_length=256, chrF, its learned models).
import { DEFAULT_BERTSCORE_MODEL, DEFAULT_BLEURT_MODEL } from '../../../models/defaults.ts';
import type { SharedSettings } from '../../../core/settings.ts';
import type { KalahiLearnedMetric } from './records.ts';
import { KALAHI_TASKS, type KalahiBudget, type KalahiChrf, type KalahiMCProtocol, type KalahiSettingsInput, type KalahiTask, type KalahiVariant } from '../settings.ts';

/** A Kalahi run's settings as the settings module gives them: shared and Kalahi keys, flat. */
export type KalahiSettings = SharedSettings & KalahiSettingsInput;

/** The reference passes `max_length=256` to generate; its README speaks of 256 new tokens. */
export const KALAHI_TOKEN_BUDGET = 256;

export const KALAHI_BUDGET_DESCRIPTIONS: Record<KalahiBudget, string> = {
  max_length: `max_length=${KALAHI_TOKEN_BUDGET}: prompt and reply together (what the reference code passes)`,
  new_tokens: `${KALAHI_TOKEN_BUDGET} new tokens (what the reference README says)`,
};

/** Values of LOKAL_BERTSCORE_MODEL / LOKAL_BLEURT_MODEL that switch a learned metric off. */
const OFF = new Set(['off', 'none', 'false', '0', 'no']);

export interface KalahiConfig {
  /** The shared settings (model, limit, strict, output, thresholds, …). */
  base: SharedSettings;
  /** Data folder or file; undefined: the loader's default (LOKAL_KALAHI, then ./data/kalahi). */
  location: string | undefined;
  variants: KalahiVariant[];
  tasks: KalahiTask[];
  budget: KalahiBudget;
  /** How multiple choice is measured: log-probabilities of every answer (the reference) or SEA-HELM's lettered question. */
  mcProtocol: KalahiMCProtocol;
  chrf: KalahiChrf;
  /** Model spec per learned metric, or `off`. */
  learnedModels: Record<KalahiLearnedMetric, string>;
}

function asList<T extends string>(value: T | readonly T[] | undefined, fallback: readonly T[]): T[] {
  if (value === undefined) return [...fallback];
  const values = typeof value === 'string' ? [value] : [...value];
  return values.filter((v, i) => values.indexOf(v) === i);
}

export function isLearnedMetricOff(spec: string): boolean {
  return OFF.has(spec.trim().toLowerCase());
}

/** The Kalahi run's choices with the reference's defaults filled in. */
export function resolveKalahiConfig(settings: KalahiSettings): KalahiConfig {
  const tasks = asList(settings.tasks, KALAHI_TASKS);
  return {
    base: settings,
    location: settings.data,
    variants: asList(settings.variant, ['full'] as const),
    // Task order is fixed (MC, then generation) whatever order the list gives.
    tasks: KALAHI_TASKS.filter((t) => tasks.includes(t)),
    budget: settings.budget ?? 'max_length',
    mcProtocol: settings.mc ?? 'logprobs',
    chrf: settings.chrf ?? 'chrf',
    learnedModels: {
      bleurt: isLearnedMetricOff(settings.bleurtModel ?? '') ? 'off' : (settings.bleurtModel ?? DEFAULT_BLEURT_MODEL),
      bertscore: isLearnedMetricOff(settings.bertscoreModel ?? '') ? 'off' : (settings.bertscoreModel ?? DEFAULT_BERTSCORE_MODEL),
    },
  };
}
