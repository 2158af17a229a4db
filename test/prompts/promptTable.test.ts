// The stored prompt table: exactly the upstream text plus the listed fixes, and free of the typos the fixes target.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  MULTILOKO_PROMPT_LANGUAGES,
  MULTILOKO_PROMPT_TABLE,
  parseMultilokoPromptTable,
  type MultilokoPromptFix,
} from '../../src/benchmarks/multiloko/prompts/multilokoPromptTable.ts';

const UPSTREAM = new URL('../../../shared/data/multiloko/official_prompts.json', import.meta.url);
const FIXES_MD = new URL('../../src/benchmarks/multiloko/prompts/FIXES.md', import.meta.url);

// The 31 folder names of the benchmark (README / FA_TOKENS of examples/prompts.py), in FA_TOKENS order.
const LANGUAGES = [
  'arabic', 'bengali', 'cantonese', 'czech', 'dutch', 'english', 'french', 'hebrew', 'hindi', 'italian',
  'indonesian', 'farsi', 'german', 'japanese', 'khmer', 'korean', 'malay', 'marathi', 'polish', 'portuguese',
  'romanian', 'russian', 'simplified_mandarin', 'spanish', 'swedish', 'tagalog', 'thai', 'traditional_mandarin',
  'turkish', 'vietnamese', 'urdu',
];

interface Upstream {
  fa_tokens: Record<string, [string, string]>;
  fewshot_templates: Record<string, string>;
  fewshot_examples: Record<string, Array<{ question: string; answer: string; output_type: string }>>;
  chat_templates: Record<string, string>;
}
type Side = { questionToken: string; answerToken: string; fewshotTemplate: string; chatTemplate: string;
  fewshotExamples: Array<Record<string, string>> };

function upstreamAsTable(upstream: Upstream): Record<string, Side> {
  const out: Record<string, Side> = {};
  for (const language of Object.keys(upstream.fa_tokens)) {
    out[language] = {
      questionToken: upstream.fa_tokens[language]![0],
      answerToken: upstream.fa_tokens[language]![1],
      fewshotTemplate: upstream.fewshot_templates[language]!,
      chatTemplate: upstream.chat_templates[language]!,
      fewshotExamples: structuredClone(upstream.fewshot_examples[language]!),
    };
  }
  return out;
}

function applyFix(table: Record<string, Side>, fix: MultilokoPromptFix): void {
  const side = table[fix.language]!;
  const [head, index, field] = fix.field.split('.');
  const read = (): string =>
    head === 'fewshotExamples' ? side.fewshotExamples[Number(index)]![field!]! : (side[head as keyof Side] as string);
  const value = read();
  const occurrences = value.split(fix.before).length - 1;
  expect(occurrences, `${fix.language} ${fix.field}: "${fix.before}"`).toBe(fix.occurrences);
  const next = value.split(fix.before).join(fix.after);
  if (head === 'fewshotExamples') side.fewshotExamples[Number(index)]![field!] = next;
  else (side as unknown as Record<string, string>)[head!] = next;
}

