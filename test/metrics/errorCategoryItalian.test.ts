// Error categories on the real Italian dev set: answers made from its own targets (right, padded, cut, misspelt, swapped
// with another item's, transliterated into Cyrillic, left out), scored by `lokal score`'s code, and every item's
// category and the counts compared with a second, straightforward implementation written here from the rules.
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import { scoreMultiLoKoPredictions } from '../../src/benchmarks/multiloko/metrics/score.ts';
import type { PredictionRow } from '../../src/models/predictionRow.ts';
import { titleUnless } from '../support/sharedData.ts';
import { italianArchivePath } from './paths.ts';

const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Devanagari', 'Bengali', 'Tamil', 'Telugu', 'Gujarati', 'Kannada', 'Malayalam', 'Gurmukhi', 'Oriya', 'Sinhala', 'Thai', 'Lao', 'Khmer', 'Myanmar', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Georgian', 'Armenian', 'Ethiopic', 'Tibetan', 'Mongolian', 'Thaana', 'Syriac'];
const TESTS = SCRIPTS.map((s) => [s, new RegExp(`^\\p{Script=${s}}$`, 'u')] as const);

/** Letter by letter: the first listed script it belongs to, else "other"; the most frequent, ties to the earlier listed. */
function scriptOf(text: string): string | null {
  const counts = new Map<string, number>();
  for (const ch of text) {
    if (!/^\p{L}$/u.test(ch)) continue;
    const script = TESTS.find(([, re]) => re.test(ch))?.[0] ?? 'other';
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const script of [...SCRIPTS, 'other']) if ((counts.get(script) ?? 0) > (best === null ? 0 : counts.get(best)!)) best = script;
  return best;
}

function category(prediction: string, targets: string[], similarity: number): string {
  if (targets.some((t) => t === prediction)) return 'correct';
  if (prediction.length === 0) return 'empty';
  for (const t of targets) if (t.length > 0 && prediction.indexOf(t) >= 0) return 'verbose';
  for (const t of targets) if (t.indexOf(prediction) >= 0) return 'truncated';
  if (similarity >= 0.7) return 'near';
  const mine = scriptOf(prediction);
  const theirs = scriptOf(targets[0]!);
  return mine !== null && theirs !== null && mine !== theirs ? 'wrong_script' : 'wrong';
}

const CYRILLIC: Record<string, string> = { a: 'а', b: 'б', c: 'к', d: 'д', e: 'е', f: 'ф', g: 'г', i: 'и', l: 'л', m: 'м', n: 'н', o: 'о', p: 'п', r: 'р', s: 'с', t: 'т', u: 'у', v: 'в', z: 'з' };

describe.skipIf(!existsSync(italianArchivePath))(titleUnless('error categories on the Italian dev set', italianArchivePath), () => {
  test('every item\'s category and the counts agree with a second implementation', async () => {
    const dataset = await loadMultiLoKo(italianArchivePath, 'dev');
    const italian = dataset.subsets.find((s) => s.key === 'italian')!;
    const items = italian.items;
    const rows: PredictionRow[] = items.map((item, i) => {
      const target = item.targets[0]!;
      const answers = [
        target,
        `la risposta è ${target} credo`,
        target.slice(0, Math.max(1, Math.floor(target.length / 2))),
        target.length > 3 ? `${target.slice(0, -1)}x` : target,
        items[(i + 7) % items.length]!.targets[0]!,
        [...target.toLowerCase()].map((c) => CYRILLIC[c] ?? c).join(''),
        '',
      ];
      return { language: 'italian', id: item.id, prediction: answers[i % answers.length]!, line: i + 1 };
    });
    const scored = scoreMultiLoKoPredictions({ ...dataset, subsets: [italian] }, rows);
    const records = scored.languages[0]!.examples.map((e) => e.record as typeof e.record & { error: string });
    expect(records.length).toBe(items.length);
    const mine: Record<string, number> = {};
    const theirs: Record<string, number> = {};
    for (const r of records) {
      const expected = category(r.prediction as string, r.targets, r.edit_similarity);
      expect(r.error, JSON.stringify([r.prediction, r.targets])).toBe(expected);
      mine[expected] = (mine[expected] ?? 0) + 1;
      theirs[r.error] = (theirs[r.error] ?? 0) + 1;
    }
    expect(theirs).toEqual(mine);
    // The constructed answers reach every category.
    expect(Object.keys(mine).sort()).toEqual(['correct', 'empty', 'near', 'truncated', 'verbose', 'wrong', 'wrong_script']);
  });
});
