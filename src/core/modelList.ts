// Several models in one run: LOKAL_MODEL (or `model`) may list up to MAX_MODELS provider strings separated by commas.
// A comma separates two models only where a provider prefix follows it, so a replay path may itself hold commas:
// `replay:a,b.jsonl,openai:gpt-4o-mini` is two models (`replay:a,b.jsonl` and `openai:gpt-4o-mini`).

/** The providers whose prefix starts a new model after a comma (src/models/index.ts createProvider). */
export const MODEL_PROVIDERS = ['transformers', 'llama', 'openai', 'replay'] as const;
export const MAX_MODELS = 10;

const SEPARATOR = new RegExp(`,\\s*(?=(?:${MODEL_PROVIDERS.join('|')}):)`, 'u');

/** The provider strings of a model setting, trimmed, in the order given (one entry for a single model). */
export function splitModelList(text: string): string[] {
  return text.split(SEPARATOR).map((s) => s.trim());
}

/** Why a model setting is not a usable list (empty entry, duplicate, more than MAX_MODELS), or undefined. */
export function modelListProblem(text: string): string | undefined {
  const specs = splitModelList(text);
  if (specs.length === 1) return undefined;
  if (specs.length > MAX_MODELS) return `lists ${specs.length} models; at most ${MAX_MODELS} run in one invocation`;
  if (specs.some((s) => s === '')) return 'a listed model is empty (a stray comma?)';
  const seen = new Set<string>();
  for (const spec of specs) {
    if (seen.has(spec)) return `lists ${JSON.stringify(spec)} twice; each model runs once`;
    seen.add(spec);
  }
  return undefined;
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
