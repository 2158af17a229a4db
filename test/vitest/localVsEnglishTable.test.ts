// The local-vs-English rows of the terminal and of the step summary: counts worked out by hand from answers whose EM is
// known, equal to summary.local_vs_english and to a count over the results file's item records; p to 4 decimals.
import { describe, expect, test } from 'vitest';
import { localVsEnglishTableLines } from '../../src/benchmarks/multiloko/results/localVsEnglishTable.ts';
import { f1Words } from '../../src/benchmarks/multiloko/metrics/f1Words.ts';
import { wordSegmenter } from '../../src/benchmarks/multiloko/metrics/wordSegmenter.ts';
import { summariseGroups, summariseRun, officialLayout } from '../../src/benchmarks/multiloko/results/rollup.ts';
import type { RolledSubset } from '../../src/benchmarks/multiloko/run/rolledSubset.ts';
import { stepSummaryMarkdown } from '../../src/report/markdown.ts';
import type { MultiLoKoResultsJson } from '../../src/benchmarks/multiloko/resultsSchema.ts';
import { rolled } from '../support/scoredSubset.ts';
import { SECTIONS } from '../report/sections.ts';

const right = (word: string): [string, string[]] => [word, [word]];
const wrong = (word: string): [string, string[]] => [word, ['Marseille']];

/**
 * A subset through the real scoring, ids q0, q1, … so that a question and its translation pair up, each record with
 * its f1_words as the item test adds it; `options` override the key's languages and kind of translation.
 */
function subset(key: string, order: number, items: Array<[string, string[]]>, options: { translated?: boolean; translation?: 'human' | 'machine'; language?: string; questionLanguage?: string; sourceLanguage?: string } = {}): RolledSubset {
  const { translated = false, ...overrides } = options;
  const s = rolled(key, order, items, translated);
  const aggregate = { ...s.aggregate, ...overrides };
  const records = s.records.map((r, i) => ({ ...r, id: `q${i}`, scores: { ...r.scores, f1_words: f1Words(r.prediction, r.targets, wordSegmenter(aggregate.questionLanguage).segmenter) } }));
  return { aggregate, records };
}

// EM by hand (1: the answer is its target). Italian's own questions, then in English: q0 both, q1 and q4 Italian only,
// q2, q3, q5 neither.
const italian = subset('italian', 0, [right('Roma'), right('Napoli'), ['Giuseppe', ['Giuseppe Garibaldi']], wrong('Parigi'), right('Torino'), ['', ['Milano']]]);
const italianInEnglish = subset('italian_translated_human_english', 1, [right('Rome'), wrong('Naples'), wrong('Garibaldi'), wrong('Paris'), wrong('Turin'), wrong('Milan')], { translated: true });
// French: q4 both, q0–q3 English only.
const french = subset('french', 2, [wrong('Lyon'), wrong('Lyon'), wrong('Lyon'), wrong('Lyon'), right('Paris')]);
const frenchInEnglish = subset('french_translated_machine_english', 3, [right('Lyon'), right('Nice'), right('Lille'), right('Metz'), right('Paris')], { translated: true, translation: 'machine' });
// German: 16 questions right in English only.
const german = subset('german', 4, Array.from({ length: 16 }, () => wrong('Berlin')));
const germanInEnglish = subset('german_translated_human_english', 5, Array.from({ length: 16 }, (_, i) => right(`Stadt${i}`)), { translated: true });
// English questions: into Italian (Italian's row stays its own questions), into Spanish by machine only: q0 both, q1
// English only, q2 Spanish only, q3 neither.
const english = subset('english', 6, [right('London'), right('York'), wrong('Leeds'), wrong('Hull')]);
const englishInItalian = subset('english_translated_human_italian', 7, [right('Londra'), right('York'), right('Leeds'), wrong('Hull')], { translated: true, language: 'italian', sourceLanguage: 'english', questionLanguage: 'italian' });
const englishInSpanish = subset('english_translated_machine_spanish', 8, [right('Londres'), wrong('York'), right('Leeds'), wrong('Hull')], { translated: true, translation: 'machine', language: 'spanish', sourceLanguage: 'english', questionLanguage: 'spanish' });
const subsets = [italian, italianInEnglish, french, frenchInEnglish, german, germanInEnglish, english, englishInItalian, englishInSpanish];

function results(of: readonly RolledSubset[]): MultiLoKoResultsJson {
  const summary = summariseRun(of, summariseGroups(of), { outcomes: [], notApplied: [] }, { intervals: false });
  return JSON.parse(JSON.stringify({ ...officialLayout(of), summary })) as MultiLoKoResultsJson;
}

// [language, questions, paired, both, English only, local only, neither, p] by hand; p = min(1, 2·Σ_{i≤min(b,c)} C(b+c, i)/2^(b+c)).
const ROWS = [
  ['italian', 'own, human', 6, 1, 0, 2, 3, '0.5000'], // b 0, c 2: 2/4
  ['french', 'own, machine', 5, 1, 4, 0, 0, '0.1250'], // b 4, c 0: 2/16
  ['german', 'own, human', 16, 0, 16, 0, 0, '3.1e-5'], // b 16, c 0: 2/65536 = 3.05e-5
  ['spanish', 'English, machine', 4, 1, 1, 1, 1, '1.0000'], // b 1, c 1: 2·3/4, capped at 1
] as const;

