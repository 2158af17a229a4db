// Golden prompts written by hand from the official templates (examples/prompts.py), and structural checks for all 31.
import { describe, expect, test } from 'vitest';
import { MULTILOKO_PROMPT_LANGUAGES, multilokoLanguagePrompts } from '../../src/benchmarks/multiloko/prompts/multilokoPromptTable.ts';
import {
  renderMultilokoPrompt,
  type RenderMultilokoPromptOptions,
  type RenderedMultilokoBasePrompt,
  type RenderedMultilokoChatPrompt,
} from '../../src/benchmarks/multiloko/prompts/renderMultilokoPrompt.ts';

function base(options: Omit<RenderMultilokoPromptOptions, 'mode'>): RenderedMultilokoBasePrompt {
  const rendered = renderMultilokoPrompt({ ...options, mode: 'base' });
  if (rendered.mode !== 'base') throw new Error('expected a base prompt');
  return rendered;
}
function chat(options: Omit<RenderMultilokoPromptOptions, 'mode'>): RenderedMultilokoChatPrompt {
  const rendered = renderMultilokoPrompt({ ...options, mode: 'chat' });
  if (rendered.mode !== 'chat') throw new Error('expected a chat prompt');
  return rendered;
}

// Reading guide for the goldens: "{% for x in few_shot -%}" drops the newline that follows it, so each
// demonstration starts right at its first line; "{% endfor -%}" drops the newlines before the query block.
describe('golden base prompts (few-shot completion)', () => {
  test('english, official five shots', () => {
    const r = base({ language: 'english', item: { question: 'What is the capital of Italy?', output_type: 'a city' } });
    expect(r.prompt).toBe(
      'Answer the given question as concisely as possible.\n\n' +
        'Q: What is the human life expectancy in the United States in 2019? Produce only a number.\nA: 78\n\n' +
        'Q: Who was president of the United States in 1955? Produce only a name.\nA: Dwight D. Eisenhower\n\n' +
        'Q: What is the square root of four? Produce only a Number.\nA: 2\n\n' +
        'Q: When was Benito Mussolini born? Produce only a date.\nA: July 29, 1883\n\n' +
        'Q: When were the Olympics held in Barcelona, Spain? Produce only a year.\nA: 1992\n\n' +
        'Q: What is the capital of Italy? Produce only a city.\nA:',
    );
    expect(r.stop).toEqual(['Q:', '\n\n']);
    expect(r.fewshot).toEqual({ source: 'official', count: 5 });
  });

  test('italian, official five shots, each labelled with its own type (fix 14)', () => {
    const r = base({ language: 'italian', item: { question: 'Quando è nato Dante Alighieri?', output_type: 'una data' } });
    const instruction = 'Rispondi alla seguente domanda in modo chiaro e conciso.\n';
    expect(r.prompt).toBe(
      instruction + 'D: Quando si festeggia Ferragosto? Produci solo risposte del seguente tipo: data.\nR: 15 agosto\n\n' +
        instruction + "D: Quando ha vinto l'Italia per l'ultima volta i mondiali di calcio? Produci solo risposte del seguente tipo: data.\nR: 2006\n\n" +
        instruction + "D: Quale moneta aveva l'Italia prima dell'euro? Produci solo risposte del seguente tipo: nome.\nR: Lira\n\n" +
        instruction + 'D: Come si chiama il primo Presidente della Repubblica italiana? Produci solo risposte del seguente tipo: nome.\nR: Enrico De Nicola\n\n' +
        instruction + 'D: Quando è la Festa della Repubblica in Italia? Produci solo risposte del seguente tipo: data.\nR: 2 giugno\n\n' +
        'D: Quando è nato Dante Alighieri? Produci solo risposte del seguente tipo: una data.\nR:',
    );
    expect(r.stop).toEqual(['D:', '\n\n']);
  });

  test('russian, dataset shots (answer: `answer`, else targets[0]); the template starts with a newline', () => {
    const r = base({
      language: 'russian',
      item: { id: 'q1', question: 'Кто написал «Войну и мир»?', output_type: 'имя' },
      fewshot: [
        { id: 'f1', question: 'Столица России?', targets: ['Москва', 'город Москва'], output_type: 'город' },
        { id: 'f2', question: 'Сколько дней в неделе?', answer: '7', targets: ['семь'], output_type: 'число' },
      ],
    });
    expect(r.prompt).toBe(
      '\nВопрос: Столица России? Дай ответ в формате: город.\nОтвет: Москва\n\n' +
        'Вопрос: Сколько дней в неделе? Дай ответ в формате: число.\nОтвет: 7\n\n' +
        'Вопрос: Кто написал «Войну и мир»? Дай ответ в формате: имя.\nОтвет:',
    );
    expect(r.stop).toEqual(['Вопрос:', '\n\n']);
    expect(r.fewshot).toEqual({ source: 'dataset', count: 2 });
  });

  test('japanese, two official shots, full stops 。 throughout (fix 9)', () => {
    const r = base({ language: 'japanese', item: { question: '日本の首都はどこですか？', output_type: '場所' }, numShot: 2 });
    expect(r.prompt).toBe(
      '質問：日本で一番高い山はなんですか？名前だけを答えてください。\n回答：富士山\n\n' +
        '質問：富士急ハイランドはどこにありますか？場所だけを答えてください。\n回答：山梨県富士吉田市\n\n' +
        '質問：日本の首都はどこですか？場所だけを答えてください。\n回答：',
    );
    expect(r.stop).toEqual(['質問：', '\n\n']);
    expect(r.fewshot).toEqual({ source: 'official', count: 2 });
  });

  test('arabic, zero-shot: only the query block, after the template\'s leading newline', () => {
    const r = base({ language: 'arabic', item: { question: 'ما هي عاصمة مصر؟', output_type: 'اسم' }, fewshot: 'none' });
    expect(r.prompt).toBe(
      '\nيرجى الإجابة عن السؤال التالي بإيجاز قدر الإمكان. يجب أن تكون الإجابة في شكل اسم.\nالسؤال: ما هي عاصمة مصر؟\nالإجابة:',
    );
    expect(r.stop).toEqual(['السؤال:', '\n\n']);
    expect(r.fewshot).toEqual({ source: 'none', count: 0 });
  });

  test('thai, one official shot', () => {
    const r = base({ language: 'thai', item: { question: 'เมืองหลวงของประเทศไทยคืออะไร', output_type: 'คำ' }, numShot: 1 });
    expect(r.prompt).toBe(
      '\nช่วยตอบคำถามนี้แบบสั้นๆ หน่อย\nคำถาม: มนุษย์คนแรกเหยียบดวงจันทร์ในปี ค.ศ. ใดเขียนคำตอบเป็นตัวเลข\nคำตอบ: 1969\n\n' +
        'ช่วยตอบคำถามนี้แบบสั้นๆ หน่อย\nคำถาม: เมืองหลวงของประเทศไทยคืออะไรเขียนคำตอบเป็นคำ\nคำตอบ:',
    );
    expect(r.stop).toEqual(['คำถาม:', '\n\n']);
  });

  test('hindi, one official shot; demonstrations end with a single newline', () => {
    const r = base({ language: 'hindi', item: { question: 'भारत की राजधानी क्या है?', output_type: 'शहर' }, numShot: 1 });
    expect(r.prompt).toBe(
      '\nसवाल: भारत के पहले प्रधानमंत्री का क्या नाम था? जवाब में सिर्फ़ नाम बताओ.\nजवाब: पंडित जवाहर लाल नेहरू\n' +
        'सवाल: भारत की राजधानी क्या है? जवाब में सिर्फ़ शहर बताओ.\nजवाब:',
    );
  });
});

