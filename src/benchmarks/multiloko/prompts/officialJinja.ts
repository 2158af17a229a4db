// Jinja rendering with the official MultiLoKo settings (examples/utils.py `jinja_format`).
import { Environment, Interpreter, parse, tokenize } from '@huggingface/jinja';

// Parsed programs by template text (the table has 62 templates); rendering never mutates them, so reuse is safe.
const parsedTemplates = new Map<string, ReturnType<typeof parse>>();

/**
 * Renders `template` the way the MultiLoKo repository does:
 * `jinja2.Template(template, keep_trailing_newline=True).render(**variables)`, i.e. Jinja's defaults
 * trim_blocks=False and lstrip_blocks=False (only explicit `-%}` / `{%-` markers eat whitespace), and
 * a trailing newline of the template is kept.
 *
 * @huggingface/jinja's `Template` class hard-codes trim_blocks and lstrip_blocks to true (the
 * transformers chat-template settings), and its lexer always drops one trailing "\n" (Jinja's
 * keep_trailing_newline=False), so this goes through tokenize/parse/Interpreter directly and appends
 * one "\n" for the lexer to drop.
 *
 * Undefined variables render as the empty string, as in Jinja's default `Undefined`.
 */
export function renderOfficialJinja(template: string, variables: Record<string, unknown>): string {
  let program = parsedTemplates.get(template);
  if (program === undefined) {
    const source = template.endsWith('\n') ? `${template}\n` : template;
    program = parse(tokenize(source, { lstrip_blocks: false, trim_blocks: false }));
    if (parsedTemplates.size >= 256) parsedTemplates.clear();
    parsedTemplates.set(template, program);
  }
  const env = new Environment();
  for (const [name, value] of Object.entries(variables)) env.set(name, value);
  const result = new Interpreter(env).run(program);
  return String(result.value);
}
