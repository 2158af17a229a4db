// Kalahi's settings: the `kalahi` object of lokal.config.json / options, and its LOKAL_* variables.
import { z } from 'zod';
import { asIs, list, lowerCase, MODEL_SETTING, type SettingsSection } from '../../core/settings.ts';
import { MC_PROTOCOLS, type MCProtocol } from '../../core/mcProtocol.ts';
import type { KalahiVariant } from './data/kalahi.ts';

// data.ts's KALAHI_VARIANTS, repeated so that the settings (loaded with the registry in every process) do not load
// the CSV reader; `satisfies` and the check below stop compiling if the two lists ever differ.
const KALAHI_VARIANTS = ['full', 'partially_enriched', 'unenriched'] as const satisfies readonly KalahiVariant[];
const everyVariantListed: [Exclude<KalahiVariant, (typeof KALAHI_VARIANTS)[number]>] extends [never] ? true : false = true;
void everyVariantListed;

export const KALAHI_TASKS = ['mc', 'generation'] as const;
export type KalahiTask = (typeof KALAHI_TASKS)[number];

/** `logprobs`: every answer scored by log-probability (the reference); `letter`: SEA-HELM's lettered question answered in text. */
export const KALAHI_MC_PROTOCOLS = MC_PROTOCOLS;
export type KalahiMCProtocol = MCProtocol;

/** `max_length`: 256 tokens in all, prompt included (what the reference code passes); `new_tokens`: 256 new tokens (its README). */
export const KALAHI_BUDGETS = ['max_length', 'new_tokens'] as const;
export type KalahiBudget = (typeof KALAHI_BUDGETS)[number];

/** `chrf`: what the reference code computes; `chrf++`: what the paper names (word n-grams of order 2 added). */
export const KALAHI_CHRF_VARIANTS = ['chrf', 'chrf++'] as const;
export type KalahiChrf = (typeof KALAHI_CHRF_VARIANTS)[number];

const oneOrMore = <T extends readonly [string, ...string[]]>(values: T) => z.union([z.enum(values), z.array(z.enum(values)).min(1)]);

/** The `kalahi` object of lokal.config.json / options; every field optional (defaults in config.ts). */
export const KALAHI_SETTINGS_SHAPE = {
  /** Kalahi's own model, instead of the shared `model`. */
  model: MODEL_SETTING,
  /** Folder holding filipino.csv, filipino_partially_enriched.csv, filipino_unenriched.csv (or one of those files). */
  data: z.string().min(1).optional(),
  /** Variant(s) to run, one suite each: full, partially_enriched, unenriched. */
  variant: oneOrMore(KALAHI_VARIANTS).optional(),
  /** Tasks per prompt: mc (log-probabilities of the references), generation (greedy reply + text metrics). */
  tasks: oneOrMore(KALAHI_TASKS).optional(),
  budget: z.enum(KALAHI_BUDGETS).optional(),
  /** How multiple choice is measured (default logprobs). */
  mc: z.enum(KALAHI_MC_PROTOCOLS).optional(),
  chrf: z.enum(KALAHI_CHRF_VARIANTS).optional(),
  /** BERTScore encoder: Hub id or folder (default microsoft/deberta-v3-large); `off` skips the metric. */
  bertscoreModel: z.string().min(1).optional(),
  /** BLEURT regression model: Hub id or folder (default lucadiliello/BLEURT-20); `off` skips the metric. */
  bleurtModel: z.string().min(1).optional(),
};

export type KalahiSettingsInput = z.input<z.ZodObject<typeof KALAHI_SETTINGS_SHAPE>>;

export const KALAHI_SETTINGS: SettingsSection = {
  key: 'kalahi',
  shape: KALAHI_SETTINGS_SHAPE,
  defaults: {},
  env: {
    LOKAL_KALAHI: { field: 'data', parse: asIs },
    LOKAL_KALAHI_MODEL: { field: 'model', parse: asIs },
    LOKAL_KALAHI_VARIANT: { field: 'variant', parse: list },
    LOKAL_KALAHI_TASKS: { field: 'tasks', parse: list },
    LOKAL_KALAHI_BUDGET: { field: 'budget', parse: asIs },
    LOKAL_KALAHI_MC: { field: 'mc', parse: lowerCase },
    LOKAL_KALAHI_CHRF: { field: 'chrf', parse: lowerCase },
    LOKAL_BERTSCORE_MODEL: { field: 'bertscoreModel', parse: asIs },
    LOKAL_BLEURT_MODEL: { field: 'bleurtModel', parse: asIs },
  },
};

export type { KalahiVariant };