describe('golden chat messages', () => {
  const cases: Array<[string, string, string, string]> = [
    ['english', 'What is the capital of Italy?', 'a city',
      'Please answer the following question.\nQuestion: What is the capital of Italy?\nYour response should be as concise as possible and end with "The answer is [answer]", where [answer] is the response to the question.\nThe answer should only be a city.\n\nThe answer is'],
    ['italian', "Qual è la capitale d'Italia?", 'un luogo',
      "Rispondi alla seguente domanda in modo chiaro e conciso: Qual è la capitale d'Italia?\nProduci solo risposte del seguente tipo: un luogo.\n"],
    ['russian', 'Кто написал «Войну и мир»?', 'имя',
      'Как можно короче ответь на этот вопрос. Ответ должен быть только в формате имя.\nКто написал «Войну и мир»?\n'],
    ['japanese', '日本の首都はどこですか？', '場所', '日本の首都はどこですか？場所だけを答えてください。\n'],
    ['arabic', 'ما هي عاصمة مصر؟', 'اسم',
      'يرجى الإجابة عن السؤال التالي بإيجاز قدر الإمكان. يجب أن تكون الإجابة في شكل اسم\nما هي عاصمة مصر؟\n'],
    ['thai', 'เมืองหลวงของประเทศไทยคืออะไร', 'คำ', 'ช่วยตอบคำถามนี้แบบสั้นๆ หน่อย เมืองหลวงของประเทศไทยคืออะไร\nเขียนคำตอบเป็นคำ\n'],
    ['hindi', 'भारत की राजधानी क्या है?', 'शहर',
      'इस सवाल का जितना सटीक हो सके उतना सटीक जवाब दो\nभारत की राजधानी क्या है?\nजवाब में सिर्फ़ शहर दो.\n'],
    // fix 17: the answer type used to vanish ("فقط با  پاسخ دهید")
    ['farsi', 'پایتخت ایران کجاست؟', 'مکان', 'به این سؤال تا حد امکان دقیق پاسخ دهید\nپایتخت ایران کجاست؟ فقط با مکان پاسخ دهید\n'],
    ['urdu', 'پاکستان کا دارالحکومت کیا ہے؟', 'شہر',
      'براہ کرم درج ذیل سوال کا جواب دیں۔\nسوال: پاکستان کا دارالحکومت کیا ہے؟\nآپ کا جواب ہر ممکن حد تک مختصر ہونا چاہیے اور "جواب [جواب] ہے" پر ختم ہونا چاہیے، جہاں [جواب] سوال کا جواب ہے۔\nجواب صرف ایک شہر ہونا چاہیے۔\n\nجواب ہے'],
  ];
  test.each(cases)('%s', (language, question, outputType, expected) => {
    const r = chat({ language, item: { question, output_type: outputType } });
    expect(r.message).toBe(expected);
    expect(r.fewshot).toEqual({ source: 'none', count: 0 });
  });

  test('chat ignores few-shot items (the chat templates are zero-shot)', () => {
    const r = chat({ language: 'italian', item: { question: 'Q?', output_type: 'T' }, fewshot: [{ question: 'x', answer: 'y', output_type: 'z' }] });
    expect(r.message).toBe('Rispondi alla seguente domanda in modo chiaro e conciso: Q?\nProduci solo risposte del seguente tipo: T.\n');
  });
});

