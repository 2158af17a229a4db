// Answer extraction: first line, echoed answer token, chat answer frame.
import { describe, expect, test } from 'vitest';
import { chatAnswerFrame, extractAnswer } from '../../src/benchmarks/multiloko/prompts/extractAnswer.ts';
import { MULTILOKO_PROMPT_LANGUAGES, multilokoLanguagePrompts } from '../../src/benchmarks/multiloko/prompts/multilokoPromptTable.ts';

describe.each(MULTILOKO_PROMPT_LANGUAGES.map((language) => [language]))('per language: %s', (language) => {
  const { answerToken, questionToken, fewshotExamples } = multilokoLanguagePrompts(language);
  const answer = fewshotExamples[0]!.answer;

  test.each(['base', 'chat'] as const)('%s: token echoed or not, continuation cut at the first newline', (mode) => {
    // A base completion as it arrives before the stop string, and the same with the token echoed.
    expect(extractAnswer(` ${answer}\n\n${questionToken} next`, { language, mode })).toBe(answer);
    expect(extractAnswer(`${answerToken} ${answer}\nmore`, { language, mode })).toBe(answer);
    expect(extractAnswer(`  ${answerToken}${answer}  `, { language, mode })).toBe(answer);
    expect(extractAnswer(`\n\n${answer}\r\nmore`, { language, mode })).toBe(answer);
  });

  test('a token in the middle of the line is kept', () => {
    expect(extractAnswer(`${answer} ${answerToken} x`, { language, mode: 'base' })).toBe(`${answer} ${answerToken} x`);
  });
});

describe('answer tokens', () => {
  test('colon variants and the space before the colon', () => {
    expect(extractAnswer('R : Paris', { language: 'french', mode: 'base' })).toBe('Paris');
    expect(extractAnswer('R: Paris', { language: 'french', mode: 'base' })).toBe('Paris');
    expect(extractAnswer('回答:富士山', { language: 'japanese', mode: 'base' })).toBe('富士山');
    expect(extractAnswer('答案:1989', { language: 'cantonese', mode: 'base' })).toBe('1989');
    expect(extractAnswer('答案：1989', { language: 'cantonese', mode: 'base' })).toBe('1989');
    expect(extractAnswer('ចម្លើយ៖ 2023', { language: 'khmer', mode: 'base' })).toBe('2023');
    expect(extractAnswer('תשובה: דוד בן-גוריון', { language: 'hebrew', mode: 'base' })).toBe('דוד בן-גוריון');
  });
  test('a token needs its colon: answers that merely start with the same letters are kept', () => {
    expect(extractAnswer('A Coruña', { language: 'english', mode: 'base' })).toBe('A Coruña');
    expect(extractAnswer('Risposta', { language: 'italian', mode: 'base' })).toBe('Risposta');
    expect(extractAnswer('Dante', { language: 'italian', mode: 'base' })).toBe('Dante');
  });
  test('another language\'s token is not stripped', () => {
    expect(extractAnswer('A: Roma', { language: 'italian', mode: 'base' })).toBe('A: Roma');
  });
});

describe('chat answer frames', () => {
  test('exactly the three chat templates that end with a frame have one', () => {
    const frames = MULTILOKO_PROMPT_LANGUAGES.map((language) => [language, chatAnswerFrame(language)]).filter(([, f]) => f !== undefined);
    expect(frames).toEqual([['dutch', 'Het antwoord is'], ['english', 'The answer is'], ['urdu', 'جواب ہے']]);
  });
  test('english: leading frame stripped in chat mode, with or without colon, any case', () => {
    expect(extractAnswer('The answer is 1992.', { language: 'english', mode: 'chat' })).toBe('1992.');
    expect(extractAnswer(' the answer is: Dwight D. Eisenhower\nBecause…', { language: 'english', mode: 'chat' })).toBe('Dwight D. Eisenhower');
    expect(extractAnswer('THE ANSWER IS A: 78', { language: 'english', mode: 'chat' })).toBe('78');
    expect(extractAnswer('The answer is', { language: 'english', mode: 'chat' })).toBe('');
  });
  test('english: not stripped in base mode, not when the word goes on, not in the middle', () => {
    expect(extractAnswer('The answer is 1992', { language: 'english', mode: 'base' })).toBe('The answer is 1992');
    expect(extractAnswer("The answer isn't known", { language: 'english', mode: 'chat' })).toBe("The answer isn't known");
    expect(extractAnswer('In 1992. The answer is 1992', { language: 'english', mode: 'chat' })).toBe('In 1992. The answer is 1992');
  });
  test('dutch and urdu frames', () => {
    expect(extractAnswer('Het antwoord is Amsterdam', { language: 'dutch', mode: 'chat' })).toBe('Amsterdam');
    expect(extractAnswer('جواب ہے: اردو', { language: 'urdu', mode: 'chat' })).toBe('اردو');
  });
  test('languages without a frame keep an English frame as it is', () => {
    expect(extractAnswer('The answer is Roma', { language: 'italian', mode: 'chat' })).toBe('The answer is Roma');
    expect(extractAnswer('R: Roma', { language: 'italian', mode: 'chat' })).toBe('Roma');
  });
});

test('unknown language throws', () => {
  expect(() => extractAnswer('x', { language: 'klingon', mode: 'base' })).toThrow(/no MultiLoKo prompts for language "klingon"/);
});
