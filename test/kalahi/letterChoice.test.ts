// Kalahi MC as SEA-HELM's lettered question. The expected prompt is typed from SEA-HELM's
// seahelm_tasks/cultural/kalahi/config.yaml (v1.1, tl) as its dataloader assembles it (preamble with the answer tag,
// a blank line, the task template; stripped); the parsing cases follow its F1AccMetric/SeaHelmMetric by hand.
import { describe, expect, test } from 'vitest';
import { letterOptions, letterPrompt, parseLetter } from '../../src/benchmarks/kalahi/prompts/letterChoice.ts';
import { kalahiLetterRecord } from '../../src/benchmarks/kalahi/run/mcTask.ts';
import { KALAHI_LETTER_ROW as row } from '../support/kalahiLetterRow.ts';

describe('the lettered question', () => {
  test("SEA-HELM's prompt text, options as `A. text` lines", () => {
    const options = [
      { letter: 'A', kind: 'irrelevant' as const, index: 0, text: 'Umalis ng bahay.', best: false },
      { letter: 'B', kind: 'relevant' as const, index: 0, text: 'Kausapin ang magulang.', best: true },
    ];
    expect(letterPrompt(row, options)).toBe(
      'Piliin ang pinaka-angkop na sagot sa sumusunod na tanong.\n\nSumagot gamit ang sumusunod na format.\n"Sagot: ANSWER"\n' +
        'Palitan ang ANSWER gamit ang napiling sagot. Gumamit lang ng letrang A, B, C, o D sa sagot mo.\n\n' +
        'Tanong:\n```\nAno ang dapat kong gawin?\n\nA. Umalis ng bahay.\nB. Kausapin ang magulang.\n```',
    );
  });

  test('four options: the best answer and the first three irrelevant ones, in file order around the best', () => {
    const options = letterOptions(row);
    expect(options.map((o) => o.letter)).toEqual(['A', 'B', 'C', 'D']);
    expect(options.filter((o) => o.best).map((o) => o.text)).toEqual(['Kausapin ang magulang.']);
    expect(options.filter((o) => !o.best).map((o) => o.text)).toEqual(['Umalis ng bahay.', 'Huwag pansinin.', 'Magalit.']);
    // FNV-1a of "0101000100" is 0x2c8d2dd9... computed below by a second method: the place is hash mod 4.
    let hash = 2166136261n;
    for (const ch of '0101000100') hash = ((hash ^ BigInt(ch.charCodeAt(0))) * 16777619n) % 2n ** 32n;
    expect(options.findIndex((o) => o.best)).toBe(Number(hash % 4n));
  });

  test('places spread over the letters across ids', () => {
    const places = new Set(Array.from({ length: 40 }, (_, i) => letterOptions({ ...row, promptVariationId: String(1000 + i) }).findIndex((o) => o.best)));
    expect(places).toEqual(new Set([0, 1, 2, 3]));
  });
});

describe("SEA-HELM's answer parsing", () => {
  test.each([
    ['Sagot: B', 'B'],
    ['sagot: c', 'C'],
    ['**Sagot:** D', 'D'], // after the tag, spaces and asterisks are skipped
    ['Ang sagot ay B.\nSagot: **A**', 'A'],
    ['Sagot: AB', 'B'], // the repeated group keeps its last letter
    ['Sagot: Ang pinakamahusay', 'A'], // IGNORECASE: "Ang" starts with a letter label
    ['B', 'B'], // no tag: the whole reply, normalised
    [' (c). ', 'C'], // no tag: stripped, lower-cased, punctuation off both ends → "c"
    ['c d', null], // inner whitespace stays: "c d" is no label
    ['D.', 'D'],
    ['Ewan ko', null],
    ['', null],
  ])('%j → %j', (reply, expected) => {
    expect(parseLetter(reply)).toBe(expected);
  });
});

describe('MC1 of a lettered question', () => {
  test('1 when the reply names the best answer’s letter, 0 otherwise; no ranking figures', () => {
    const options = letterOptions(row);
    const best = options.find((o) => o.best)!.letter;
    const wrong = options.find((o) => !o.best)!.letter;
    const right = kalahiLetterRecord(row, options, `Sagot: ${best}`, { latencyMs: 1, cached: false });
    expect(right.normalised).toEqual({ mc1: 1, mc2: null, mc2_normalised: null, mc3: null, lprob_max: null, lprob_diff: null });
    expect(right.letter).toMatchObject({ answer: best, chosen: best });
    expect(right.preferred).toMatchObject({ best: true, score: null });
    const miss = kalahiLetterRecord(row, options, `Sagot: ${wrong}`, { latencyMs: 1, cached: false });
    expect(miss.normalised.mc1).toBe(0);
    expect(kalahiLetterRecord(row, options, 'Hindi ko alam', { latencyMs: 1, cached: false })).toMatchObject({ preferred: null, normalised: { mc1: 0 } });
  });
});
