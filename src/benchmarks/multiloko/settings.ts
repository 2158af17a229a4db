// MultiLoKo's settings: the `multiloko` object of lokal.config.json / options, and its LOKAL_* variables.
import { z } from 'zod';
import { asIs, list, number, flag, trimmed, MODEL_SETTING, TRIAL_SETTINGS_SHAPE, type SettingsSection, type SharedSettings } from '../../core/settings.ts';

/** Which subsets of a language run: kinds, directions, or exact eval.py keys such as `italian_translated_human_english`. */
export const SUBSET_KINDS = ['local', 'translated', 'human', 'machine', 'to-english', 'from-english'] as const;
const PROMPT_MODES = ['base', 'chat', 'auto'] as const;
const FEWSHOT_SETTINGS = ['dataset', 'official', 'none'] as const;

const MULTILOKO_SETTINGS_SHAPE = {
  /** MultiLoKo's own model, instead of the shared `model` (e.g. a replay file here, a server for Kalahi). */
  model: MODEL_SETTING,
  /** Dataset location (folder or .enc archive); unset: the data loader's default (./data/). */
  data: z.string().min(1).optional(),
  split: z.string().min(1).optional(),
  /** Language folders to run (a subset belongs to its non-English side); unset: all. */
  languages: z.array(z.string().min(1)).min(1).optional(),
  /** Subset kinds or keys to run (see SUBSET_KINDS); unset: all. */
  subsets: z.array(z.string().min(1)).min(1).optional(),
  /** Extra metrics in the printed table besides EM, F1, chrF (`all` or metric names). */
  tableMetrics: z.array(z.string().min(1)).optional(),
  /** Official base (few-shot completion) or chat prompt; `auto`: chat when the model is a chat model. */
  prompt: z.enum(PROMPT_MODES).optional(),
  /** Few-shot demonstrations of base prompts: the dataset's knowledge_fewshot.jsonl (else the official ones), the official ones, or none. */
  fewshot: z.enum(FEWSHOT_SETTINGS).optional(),
  /** Number of demonstrations in base prompts (official default 5). */
  shots: z.number().int().min(0).optional(),
  /** Answer extraction before scoring; unset: on for models, off for replay files. */
  extract: z.boolean().optional(),
  /** MultiLoKo's own trials, temperature, top-p and seed, over the shared ones (docs/trials.md). */
  ...TRIAL_SETTINGS_SHAPE,
};

export const MULTILOKO_DEFAULTS = { split: 'dev', prompt: 'auto', fewshot: 'dataset', shots: 5 } as const;

export const MULTILOKO_SETTINGS: SettingsSection = {
  key: 'multiloko',
  shape: MULTILOKO_SETTINGS_SHAPE,
  defaults: MULTILOKO_DEFAULTS,
  env: {
    LOKAL_MULTILOKO: { field: 'data', parse: asIs },
    LOKAL_MULTILOKO_MODEL: { field: 'model', parse: asIs },
    LOKAL_SPLIT: { field: 'split', parse: asIs },
    LOKAL_LANGUAGES: { field: 'languages', parse: list },
    LOKAL_SUBSETS: { field: 'subsets', parse: list },
    LOKAL_TABLE_METRICS: { field: 'tableMetrics', parse: list },
    LOKAL_PROMPT: { field: 'prompt', parse: trimmed },
    LOKAL_FEWSHOT: { field: 'fewshot', parse: trimmed },
    LOKAL_SHOTS: { field: 'shots', parse: number },
    LOKAL_EXTRACT: { field: 'extract', parse: flag },
  },
};

type Own = z.input<z.ZodObject<typeof MULTILOKO_SETTINGS_SHAPE>>;
export type MultiLoKoSettingsInput = Own;
type Defaulted = keyof typeof MULTILOKO_DEFAULTS;
/** A MultiLoKo run's settings: the shared ones and its own, with defaults. */
export type MultiLoKoSettings = SharedSettings & Omit<Own, Defaulted> & { -readonly [K in Defaulted]-?: NonNullable<Own[K]> };