describe('local vs English, terminal', () => {
  const file = results(subsets);
  const block = file.summary!.local_vs_english as Record<string, Record<string, Record<string, Record<string, number>>>>;

  test('the rows equal the hand counts, summary.local_vs_english and a count over the file\'s item records', () => {
    const lines = localVsEnglishTableLines(block as never);
    expect(lines[0]).toBe('MultiLoKo local vs English (questions paired by id, EM; all pairs: summary.local_vs_english)');
    expect(lines[1]).toMatch(/^ {2}right in both .* knows it but cannot say it$/u);
    expect(lines[2]!.trim().split(/\s{2,}/u)).toEqual(['language', 'questions', 'paired', 'both', 'English only', 'local only', 'neither', 'McNemar p']);
    const rows = lines.slice(3, -1).map((l) => l.trim().split(/\s{2,}/u));
    expect(lines.at(-1)).toBe('');
    expect(rows).toEqual(ROWS.map((r) => r.map(String)));
    const pairs = [
      ['italian', 'to_english', 'human', 'italian_translated_human_english', 'italian'],
      ['french', 'to_english', 'machine', 'french_translated_machine_english', 'french'],
      ['german', 'to_english', 'human', 'german_translated_human_english', 'german'],
      ['spanish', 'from_english', 'machine', 'english', 'english_translated_machine_spanish'],
    ] as const;
    pairs.forEach(([language, direction, kind, englishKey, localKey], i) => {
      const pair = block[language]![direction]![kind]!;
      const em = (key: string) => file[key] as Record<string, { em: number }>;
      const ids = Object.keys(em(localKey)).filter((id) => id.startsWith('q') && id in em(englishKey));
      const count = (e: number, l: number) => ids.filter((id) => em(englishKey)[id]!.em === e && em(localKey)[id]!.em === l).length;
      const counted = [ids.length, count(1, 1), count(1, 0), count(0, 1), count(0, 0)];
      expect([pair.paired, pair.both_right, pair.english_only, pair.local_only, pair.both_wrong], language).toEqual(counted);
      expect(rows[i]!.slice(2, 7).map(Number), language).toEqual(counted);
    });
    // Italian has English questions too: the row shows its own questions; that pair stays in the file.
    expect(block.italian!.from_english!.human).toMatchObject({ paired: 4, both_right: 2, english_only: 0, local_only: 1, both_wrong: 1 });
  });

  test('a run without a pair has no table', () => {
    expect(localVsEnglishTableLines(results([italian, french]).summary!.local_vs_english as never)).toEqual([]);
    expect(localVsEnglishTableLines(undefined)).toEqual([]);
  });
});

describe('local vs English, step summary', () => {
  test('the same rows as a Markdown table after the error categories', () => {
    const md = stepSummaryMarkdown({ benchmarks: { multiloko: results(subsets) } }, SECTIONS);
    expect(md).toContain('| Language | Questions | Paired | Both | English only | Local only | Neither | McNemar p |');
    for (const r of ROWS) expect(md).toContain(`| ${r.join(' | ')} |`);
    expect(md.indexOf('**Local vs English**')).toBeGreaterThan(md.indexOf('**Error categories**'));
    expect(md.indexOf('**Local vs English**')).toBeLessThan(md.indexOf('**Gates**'));
    expect(stepSummaryMarkdown({ benchmarks: { multiloko: results([italian, french]) } }, SECTIONS)).not.toContain('Local vs English');
  });

  test('F1 words × 100 per language: the mean of the items\' f1_words', () => {
    const md = stepSummaryMarkdown({ benchmarks: { multiloko: results(subsets) } }, SECTIONS);
    expect(md).toContain('| Language | Items | EM × 100 [95% Wilson] | F1 words × 100 |');
    // Italian: Roma, Napoli, Torino 1; "giuseppe" against "giuseppe garibaldi" 2·(1·½)/(1 + ½) = ⅔; two 0: (3 + ⅔)/6.
    expect(md).toMatch(/\n\| italian \| 6 \| 50\.00 \[[\d.]+, [\d.]+\] \| 61\.11 \|\n/u);
    expect(md).toMatch(/\n\| french \| 5 \| 20\.00 \[[\d.]+, [\d.]+\] \| 20\.00 \|\n/u);
    // Records without f1_words (older runs): no column.
    const old = subsets.map((s) => ({ ...s, records: s.records.map((r) => ({ ...r, scores: { ...r.scores, f1_words: undefined } })) })) as unknown as RolledSubset[];
    expect(stepSummaryMarkdown({ benchmarks: { multiloko: results(old) } }, SECTIONS)).toContain('| Language | Items | EM × 100 [95% Wilson] |\n');
  });
});
