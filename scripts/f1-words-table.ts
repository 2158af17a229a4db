// Where f1_words and eval.py's f1 differ, per script, on real MultiLoKo text (the tables in docs/multiloko.md):
//   npx tsx scripts/f1-words-table.ts <benchmark_data folder or benchmark_data.tar.xz.enc>
// 1. The dev questions of every language the dataset holds: each target of an item with several targets scored as the
//    prediction against the item's other targets (accepted answers graded against each other).
// 2. The official prompts' five few-shot answers per language (all 31, as this package stores them): each answer's first
//    word (ICU) scored as the prediction against the whole answer — a probe of partial answers, not a model's predictions.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadMultiLoKo } from '../src/benchmarks/multiloko/data/multiloko.ts';
import { normalizeAnswer } from '../src/metrics/normalizeAnswer.ts';
import { tokenF1 } from '../src/metrics/tokenF1.ts';
import { f1Words, wordTokens } from '../src/benchmarks/multiloko/metrics/f1Words.ts';
import { wordSegmenter } from '../src/benchmarks/multiloko/metrics/wordSegmenter.ts';
import { contentLanguage } from '../src/benchmarks/multiloko/data/subsetKey.ts';
import { pythonSplit } from '../src/core/python/pythonWhitespace.ts';

const SCRIPTS: Record<string, string> = {
  arabic: 'Arabic', farsi: 'Arabic', urdu: 'Arabic', hebrew: 'Hebrew', hindi: 'Devanagari', marathi: 'Devanagari',
  bengali: 'Bengali', russian: 'Cyrillic', simplified_mandarin: 'Han', traditional_mandarin: 'Han', cantonese: 'Han',
  japanese: 'Japanese', korean: 'Hangul', thai: 'Thai', khmer: 'Khmer',
};
const scriptOf = (language: string) => SCRIPTS[language] ?? 'Latin';

interface Row { pairs: number; differ: number; f1: number; words: number; tokens: number; wordCount: number; examples: string[] }
const rows = new Map<string, Row>();
function add(script: string, pred: string, targets: string[], language: string): void {
  const row = rows.get(script) ?? { pairs: 0, differ: 0, f1: 0, words: 0, tokens: 0, wordCount: 0, examples: [] };
  rows.set(script, row);
  const seg = wordSegmenter(language).segmenter;
  const a = tokenF1(pred, targets);
  const b = f1Words(pred, targets, seg);
  row.pairs++;
  row.f1 += a;
  row.words += b;
  // Whitespace tokens and words of the answers graded against (mean over targets).
  for (const t of targets) {
    row.tokens += pythonSplit(t).length / targets.length;
    row.wordCount += wordTokens(t, seg).length / targets.length;
  }
  if (a !== b) {
    row.differ++;
    if (row.examples.length < 3) row.examples.push(`${language}: \`${pred}\` vs \`${targets.join(' | ')}\`: f1 ${a.toFixed(3)}, f1_words ${b.toFixed(3)} (words ${wordTokens(pred, seg).join('·')})`);
  }
}

function print(title: string): void {
  console.log(`\n${title}\n\n| script | pairs | differ | mean f1 | mean f1_words | whitespace tokens per target | words per target |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |`);
  for (const [script, r] of [...rows].sort((x, y) => y[1].pairs - x[1].pairs)) {
    console.log(`| ${script} | ${r.pairs} | ${r.differ} | ${(r.f1 / r.pairs).toFixed(3)} | ${(r.words / r.pairs).toFixed(3)} | ${(r.tokens / r.pairs).toFixed(2)} | ${(r.wordCount / r.pairs).toFixed(2)} |`);
  }
  for (const [script, r] of rows) for (const e of r.examples) console.log(`- ${script}: ${e}`);
  rows.clear();
}

const [data] = process.argv.slice(2);
if (!data) throw new Error('usage: npx tsx scripts/f1-words-table.ts <benchmark_data folder or benchmark_data.tar.xz.enc>');
const prompts = fileURLToPath(new URL('../src/benchmarks/multiloko/prompts/multiloko/prompts.json', import.meta.url));

const dataset = await loadMultiLoKo(data, 'dev');
let items = 0;
for (const subset of dataset.subsets) {
  const language = contentLanguage(subset.key);
  for (const item of subset.items) {
    items++;
    const targets = item.targets.map(normalizeAnswer);
    if (targets.length < 2) continue;
    for (let k = 0; k < targets.length; k++) add(scriptOf(language), targets[k]!, targets.filter((_, j) => j !== k), language);
  }
}
print(`1. Accepted answers against each other: ${dataset.subsets.map((s) => s.key).join(', ')} (${items} items)`);

const official = JSON.parse(readFileSync(prompts, 'utf8')) as { languages: Record<string, { fewshotExamples: Array<{ answer: string }> }> };
for (const [language, { fewshotExamples }] of Object.entries(official.languages)) {
  for (const { answer } of fewshotExamples) {
    const target = normalizeAnswer(answer);
    const first = wordTokens(target, wordSegmenter(language).segmenter)[0];
    if (first !== undefined) add(scriptOf(language), first, [target], language);
  }
}
print(`2. First word of each official few-shot answer against the whole answer (${Object.keys(official.languages).length} languages)`);