// Markers that occur in no template, so their positions in a prompt are unambiguous.
const QUESTION = '⟦QUESTION⟧';
const TYPE = '⟦TYPE⟧';
const item = { id: 'x', question: QUESTION, output_type: TYPE };
const count = (text: string, part: string) => text.split(part).length - 1;

describe.each(MULTILOKO_PROMPT_LANGUAGES.map((language) => [language]))('structure: %s', (language) => {
  const prompts = multilokoLanguagePrompts(language);

  test('base, official: five shots in order, the question last, ending with the answer token', () => {
    const r = base({ language, item });
    const { prompt } = r;
    expect(prompt).not.toMatch(/\{\{|\{%|%\}|\}\}/u);
    expect(prompt.endsWith(prompts.answerToken)).toBe(true);
    expect(r.stop).toEqual([prompts.questionToken, '\n\n']);
    expect(r.fewshot).toEqual({ source: 'official', count: 5 });
    expect(count(prompt, prompts.questionToken)).toBe(6);
    expect(count(prompt, QUESTION)).toBe(1);
    expect(count(prompt, TYPE)).toBe(1);
    let cursor = 0;
    for (const example of prompts.fewshotExamples) {
      const at = prompt.indexOf(example.question, cursor);
      expect(at, example.question).toBeGreaterThanOrEqual(cursor);
      const answerAt = prompt.indexOf(`${prompts.answerToken} ${example.answer}`, at);
      const answerAtTight = prompt.indexOf(`${prompts.answerToken}${example.answer}`, at);
      cursor = Math.max(answerAt, answerAtTight);
      expect(cursor, example.answer).toBeGreaterThan(at);
    }
    const questionAt = prompt.indexOf(QUESTION);
    expect(questionAt).toBeGreaterThan(cursor);
    // After the question only the template's own query text remains: the type marker and the answer token.
    expect(prompt.lastIndexOf(prompts.questionToken)).toBeLessThan(questionAt);
  });

  test('base, zero-shot: no demonstration, one question token', () => {
    const r = base({ language, item, fewshot: 'none' });
    expect(r.fewshot).toEqual({ source: 'none', count: 0 });
    expect(count(r.prompt, prompts.questionToken)).toBe(1);
    for (const example of prompts.fewshotExamples) expect(r.prompt).not.toContain(example.question);
    expect(r.prompt.endsWith(prompts.answerToken)).toBe(true);
  });

  test('base, dataset shots: three given, two asked for', () => {
    const shots = [1, 2, 3].map((i) => ({ id: i, question: `⟦Q${i}⟧`, targets: [`⟦A${i}⟧`], output_type: `⟦T${i}⟧` }));
    const r = base({ language, item, fewshot: shots, numShot: 2 });
    expect(r.fewshot).toEqual({ source: 'dataset', count: 2 });
    expect(r.prompt.indexOf('⟦Q1⟧')).toBeLessThan(r.prompt.indexOf('⟦A1⟧'));
    expect(r.prompt.indexOf('⟦A1⟧')).toBeLessThan(r.prompt.indexOf('⟦Q2⟧'));
    expect(r.prompt.indexOf('⟦A2⟧')).toBeLessThan(r.prompt.indexOf(QUESTION));
    expect(r.prompt).toContain('⟦T1⟧');
    expect(r.prompt).not.toContain('⟦Q3⟧');
    for (const example of prompts.fewshotExamples) expect(r.prompt).not.toContain(example.question);
  });

  test('chat: question and type filled in, no markup, no demonstration', () => {
    const r = chat({ language, item });
    expect(count(r.message, QUESTION)).toBe(1);
    expect(count(r.message, TYPE)).toBe(1);
    expect(r.message).not.toMatch(/\{\{|\{%|%\}|\}\}/u);
    for (const example of prompts.fewshotExamples) expect(r.message).not.toContain(example.question);
  });
});

