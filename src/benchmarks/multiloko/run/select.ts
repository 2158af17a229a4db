// Which subsets and items a run covers: LOKAL_LANGUAGES, LOKAL_SUBSETS and LOKAL_LIMIT applied to a loaded dataset.
import type { MultiLoKoDataset, MultiLoKoSubset } from '../data/multiloko.ts';
import type { MultiLoKoQuestion } from '../data/schema.ts';
import { LokalConfigError } from '../../../core/settings.ts';
import { summariseList } from '../../../data/errors.ts';
import { SUBSET_KINDS, type MultiLoKoSettings } from '../settings.ts';
import { subsetLanguage } from './names.ts';

export interface SelectedSubset {
  subset: MultiLoKoSubset;
  /** Position in the whole dataset, the same in every file and shard. */
  order: number;
  items: MultiLoKoQuestion[];
}

type Kind = (typeof SUBSET_KINDS)[number];

export function subsetHasKind(subset: MultiLoKoSubset, kind: Kind): boolean {
  switch (kind) {
    case 'local':
      return !subset.translated;
    case 'translated':
      return subset.translated;
    case 'human':
    case 'machine':
      return subset.translated && subset.translation === kind;
    case 'to-english':
      return subset.translated && subset.questionLanguage === 'english';
    case 'from-english':
      return subset.translated && subset.sourceLanguage === 'english';
  }
}

/** Subsets matching any selector (kind or exact key) of any listed language, in dataset order, each cut to `limit`. */
export function selectSubsets(dataset: MultiLoKoDataset, config: Pick<MultiLoKoSettings, 'languages' | 'subsets' | 'limit'>): SelectedSubset[] {
  const languages = new Set(dataset.subsets.map(subsetLanguage));
  const keys = new Set(dataset.subsets.map((s) => s.key));
  for (const language of config.languages ?? []) {
    if (!languages.has(language)) {
      throw new LokalConfigError('LOKAL_LANGUAGES', undefined, `${JSON.stringify(language)} is not in ${dataset.location} (split ${dataset.split}); it has: ${summariseList([...languages], String, 40)}`);
    }
  }
  for (const selector of config.subsets ?? []) {
    if (!(SUBSET_KINDS as readonly string[]).includes(selector) && !keys.has(selector)) {
      throw new LokalConfigError('LOKAL_SUBSETS', undefined, `${JSON.stringify(selector)} is neither a kind (${SUBSET_KINDS.join(', ')}) nor a subset key of the dataset (e.g. ${[...keys].slice(0, 3).join(', ')})`);
    }
  }
  const wanted = (subset: MultiLoKoSubset): boolean =>
    (config.languages === undefined || config.languages.includes(subsetLanguage(subset))) &&
    (config.subsets === undefined ||
      config.subsets.some((s) => s === subset.key || ((SUBSET_KINDS as readonly string[]).includes(s) && subsetHasKind(subset, s as Kind))));
  const selected: SelectedSubset[] = [];
  dataset.subsets.forEach((subset, order) => {
    if (!wanted(subset)) return;
    selected.push({ subset, order, items: config.limit === undefined ? subset.items : subset.items.slice(0, config.limit) });
  });
  if (selected.length === 0) {
    throw new LokalConfigError('selection', undefined, `no subset of ${dataset.location} matches languages=${JSON.stringify(config.languages ?? 'all')} subsets=${JSON.stringify(config.subsets ?? 'all')}`);
  }
  return selected;
}
