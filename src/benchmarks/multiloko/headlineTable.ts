// The headline as the official README's leaderboard table (EM × 100, ± = 2 SE across languages), then one row per
// language and the mother tongue / locality effects for human and machine translations.
import type { EffectFigures, HeadlineSummary } from './headline.ts';
import { markdownTable } from '../../core/textTable.ts';
import { summariseList } from '../../data/errors.ts';

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
  lines.push(`MultiLoKo leaderboard · ${context.prompt} · EM × 100 over ${headline.languages} local language${headline.languages === 1 ? '' : 's'}, ± = 2 SE across languages, MTE from human translations`);
  lines.push(
    ...markdownTable(
      ['Model', 'Average EM', 'Gap', 'MTE', 'Min EM', 'Max EM'],
      [[context.model, withSpread(headline.em, headline.em_2se), percent(headline.em_gap), withSpread(headline.mte.human.average, headline.mte.human.two_se), percent(headline.em_min), percent(headline.em_max)]],
    ).map((l) => `  ${l}`),
  );
  lines.push('');
  lines.push('MultiLoKo per language · EM and effects × 100 (MTE: local − translated into English; LE: local − English translated into the language)');
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
