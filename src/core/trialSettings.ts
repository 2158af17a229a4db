// Validated trial settings of a run or a benchmark (trials per item, temperature, top-p, base seed) from a settings
// object or the LOKAL_* variables; their fields live in settings.ts's shared shape, so the run's reader knows them too.
import { z } from 'zod';
import { LokalConfigError, TRIAL_DEFAULTS, TRIAL_ENV, TRIAL_SETTINGS_SHAPE } from './settings.ts';

const TRIAL_SCHEMA = z.object(TRIAL_SETTINGS_SHAPE).strict();
type TrialSettings = Omit<z.output<typeof TRIAL_SCHEMA>, 'trials'> & { trials: number };

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
