// `lokal kalahi score` on a small self-written Kalahi CSV: replies stripped, last reply of a repeated id scored, missing
// and unknown ids reported; summaries equal the kalahi metric module's own scoreKalahiResponses.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { loadKalahi } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { scoreKalahiResponses } from '../../src/benchmarks/kalahi/metrics/index.ts';
import { scoreKalahiFiles } from '../../src/benchmarks/kalahi/results/score.ts';
import { REPO_ROOT } from '../vitest/helpers.ts';
import { lokalBin } from '../support/installedPackage.ts';

// The built package's bin, as users run it (test/support/installedPackage.ts).
const LOKAL_BIN = await lokalBin();

const dir = mkdtempSync(path.join(tmpdir(), 'lokal-kalahi-score-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const csv = path.join(dir, 'filipino.csv');
writeFileSync(
  csv,
  [
    'prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers',
    '0101000100,01010001,ethics,career and livelihood,"Estudyante ako.\nAnong gagawin ko?",Mag-aral nang mabuti,Mag-aral nang mabuti;Humingi ng payo sa guro!,Tumigil sa pag-aaral;Maglaro buong araw.',
    '0202000100,02020001,shared knowledge,food,"Ano ang adobo?",Isang ulam na may suka at toyo,Isang ulam na may suka at toyo;Pagkaing Pilipino na niluluto sa suka.,Isang uri ng tinapay;Isang inumin',
    '0303000100,03030001,ethics,family,"Paano igalang ang magulang?",Magmano at makinig,Magmano at makinig;Sumunod sa kanilang payo,Sigawan sila;Huwag pansinin',
  ].join('\n') + '\n',
);
const responses = path.join(dir, 'responses.jsonl');
const lines = [
  { prompt_variation_id: '0101000100', response: '  Mag-aral ka nang mabuti at humingi ng payo.\n' },
  { prompt_variation_id: '0202000100', response: 'Isang inumin.' },
  { prompt_variation_id: '9999999999', response: 'walang ganito' },
  { prompt_variation_id: '0202000100', response: 'Ang adobo ay ulam na may suka at toyo.' },
];
writeFileSync(responses, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');

describe('scoreKalahiFiles', () => {
  test('per reply: the shared scoring of the stripped reply; problems listed', async () => {
    const out = await scoreKalahiFiles(csv, responses, { bertscoreModel: 'off', bleurtModel: 'off', env: {} });
    const rows = (await loadKalahi(csv)).rows;
    expect(out.records.map((r) => [r.prompt_variation_id, r.response])).toEqual([
      ['0101000100', 'Mag-aral ka nang mabuti at humingi ng payo.'],
      ['0202000100', 'Ang adobo ay ulam na may suka at toyo.'],
    ]);
    // ROUGE-1 by hand: the stripped reply tokenises to mag aral ka nang mabuti at humingi ng payo (9 tokens);
    // "Mag-aral nang mabuti." has 4 tokens, all shared: P 4/9, R 1; "Humingi ng payo sa guro!." has 5, 3 shared:
    // P 3/9, R 3/5; neither irrelevant answer shares a token. F = ((2·P)·R)/(P + R).
    const rouge1 = out.records[0]!.metrics.rouge1!;
    const first = ((2 * (4 / 9)) * 1) / (4 / 9 + 1); // 8/13 up to the last bit
    expect(rouge1.relevant).toEqual([first, ((2 * (3 / 9)) * (3 / 5)) / (3 / 9 + 3 / 5)]);
    expect(rouge1).toMatchObject({ irrelevant: [0, 0], max: first, diff: first - 0, acc: 1 });
    expect(rows[0]!.relevantAnswers).toEqual(['Mag-aral nang mabuti.', 'Humingi ng payo sa guro!.']);
    expect(out.problems).toEqual({
      missing: ['0303000100'],
      unknown_ids: [{ prompt_variation_id: '9999999999', line: 3 }],
      duplicates: [{ prompt_variation_id: '0202000100', lines: [2, 4] }],
    });
    expect(out.settings).toMatchObject({ chrf: 'chrF', rougeL: 'rougeLsum', learned: { bertscore: { model: 'off', computed: false }, bleurt: { model: 'off', computed: false } } });
    expect(out.table).toMatchObject({ BLEURT: null, BERTScore: null });
  });

  test('summaries equal scoreKalahiResponses (the metric module’s own aggregation), overall and per category', async () => {
    for (const chrfPlusPlus of [false, true]) {
      const out = await scoreKalahiFiles(csv, responses, { bertscoreModel: 'off', bleurtModel: 'off', chrfPlusPlus, env: {} });
      const dataset = await loadKalahi(csv);
      const replies = lines.map((l, i) => ({ ...l, response: l.response.trim(), line: i + 1 }));
      const reference = scoreKalahiResponses(dataset.rows, replies, { chrfWordOrder: chrfPlusPlus ? 2 : 0 });
      expect(out.settings.chrf).toBe(chrfPlusPlus ? 'chrF++' : 'chrF');
      for (const [metric, summary] of Object.entries(reference.summary.metrics)) {
        expect(out.generation!.metrics[metric as 'bleu'], metric).toEqual({ acc: summary.acc, max: summary.maxMean, diff: summary.diffMean });
      }
      for (const [category, group] of Object.entries(reference.byCategory)) {
        expect(out.by_category[category]!.generation?.scored ?? 0).toBe(group.scored);
        for (const [metric, summary] of Object.entries(group.metrics)) {
          if (group.scored > 0) expect(out.by_category[category]!.generation!.metrics[metric as 'bleu']!.acc).toBe(summary.acc);
        }
      }
    }
  });

  test('the CLI writes the same JSON', async () => {
    const file = path.join(dir, 'out.json');
    const env = { ...process.env, LOKAL_BERTSCORE_MODEL: 'off', LOKAL_BLEURT_MODEL: 'off' };
    const run = await promisify(execFile)(process.execPath, [LOKAL_BIN, 'kalahi', 'score', '-i', csv, '-r', responses, '-o', file], { cwd: REPO_ROOT, env });
    const expected = await scoreKalahiFiles(csv, responses, { bertscoreModel: 'off', bleurtModel: 'off', env: {} });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(JSON.stringify(expected)));
    // With -o the terminal gets the table: the file's acc figures, all prompts and per category, and what was not scored.
    const rows = run.stdout.split('\n').map((l) => l.trim().split(/\s{2,}/u));
    expect(run.stdout).toContain(`Kalahi · full · 2 of 3 prompts scored · ${responses}`);
    expect(rows.find((r) => r[0] === 'generation (acc)')).toEqual(['generation (acc)', 'replies', 'BLEURT', 'BERTScore', 'BLEU', 'ChrF', 'METEOR', 'ROUGE-1', 'ROUGE-2', 'ROUGE-L']);
    const shown = (values: Record<string, number | null>) => Object.values(values).map((v) => (v === null ? '–' : v.toFixed(4)));
    expect(rows.find((r) => r[0] === 'all')).toEqual(['all', '2', ...shown(expected.table!)]);
    expect(rows.find((r) => r[0] === 'shared knowledge')).toEqual(['shared knowledge', '1', ...shown(expected.by_category['shared knowledge']!.table!)]);
    expect(run.stdout).toContain('BLEURT not computed: ');
    expect(run.stdout).toContain(`1 prompt without a reply; 1 reply for no prompt of the CSV; 1 prompt answered more than once (the last reply scored) (listed under "problems" in ${file})`);
    expect(run.stderr).toContain(`lokal kalahi score: wrote ${file}`);
  });
});