// Jinja markup replaced by a space, so only the literal text remains.
const literalText = (template: string) => template.replace(/\{\{.*?\}\}|\{%.*?%\}/gsu, ' ');
// An ASCII letter touching a character of a non-Latin script: the "stray c" kind of typo.
function strayLatinLetters(text: string): string[] {
  const found: string[] = [];
  const chars = [...literalText(text)];
  const foreign = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;
  chars.forEach((char, i) => {
    if (/[A-Za-z]/.test(char) && (foreign.test(chars[i - 1] ?? '') || foreign.test(chars[i + 1] ?? ''))) {
      found.push(chars.slice(Math.max(0, i - 3), i + 4).join(''));
    }
  });
  return found;
}
// Problems of the Jinja expressions of a few-shot template: anything but the five known variables, or a lone brace.
function templateProblems(template: string, allowed: string[]): string[] {
  const problems: string[] = [];
  for (const match of template.matchAll(/\{\{\s*(.*?)\s*\}\}/gsu)) {
    if (!allowed.includes(match[1]!)) problems.push(`expression {{ ${match[1]} }}`);
  }
  if (/[{}]/u.test(literalText(template))) problems.push('a brace outside Jinja markup');
  const loop = /\{%-?\s*for x in few_shot\s*-?%\}(.*?)\{%-?\s*endfor/su.exec(template);
  if (loop !== null) {
    for (const match of loop[1]!.matchAll(/\{\{\s*(.*?)\s*\}\}/gsu)) {
      if (!match[1]!.startsWith('x[')) problems.push(`loop body uses ${match[1]} instead of x[...]`);
    }
  }
  return problems;
}
const FEWSHOT_VARIABLES = ['question', 'output_type', 'x["question"]', 'x["answer"]', 'x["output_type"]'];
const CHAT_VARIABLES = ['question', 'output_type'];

function tableProblems(table: Record<string, Side>): string[] {
  const problems: string[] = [];
  for (const [language, side] of Object.entries(table)) {
    for (const [name, text] of [['questionToken', side.questionToken], ['answerToken', side.answerToken],
      ['fewshotTemplate', side.fewshotTemplate], ['chatTemplate', side.chatTemplate]] as const) {
      for (const stray of strayLatinLetters(text)) problems.push(`${language} ${name}: stray letter in "${stray}"`);
    }
    for (const p of templateProblems(side.fewshotTemplate, FEWSHOT_VARIABLES)) problems.push(`${language} fewshot: ${p}`);
    for (const p of templateProblems(side.chatTemplate, CHAT_VARIABLES)) problems.push(`${language} chat: ${p}`);
    if (literalText(side.fewshotTemplate).split('\n').some((line) => /^\s*[A-Za-z]\s*$/u.test(line))) {
      problems.push(`${language} fewshot: a line with a lone letter`);
    }
    // Japanese writes the full stop 。, Korean the ASCII period (both as in their chat templates).
    if (language === 'japanese' && /\p{Script=Hiragana}\./u.test(side.fewshotTemplate)) problems.push('japanese fewshot: ASCII full stop');
    if (language === 'korean' && side.fewshotTemplate.includes('。')) problems.push('korean fewshot: CJK full stop');
    // Each token ends with its colon and starts two template lines (demonstration and query).
    for (const token of [side.questionToken, side.answerToken]) {
      if (!/[:：៖]$/u.test(token)) problems.push(`${language}: token "${token}" does not end with a colon`);
      const lineStarts = side.fewshotTemplate.split('\n').filter((line) => line.startsWith(token)).length;
      if (lineStarts !== 2) problems.push(`${language}: token "${token}" starts ${lineStarts} template lines, not 2`);
    }
    side.fewshotExamples.forEach((example, i) => {
      for (const [field, value] of Object.entries(example)) {
        if (value !== value.trim()) problems.push(`${language} example ${i + 1} ${field}: surrounding whitespace`);
        if (language !== 'khmer' && value.includes('\u200b')) problems.push(`${language} example ${i + 1} ${field}: U+200B`);
      }
    });
  }
  return problems;
}

describe('the stored prompt table', () => {
  test('has the 31 MultiLoKo languages in FA_TOKENS order, five examples each', () => {
    expect(MULTILOKO_PROMPT_LANGUAGES).toEqual(LANGUAGES);
    for (const language of LANGUAGES) {
      expect(MULTILOKO_PROMPT_TABLE.languages[language]!.fewshotExamples, language).toHaveLength(5);
    }
  });

  test('has none of the typos the structural checks look for', () => {
    expect(tableProblems(MULTILOKO_PROMPT_TABLE.languages as Record<string, Side>)).toEqual([]);
  });

  test('names its source', () => {
    expect(MULTILOKO_PROMPT_TABLE.source).toContain('facebookresearch/multiloko');
    expect(MULTILOKO_PROMPT_TABLE.source).toContain('4f4de60');
  });

  test('FIXES.md lists every fix of the table, in order, naming its language', () => {
    const rows = readFileSync(FIXES_MD, 'utf8').split('\n').filter((line) => /^\| \d+ \|/.test(line));
    expect(rows).toHaveLength(MULTILOKO_PROMPT_TABLE.fixes.length);
    MULTILOKO_PROMPT_TABLE.fixes.forEach((fix, i) => {
      expect(rows[i]!.startsWith(`| ${i + 1} | ${fix.language} |`), rows[i]).toBe(true);
    });
  });

  test('a malformed table is rejected naming the file and the field', () => {
    const broken = structuredClone(MULTILOKO_PROMPT_TABLE) as { languages: Record<string, Record<string, unknown>> };
    delete broken.languages.italian!.chatTemplate;
    expect(() => parseMultilokoPromptTable(JSON.stringify(broken), 'prompts.json')).toThrow(
      /prompts\.json field "languages\.italian\.chatTemplate"/,
    );
    expect(() => parseMultilokoPromptTable('{', 'prompts.json')).toThrow(/prompts\.json: not valid JSON/);
  });
});

describe.skipIf(!existsSync(UPSTREAM))('against the upstream extraction (runs only where ../shared/data/multiloko/official_prompts.json exists)', () => {
  const upstream = () => JSON.parse(readFileSync(UPSTREAM, 'utf8')) as Upstream;

  test('stored table = upstream text with exactly the listed fixes applied', () => {
    const table = upstreamAsTable(upstream());
    for (const fix of MULTILOKO_PROMPT_TABLE.fixes) applyFix(table, fix);
    expect(table).toEqual(MULTILOKO_PROMPT_TABLE.languages);
  });

  test('the structural checks find the upstream typos (so they can fail)', () => {
    const problems = tableProblems(upstreamAsTable(upstream()));
    // Each of these is one of the fixes: stray letters (khmer token, arabic, bengali ×3, traditional_mandarin),
    // the unknown/quoted/unbraced variables, the Italian and Spanish loop bodies, the token mismatches.
    for (const expected of [
      'khmer questionToken: stray letter',
      'arabic fewshotTemplate: stray letter',
      'bengali chatTemplate: stray letter',
      'traditional_mandarin fewshotTemplate: stray letter',
      'turkish fewshot: expression {{ "output_type" }}',
      'farsi chat: expression {{ answer_type }}',
      'simplified_mandarin fewshot: a brace outside Jinja markup',
      'italian fewshot: loop body uses output_type',
      'spanish fewshot: loop body uses output_type',
      'khmer: token "សំណួរ៖c" starts 0 template lines',
      'cantonese: token "問題：" starts 1 template lines',
      'cantonese: token "答案:" starts 0 template lines',
      'hebrew: token "שאלה" does not end with a colon',
      'hebrew: token "תשובה" does not end with a colon',
      'english example 5 question: U+200B',
      'cantonese fewshot: a line with a lone letter',
      'japanese fewshot: ASCII full stop',
      'korean fewshot: CJK full stop',
      'arabic example 2 question: surrounding whitespace',
    ]) {
      expect(problems.some((p) => p.startsWith(expected)), expected).toBe(true);
    }
  });
});
