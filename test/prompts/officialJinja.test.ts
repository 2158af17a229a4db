// The Jinja renderer must behave like upstream jinja_format: jinja2.Template(t, keep_trailing_newline=True).
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { renderOfficialJinja } from '../../src/benchmarks/multiloko/prompts/officialJinja.ts';
import { MULTILOKO_PROMPT_LANGUAGES, MULTILOKO_PROMPT_TABLE } from '../../src/benchmarks/multiloko/prompts/multilokoPromptTable.ts';
import { renderMultilokoPrompt } from '../../src/benchmarks/multiloko/prompts/renderMultilokoPrompt.ts';

describe('renderOfficialJinja: Jinja defaults, trailing newline kept', () => {
  test('no trim_blocks: the newline after a plain block tag stays', () => {
    // "{% for %}" emits nothing, each iteration emits "\n" + x, the final "\n" is kept → "\n1\n2\n".
    expect(renderOfficialJinja('{% for x in xs %}\n{{ x }}{% endfor %}\n', { xs: [1, 2] })).toBe('\n1\n2\n');
  });
  test('no lstrip_blocks: spaces before a block tag stay', () => {
    expect(renderOfficialJinja('  {% if t %}x{% endif %}', { t: true })).toBe('  x');
  });
  test('"-%}" removes all whitespace after the tag, as in the MultiLoKo templates', () => {
    // for-tag eats "\n" before "[", endfor eats "\n" before "b": "a\n" + "[1]\n" + "[2]\n" + "b".
    expect(renderOfficialJinja('a\n{% for x in xs -%}\n[{{ x }}]\n{% endfor -%}\nb', { xs: [1, 2] })).toBe('a\n[1]\n[2]\nb');
  });
  test('keep_trailing_newline: every trailing newline survives', () => {
    expect(renderOfficialJinja('{{ q }}\n\n', { q: 'Q' })).toBe('Q\n\n');
    expect(renderOfficialJinja('{{ q }}\n', { q: 'Q' })).toBe('Q\n');
    expect(renderOfficialJinja('{{ q }}', { q: 'Q' })).toBe('Q');
  });
  test('undefined variables render empty, subscripts read object fields', () => {
    expect(renderOfficialJinja('[{{ nope }}]{{ x["a"] }}', { x: { a: 'A' } })).toBe('[]A');
  });
});

// Second method: Python's jinja2 (the renderer upstream uses), when this machine has it.
const python = spawnSync('python3', ['-c', 'import jinja2, json, sys'], { encoding: 'utf8' });
const hasJinja2 = python.status === 0;

describe.skipIf(!hasJinja2)('every stored template renders as with Python jinja2 (runs only where python3 has jinja2)', () => {
  test('31 languages × (5-shot, 2-shot, zero-shot, chat) equal jinja2.Template(t, keep_trailing_newline=True)', () => {
    const question = 'Quale fiume attraversa Roma?';
    const outputType = 'un nome';
    const script = [
      'import json, sys',
      'from jinja2 import Template',
      'd = json.load(sys.stdin)',
      'out = {}',
      'for lang, p in d["languages"].items():',
      '    r = lambda t, **kw: Template(t, keep_trailing_newline=True).render(**kw)',
      `    q = ${JSON.stringify(question)}; t = ${JSON.stringify(outputType)}`,
      '    out[lang] = [r(p["fewshotTemplate"], question=q, output_type=t, few_shot=p["fewshotExamples"][0:5]),',
      '                 r(p["fewshotTemplate"], question=q, output_type=t, few_shot=p["fewshotExamples"][0:2]),',
      '                 r(p["fewshotTemplate"], question=q, output_type=t, few_shot=[]),',
      '                 r(p["chatTemplate"], question=q, output_type=t)]',
      'sys.stdout.write(json.dumps(out))',
    ].join('\n');
    const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(MULTILOKO_PROMPT_TABLE), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const expected = JSON.parse(run.stdout) as Record<string, string[]>;
    expect(Object.keys(expected)).toEqual([...MULTILOKO_PROMPT_LANGUAGES]);
    for (const language of MULTILOKO_PROMPT_LANGUAGES) {
      const item = { question, output_type: outputType };
      const base = (numShot: number) => renderMultilokoPrompt({ language, item, mode: 'base', numShot });
      const chat = renderMultilokoPrompt({ language, item, mode: 'chat' });
      const actual = [base(5), base(2), base(0)].map((r) => (r.mode === 'base' ? r.prompt : ''));
      actual.push(chat.mode === 'chat' ? chat.message : '');
      expect(actual, language).toEqual(expected[language]);
    }
  });
});
