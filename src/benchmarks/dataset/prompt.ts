// A dataset benchmark's prompt: a template with `{field}` slots (`{{` and `}}` stand for literal braces) or a function
// of the row; a completion prompt or chat messages; few-shot rows first, each answered with its first target.
import type { ChatMessage, GenerateRequest } from '../../models/types.ts';
import type { DatasetRow, PromptFunction } from './options.ts';

const SLOT = /\{\{|\}\}|\{([^{}]*)\}/gu;

class PromptTemplateError extends Error {
  constructor(template: string, detail: string) {
    super(`prompt template ${JSON.stringify(template.length > 80 ? `${template.slice(0, 77)}...` : template)}: ${detail}`);
    this.name = 'PromptTemplateError';
  }
}

/** The fields a template names, in order of first use; an empty slot or a stray brace is an error. */
export function templateSlots(template: string): string[] {
  const slots: string[] = [];
  for (const match of template.matchAll(SLOT)) {
    const name = match[1];
    if (name === undefined) continue;
    if (name.trim() === '') throw new PromptTemplateError(template, `an empty slot "{}" at character ${match.index}; write {{}} for literal braces`);
    if (!slots.includes(name)) slots.push(name);
  }
  const rest = template.replace(SLOT, '');
  if (/[{}]/u.test(rest)) throw new PromptTemplateError(template, 'an unmatched brace; write {{ or }} for a literal one');
  return slots;
}

/** The template with each slot replaced by the row's value (numbers and booleans as written). */
function fillTemplate(template: string, row: DatasetRow): string {
  return template.replace(SLOT, (whole, name: string | undefined) => (whole === '{{' ? '{' : whole === '}}' ? '}' : String(row[name!])));
}

export interface PromptSpec {
  prompt: string | PromptFunction;
  chat: boolean;
  system: string | undefined;
  /** Few-shot rows with the answer each shows. */
  shots: ReadonlyArray<{ row: DatasetRow; answer: string }>;
  shotSeparator: string;
}

function one(spec: PromptSpec, row: DatasetRow): string | ChatMessage[] {
  if (typeof spec.prompt === 'function') return spec.prompt(row);
  const text = fillTemplate(spec.prompt, row);
  return spec.chat ? [{ role: 'user', content: text }] : text;
}

/** The request's prompt or messages for `row`, few-shot rows first. */
export function renderPrompt(spec: PromptSpec, row: DatasetRow): Pick<GenerateRequest, 'prompt' | 'messages'> {
  const question = one(spec, row);
  if (typeof question === 'string') {
    const shots = spec.shots.map((s) => {
      const shown = one(spec, s.row);
      if (typeof shown !== 'string') throw new Error('the prompt function returned a string for one row and messages for another');
      return `${shown} ${s.answer}${spec.shotSeparator}`;
    });
    return { prompt: `${shots.join('')}${question}` };
  }
  const messages: ChatMessage[] = spec.system === undefined ? [] : [{ role: 'system', content: spec.system }];
  for (const s of spec.shots) {
    const shown = one(spec, s.row);
    if (typeof shown === 'string') throw new Error('the prompt function returned messages for one row and a string for another');
    messages.push(...shown, { role: 'assistant', content: s.answer });
  }
  messages.push(...question);
  return { messages };
}

/** The UTF-8 bytes of a rendered prompt's text (every message's content for chat messages): a data-only cost of the item. */
export function promptBytes(rendered: Pick<GenerateRequest, 'prompt' | 'messages'>): number {
  const text = rendered.prompt ?? (rendered.messages ?? []).map((m) => m.content).join('');
  return Buffer.byteLength(text, 'utf8');
}
