// Several models in one run: LOKAL_MODEL (or `model`) may list up to MAX_MODELS provider strings separated by commas.
// A comma separates two models only where a provider prefix follows it, so a replay path may itself hold commas:
// `replay:a,b.jsonl,openai:gpt-4o-mini` is two models (`replay:a,b.jsonl` and `openai:gpt-4o-mini`).

/**
 * The provider kinds, whose prefix starts a new model after a comma: the names of the rows of the provider table
 * (src/models/providers.ts), which is typed by them. Named here because the settings check a model list, and this
 * layer imports no provider.
 */
export const PROVIDER_KINDS = ['replay', 'transformers', 'llama', 'openai'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];
export const MAX_MODELS = 10;

/** A label given before a provider string: `qwen3=replay:runs/qwen3.jsonl`. */
const LABEL = `[A-Za-z0-9][A-Za-z0-9._-]*`;
const LABELLED_PATH = new RegExp(`^(${LABEL})=(.+)$`, 'su');
const LABELLED = new RegExp(`^(${LABEL})=(?=(?:${PROVIDER_KINDS.join('|')}):)`, 'u');
const SEPARATOR = new RegExp(`,\\s*(?=(?:${LABEL}=)?(?:${PROVIDER_KINDS.join('|')}):)`, 'u');

/** One listed model: its provider string and the label it was given, if any. */
interface ListedModel {
  spec: string;
  label?: string;
}

/** The models of a model setting, trimmed, in the order given, each with the label written before it (`label=`). */
export function listModels(text: string): ListedModel[] {
  return text.split(SEPARATOR).map((entry) => {
    const trimmed = entry.trim();
    const label = LABELLED.exec(trimmed);
    return label ? { spec: trimmed.slice(label[0].length), label: label[1]! } : { spec: trimmed };
  });
}

/** A `name=path` argument (`lokal compare qwen3=runs/a/`): its label and path; undefined when it has no label. */
export function labelledPath(text: string): { label: string; path: string } | undefined {
  const match = LABELLED_PATH.exec(text);
  return match ? { label: match[1]!, path: match[2]! } : undefined;
}

/** The provider strings of a model setting (labels left off), trimmed, in the order given (one entry for a single model). */
export function splitModelList(text: string): string[] {
  return listModels(text).map((m) => m.spec);
}

/**
 * A short name per model for tables and chart legends: the label given (`qwen3=…`), else the shortest tail of its
 * provider string (its last `/`- or `:`-separated parts) that no other model listed ends with; the whole string when none is.
 */
export function modelLabels(models: readonly ListedModel[]): string[] {
  // Parts and the separators between them, kept so a tail reads as written (`runs/ora.jsonl`, `replay:a`).
  const pieces = models.map((m) => m.spec.replace(/[/:\\]+$/u, '').split(/([/:\\]+)/u));
  const tail = (i: number, k: number) => pieces[i]!.slice(-(2 * k - 1)).join('');
  return models.map((m, i) => {
    if (m.label !== undefined) return m.label;
    for (let k = 1; k <= (pieces[i]!.length + 1) / 2; k++) {
      const candidate = tail(i, k);
      if (models.every((other, j) => j === i || (other.label ?? tail(j, k)) !== candidate)) return candidate;
    }
    return m.spec;
  });
}

/** Why a model setting is not a usable list (empty entry, duplicate, more than MAX_MODELS), or undefined. */
export function modelListProblem(text: string): string | undefined {
  const listed = listModels(text);
  const specs = listed.map((m) => m.spec);
  if (specs.length === 1) return undefined;
  if (specs.length > MAX_MODELS) return `lists ${specs.length} models; at most ${MAX_MODELS} run in one invocation`;
  if (specs.some((s) => s === '')) return 'a listed model is empty (a stray comma?)';
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec)) return `lists ${JSON.stringify(spec)} twice; each model runs once`;
    seen.add(spec);
  }
  const labels = listed.flatMap((m) => (m.label === undefined ? [] : [m.label]));
  const twice = labels.find((label, i) => labels.indexOf(label) !== i);
  if (twice !== undefined) return `gives the label ${JSON.stringify(twice)} twice; each model needs its own`;
  return undefined;
}

/** Each listed model's results folder: the slug of its label where it was given one, else of its provider string. */
export function modelFolderNames(models: readonly ListedModel[]): string[] {
  return modelSlugs(models.map((m) => m.label ?? m.spec));
}

const SLUG_LENGTH = 100;
/** Slugs that would look like (and could collide with) the output folder's own files. */
const FILE_LIKE = /\.(?:html|json)$/iu;

/**
 * A folder name per model for its results (`results/<slug>/multiloko.json`): the provider string with every run of
 * characters outside [A-Za-z0-9._-] made one `-`, ends trimmed, its last SLUG_LENGTH characters kept, `-model` added to
 * one ending in .html or .json; names equal ignoring case get `-2`, `-3`, … in list order (case-insensitive file systems).
 */
export function modelSlugs(specs: readonly string[]): string[] {
  const taken = new Set<string>();
  return specs.map((spec) => {
    const cut = spec.replace(/[^A-Za-z0-9._-]+/gu, '-').slice(-SLUG_LENGTH).replace(/^[-.]+|[-.]+$/gu, '') || 'model';
    // Never the name of a file the run writes beside the folders (compare.html, report.html, <benchmark>.json).
    const base = FILE_LIKE.test(cut) ? `${cut}-model` : cut;
    let slug = base;
    for (let n = 2; taken.has(slug.toLowerCase()); n++) slug = `${base}-${n}`;
    taken.add(slug.toLowerCase());
    return slug;
  });
}
