// The MultiLoKo metric names and per-example record shapes (eval.py's `metrics` dict, in its order).

/** eval.py's metrics, in the order the script computes and writes them. */
export const MULTILOKO_METRICS = ['em', 'f1', 'bleu', 'chrf', 'edit_distance', 'edit_similarity'] as const;
export type MultiLoKoMetric = (typeof MULTILOKO_METRICS)[number];

/** Our extra metric: edit distance to the first target, which the official README lists and its script forgot. */
export const EXTRA_METRICS = ['edit_distance_first'] as const;
export type ExtraMetric = (typeof EXTRA_METRICS)[number];

/** Extra metrics that need the text's language, so only some scorers add them; a mean is taken where every record has one. */
export const LANGUAGE_METRICS = ['f1_words'] as const;
export type LanguageMetric = (typeof LANGUAGE_METRICS)[number];

/** Every metric we compute per example, official ones first. */
export const ALL_METRICS = [...MULTILOKO_METRICS, ...EXTRA_METRICS] as const;
export type AnyMetric = MultiLoKoMetric | ExtraMetric;

export interface ExampleScores {
  em: number;
  f1: number;
  bleu: number;
  chrf: number;
  edit_distance: number;
  edit_similarity: number;
  /** extra: README's metric the script forgot */
  edit_distance_first: number;
  /** extra: token F1 over ICU word segments in the text's language (f1Words); set where the language is known. */
  f1_words?: number;
}

/** One scored example as eval.py stores it: scores plus the normalised targets and prediction. */
export interface ExampleRecord extends ExampleScores {
  targets: string[];
  prediction: string;
}
