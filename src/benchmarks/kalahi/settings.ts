// The Kalahi keys of the lokal settings (lokal.config.json fields and LOKAL_* variables). A leaf module: config.ts
// spreads these into its schema and environment table, kalahiConfig.ts reads them back with defaults.
import { z } from 'zod';
import { KALAHI_VARIANTS, type KalahiVariant } from './data.ts';

export const KALAHI_TASKS = ['mc', 'generation'] as const;
export type KalahiTask = (typeof KALAHI_TASKS)[number];

/** `max_length`: 256 tokens in all, prompt included (what the reference code passes); `new_tokens`: 256 new tokens (its README). */
export const KALAHI_BUDGETS = ['max_length', 'new_tokens'] as const;
export type KalahiBudget = (typeof KALAHI_BUDGETS)[number];

/** `chrf`: what the reference code computes; `chrf++`: what the paper names (word n-grams of order 2 added). */
export const KALAHI_CHRF_VARIANTS = ['chrf', 'chrf++'] as const;
export type KalahiChrf = (typeof KALAHI_CHRF_VARIANTS)[number];

const oneOrMore = <T extends readonly [string, ...string[]]>(values: T) => z.union([z.enum(values), z.array(z.enum(values)).min(1)]);

/** Schema fields; every one optional (defaults live in kalahiConfig.ts). */
export const KALAHI_SETTINGS_SHAPE = {
  /** Folder holding filipino.csv, filipino_partially_enriched.csv, filipino_unenriched.csv (or one of those files). */
  kalahi: z.string().min(1).optional(),
  /** Variant(s) to run, one suite each: full, partially_enriched, unenriched. */
  kalahiVariant: oneOrMore(KALAHI_VARIANTS).optional(),
  /** Tasks per prompt: mc (log-probabilities of the references), generation (greedy reply + text metrics). */
  kalahiTasks: oneOrMore(KALAHI_TASKS).optional(),
  kalahiBudget: z.enum(KALAHI_BUDGETS).optional(),
  kalahiChrf: z.enum(KALAHI_CHRF_VARIANTS).optional(),
  /** BERTScore encoder: Hub id or folder (default microsoft/deberta-v3-large); `off` skips the metric. */
  bertscoreModel: z.string().min(1).optional(),
  /** BLEURT regression model: Hub id or folder (default lucadiliello/BLEURT-20); `off` skips the metric. */
  bleurtModel: z.string().min(1).optional(),
};

export type KalahiSettingsKey = keyof typeof KALAHI_SETTINGS_SHAPE;

function list(text: string): string[] {
  return text.split(/[,\s]+/u).filter((part) => part !== '');
}

const asIs = (text: string): unknown => text;

/** LOKAL_* variable → settings field; lists are comma- or space-separated. */
export const KALAHI_ENV_FIELDS: Record<string, { field: KalahiSettingsKey; parse: (text: string) => unknown }> = {
  LOKAL_KALAHI: { field: 'kalahi', parse: asIs },
  LOKAL_KALAHI_VARIANT: { field: 'kalahiVariant', parse: list },
  LOKAL_KALAHI_TASKS: { field: 'kalahiTasks', parse: list },
  LOKAL_KALAHI_BUDGET: { field: 'kalahiBudget', parse: asIs },
  LOKAL_KALAHI_CHRF: { field: 'kalahiChrf', parse: (t) => t.trim().toLowerCase() },
  LOKAL_BERTSCORE_MODEL: { field: 'bertscoreModel', parse: asIs },
  LOKAL_BLEURT_MODEL: { field: 'bleurtModel', parse: asIs },
};

export type { KalahiVariant };
