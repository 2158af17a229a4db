// The headline as the official README's leaderboard table (EM × 100, ± = 2 SE across languages), then one row per
// language and the mother tongue / locality effects for human and machine translations.
import type { EffectFigures, HeadlineSummary } from './headline.ts';
import { markdownTable } from '../../../core/textTable.ts';
import { summariseList } from '../../../data/errors.ts';

/** A figure × 100 with 2 decimals, as the README prints EM ("31.03"); en dash when absent. */
export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : (100 * value).toFixed(2);
}

/** `31.03 ± 2.8` (the README's spread has one decimal); `31.03 ± –` for one language. */
export function withSpread(value: number | null, twoSE: number | null): string {
  if (value === null) return '–';
  return `${percent(value)} ± ${twoSE === null ? '–' : (100 * twoSE).toFixed(1)}`;
}

export interface HeadlineContext {
  model: string;
  /** e.g. `base, few-shot official ×5` or `chat, zero-shot`. */
  prompt: string;
  /** False in a run of several models: the run prints one leaderboard with a row per model (modelsLeaderboardLines). */
  leaderboard?: boolean;
}

const LEADERBOARD_HEADER = ['Model', 'Average EM', 'Gap', 'MTE', 'Min EM', 'Max EM'];

function leaderboardRow(model: string, headline: HeadlineSummary): string[] {
  return [model, withSpread(headline.em, headline.em_2se), percent(headline.em_gap), withSpread(headline.mte.human.average, headline.mte.human.two_se), percent(headline.em_min), percent(headline.em_max)];
}

const overLanguages = (languages: string) => `EM × 100 over ${languages}, ± = 2 SE across languages, MTE from human translations`;
const localLanguages = (n: number) => `${n} local language${n === 1 ? '' : 's'}`;

/** The leaderboard of a run of several models: a row per model (by its label), in the order listed; none without a headline. */
export function modelsLeaderboardLines(models: ReadonlyArray<{ model: string; headline: HeadlineSummary | undefined }>): string[] {
  const scored = models.filter((m): m is { model: string; headline: HeadlineSummary } => m.headline !== undefined);
  if (scored.length === 0) return [];
  const counts = [...new Set(scored.map((m) => m.headline.languages))];
  const over = overLanguages(counts.length === 1 ? localLanguages(counts[0]!) : "each model's local languages");
  const lines = ['', `MultiLoKo leaderboard · ${scored.length} models · ${over}`];
  lines.push(...markdownTable(LEADERBOARD_HEADER, scored.map((m) => leaderboardRow(m.model, m.headline))).map((l) => `  ${l}`));
  const none = models.filter((m) => m.headline === undefined).map((m) => m.model);
  if (none.length > 0) lines.push(`  no row (no local subset scored): ${summariseList(none)}`);
  lines.push('');
  return lines;
}

function effectRow(name: string, kind: string, e: EffectFigures): string[] {
  return [
    name,
    kind,
    String(e.languages),
    withSpread(e.average, e.two_se),
    e.min === null ? '–' : `${percent(e.min)} (${e.min_language})`,
    e.max === null ? '–' : `${percent(e.max)} (${e.max_language})`,
  ];
}

export function headlineLines(headline: HeadlineSummary, context: HeadlineContext): string[] {
  const lines: string[] = [];
  if (context.leaderboard !== false) {
    lines.push(`MultiLoKo leaderboard · ${context.prompt} · ${overLanguages(localLanguages(headline.languages))}`);
    lines.push(...markdownTable(LEADERBOARD_HEADER, [leaderboardRow(context.model, headline)]).map((l) => `  ${l}`));
    lines.push('');
  }
  // Without its own leaderboard (several models), the model's tables name it.
  const whose = context.leaderboard === false ? ` · ${context.model} · ${context.prompt}` : '';
  lines.push(`MultiLoKo per language${whose} · EM and effects × 100 (MTE: local − translated into English; LE: local − English translated into the language)`);
  const rows = Object.entries(headline.per_language_em).map(([language, em]) => [
    language,
    percent(em),
    percent(headline.mte.human.per_language[language]),
    percent(headline.mte.machine.per_language[language]),
    percent(headline.le.human.per_language[language]),
    percent(headline.le.machine.per_language[language]),
  ]);
  lines.push(...markdownTable(['Language', 'EM', 'MTE human', 'MTE machine', 'LE human', 'LE machine'], rows).map((l) => `  ${l}`));
  lines.push('');
  lines.push('MultiLoKo effects · average ± 2 SE across languages, × 100');
  lines.push(
    ...markdownTable(
      ['Effect', 'Translation', 'Languages', 'Average', 'Min', 'Max'],
      [
        effectRow('MTE', 'human', headline.mte.human),
        effectRow('MTE', 'machine', headline.mte.machine),
        effectRow('LE', 'human', headline.le.human),
        effectRow('LE', 'machine', headline.le.machine),
      ],
      2,
    ).map((l) => `  ${l}`),
  );
  if (headline.unused_subsets.length > 0) lines.push(`  not in any figure: ${summariseList(headline.unused_subsets, String, 10)}`);
  lines.push('');
  return lines;
}
