// The leaderboard figures of a run (official README): average EM over the local subsets ± 2 SE, gap, min, max, and
// the mother tongue and locality effects per language and averaged, for human and machine translations.
// Translated subsets never enter the local average (eval.py's group_metrics pools every key it is given).
import { multilokoHeadline, type LanguageEffect } from '../metrics/multilokoEffects.ts';
import type { RolledSubset } from '../run/rolledSubset.ts';

/** One effect (MTE or LE) for one kind of translation; 0–1 scale like EM. */
export interface EffectFigures {
  /** Languages with both sides in the run. */
  languages: number;
  /** Average over those languages; null (as every figure below) when there is none. */
  average: number | null;
  se: number | null;
  two_se: number | null;
  min: number | null;
  max: number | null;
  gap: number | null;
  min_language: string | null;
  max_language: string | null;
  /** The difference per language, in the order of the local subsets. */
  per_language: Record<string, number>;
  /** Languages present on one side only (not English, which has no counterpart by design). */
  skipped: string[];
}

export interface HeadlineSummary {
  /** Local subsets averaged (their keys, in run order). */
  languages: number;
  local_subsets: string[];
  em: number;
  em_se: number | null;
  em_2se: number | null;
  em_min: number;
  em_max: number;
  em_gap: number;
  em_min_language: string;
  em_max_language: string;
  /** EM of each local subset. */
  per_language_em: Record<string, number>;
  /** Mother tongue effect: local EM − EM of the same questions translated into English. */
  mte: { human: EffectFigures; machine: EffectFigures };
  /** Locality effect: local EM − EM of the English questions translated into the language. */
  le: { human: EffectFigures; machine: EffectFigures };
  /** Translated subsets that feed neither effect (e.g. between two non-English languages). */
  unused_subsets: string[];
}

function effectFigures(effect: LanguageEffect): EffectFigures {
  const a = effect.average;
  return {
    languages: a?.n ?? 0,
    average: a?.mean ?? null,
    se: a?.standardError ?? null,
    two_se: a?.twoSE ?? null,
    min: a?.min ?? null,
    max: a?.max ?? null,
    gap: a?.gap ?? null,
    min_language: a?.minLanguage ?? null,
    max_language: a?.maxLanguage ?? null,
    per_language: effect.perLanguage,
    skipped: effect.skipped,
  };
}

/** The headline of the subsets that have scores; null when no local subset has one. */
export function summariseHeadline(subsets: readonly RolledSubset[]): HeadlineSummary | null {
  const emByKey: Record<string, number> = {};
  for (const { aggregate } of subsets) if (aggregate.means) emByKey[aggregate.key] = aggregate.means.em;
  const headline = multilokoHeadline(emByKey);
  const local = headline.local;
  if (!local) return null;
  const perLanguage = Object.fromEntries(subsets.filter((s) => s.aggregate.means && !s.aggregate.translated).map((s) => [s.aggregate.key, s.aggregate.means!.em]));
  return {
    languages: local.n,
    local_subsets: Object.keys(perLanguage),
    em: local.mean,
    em_se: local.standardError,
    em_2se: local.twoSE,
    em_min: local.min,
    em_max: local.max,
    em_gap: local.gap,
    em_min_language: local.minLanguage,
    em_max_language: local.maxLanguage,
    per_language_em: perLanguage,
    mte: { human: effectFigures(headline.motherTongueEffect.human), machine: effectFigures(headline.motherTongueEffect.machine) },
    le: { human: effectFigures(headline.localityEffect.human), machine: effectFigures(headline.localityEffect.machine) },
    unused_subsets: headline.unusedKeys,
  };
}
