// The trial settings of a run or a benchmark: how many trials per item, the sampling temperature and top-p, and the
// base seed each trial's seed derives from; their LOKAL_* variables, and one-line messages naming the allowed range.
import { z } from 'zod';
import { LokalConfigError, number, type EnvField } from './settings.ts';

export const MAX_TRIALS = 1000;

/** The fields, for the shared settings and each benchmark's own object in lokal.config.json (every one optional). */
export const TRIAL_SETTINGS_SHAPE = {
  /** Trials per item (1: one answer per item, as a run without trials). */
  trials: z
    .number({ error: `must be an integer from 1 to ${MAX_TRIALS}` })
    .int({ error: `must be an integer from 1 to ${MAX_TRIALS}` })
    .min(1, { error: `must be an integer from 1 to ${MAX_TRIALS}` })
    .max(MAX_TRIALS, { error: `must be an integer from 1 to ${MAX_TRIALS}` })
    .optional(),
  /** Sampling temperature (0: greedy). */
  temperature: z
    .number({ error: 'must be a number from 0 to 2' })
    .min(0, { error: 'must be a number from 0 to 2' })
    .max(2, { error: 'must be a number from 0 to 2' })
    .optional(),
  /** Nucleus sampling: the probability mass of the most likely tokens kept (1: all). */
  topP: z
    .number({ error: 'must be a number above 0 and at most 1' })
    .gt(0, { error: 'must be a number above 0 and at most 1' })
    .max(1, { error: 'must be a number above 0 and at most 1' })
    .optional(),
  /** Base seed; trial t of an item uses trialSeed(seed, item id, t) (src/core/trialSeed.ts). */
  seed: z
    .number({ error: `must be an integer from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}` })
    .int({ error: `must be an integer from ${Number.MIN_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}` })
    .optional(),
};

export const TRIAL_ENV: Record<string, EnvField> = {
  LOKAL_TRIALS: { field: 'trials', parse: number },
  LOKAL_TEMPERATURE: { field: 'temperature', parse: number },
  LOKAL_TOP_P: { field: 'topP', parse: number },
  LOKAL_SEED: { field: 'seed', parse: number },
};

export const TRIAL_DEFAULTS = { trials: 1 } as const;

const TRIAL_SCHEMA = z.object(TRIAL_SETTINGS_SHAPE).strict();
export type TrialSettingsInput = z.input<typeof TRIAL_SCHEMA>;
export type TrialSettings = Omit<z.output<typeof TRIAL_SCHEMA>, 'trials'> & { trials: number };

/** Validated trial settings from a settings object; the first mistake throws one line naming its field and range. */
export function trialSettings(input: unknown, source = 'settings'): TrialSettings {
  const parsed = TRIAL_SCHEMA.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new LokalConfigError(source, issue.path.map(String).join('.') || undefined, issue.message);
  }
  return { ...TRIAL_DEFAULTS, ...parsed.data };
}

/**
 * Validated trial settings from LOKAL_* variables (a copy of the environment, passed in): an empty value is unset,
 * and a bad one throws one line naming the variable, the allowed range and the value given.
 */
export function trialSettingsFromVariables(variables: Readonly<Record<string, string | undefined>>): TrialSettings {
  const input: Record<string, unknown> = {};
  for (const [name, { field, parse }] of Object.entries(TRIAL_ENV)) {
    const text = variables[name];
    if (text === undefined || text.trim() === '') continue;
    const parsed = TRIAL_SCHEMA.shape[field as keyof typeof TRIAL_SETTINGS_SHAPE].safeParse(parse(text));
    if (!parsed.success) throw new LokalConfigError(name, undefined, `${parsed.error.issues[0]!.message} (got ${JSON.stringify(text)})`);
    input[field] = parsed.data;
  }
  return trialSettings(input);
}