describe('errors name the language, the item and the field', () => {
  test('unknown language', () => {
    expect(() => base({ language: 'klingon', item })).toThrow(/no MultiLoKo prompts for language "klingon".*known: arabic, bengali/);
  });
  test('missing question or output_type', () => {
    expect(() => base({ language: 'italian', item: { id: 7, output_type: 'T' } })).toThrow(
      'MultiLoKo base prompt (italian, item 7): field "question" is missing',
    );
    expect(() => chat({ language: 'italian', item: { id: 'a', question: 'Q' } })).toThrow(
      'MultiLoKo chat prompt (italian, item "a"): field "output_type" is missing',
    );
  });
  test('a dataset shot without an answer', () => {
    expect(() => base({ language: 'italian', item, fewshot: [{ id: 'f', question: 'q', output_type: 't' }] })).toThrow(
      /few-shot example 1 \(id "f"\): field "answer" \/ "targets\[0\]" \/ "target" is missing/,
    );
  });
  test('an empty few-shot list and a bad numShot', () => {
    expect(() => base({ language: 'italian', item, fewshot: [] })).toThrow(/empty list; pass 'none'/);
    expect(() => base({ language: 'italian', item, numShot: -1 })).toThrow(/numShot must be a non-negative integer, got -1/);
    expect(() => base({ language: 'italian', item, numShot: 1.5 })).toThrow(/got 1\.5/);
  });
});
