// Replay files with a `trial` field per row: trial t of an item answers from its row of that trial, rows without the
// field are trial 0, a trial the file lacks is missing, and a bad `trial` value is named in one line.
import { describe, expect, test } from 'vitest';
import { parsePredictionsJsonl } from '../../src/models/predictions.ts';
import { ReplayProvider } from '../../src/models/replay.ts';

describe('replay trials', () => {
  const rows = parsePredictionsJsonl(
    [
      { language: 'italian', id: 1, prediction: 'Roma' },
      { language: 'italian', id: 1, prediction: 'Milano', trial: 1 },
      { language: 'italian', id: 1, prediction: 'Roma!', trial: 2 },
      { language: 'italian', id: 2, prediction: 'Napoli', trial: 0 },
    ].map((row) => JSON.stringify(row)).join('\n'),
    'p.jsonl',
  );
  const replay = new ReplayProvider('p.jsonl', rows);

  test('each trial answers from its own row; a missing trial is missing', async () => {
    const answers = await replay.generate([0, 1, 2, 3].map((t) => ({ prompt: '', itemKey: 'multiloko/italian/1', ...(t > 0 ? { trial: t } : {}) })));
    expect(answers.map((a) => [a.text, a.missing])).toEqual([['Roma', false], ['Milano', false], ['Roma!', false], ['', true]]);
    expect(replay.answer('multiloko/italian/2', 0).text).toBe('Napoli');
    expect(replay.answer('multiloko/italian/2', 1).missing).toBe(true);
  });

  test('a trial that is not an integer ≥ 0 is named with its line', () => {
    for (const trial of [-1, 1.5, '2', null]) {
      expect(() => parsePredictionsJsonl(JSON.stringify({ language: 'italian', id: 1, prediction: 'x', trial }), 'p.jsonl')).toThrow(/p\.jsonl.*trial.*expected an integer ≥ 0/u);
    }
    expect(parsePredictionsJsonl(JSON.stringify({ language: 'italian', id: 1, prediction: 'x' }), 'p.jsonl')[0]).not.toHaveProperty('trial');
  });
});
