// Byte-level BPE decoding (src/models/byteLevelText.ts), on a hand-made vocabulary whose texts were worked out from
// GPT-2's bytes_to_unicode table: 'Ġ' (U+0120) stands for byte 0x20, 'Ã' (U+00C3) and '©' (U+00A9) for themselves.
import { describe, expect, test } from 'vitest';
import { ByteLevelText } from '../../src/models/byteLevelText.ts';

const TOKENS = ['Ġcaff', 'Ã', '©', '<|endoftext|>', 'Ċ', '€uro', '<think>', 'è'];
const SPECIAL = new Set([3]);
const PLAIN = new Set([6]);
const decoder = () => new ByteLevelText(TOKENS, { skip: (id) => SPECIAL.has(id), plain: (id) => PLAIN.has(id) });

describe('ByteLevelText', () => {
  test('stand-ins become their bytes; special tokens are left out; plain tokens are their own text', () => {
    const text = decoder();
    // ' caff' + 0xC3 0xA9 ('é') + (end of text skipped) + '\n' (Ċ is U+010A, byte 0x0A) + '<think>'
    expect(text.decode([0, 1, 2, 3, 4, 6])).toBe(' caffé\n<think>');
    // a token whose text is not made of stand-ins ('€' is none) keeps its own UTF-8 bytes
    expect(text.decode([5])).toBe('€uro');
    // 'è' (U+00E8) is the stand-in of byte 0xE8 alone: a UTF-8 lead byte with nothing after it
    expect(text.decode([7])).toBe('\uFFFD');
  });

  test('a character cut after its first byte is U+FFFD; decoding again (bytes remembered) gives the same text', () => {
    const text = decoder();
    expect(text.decode([0, 1])).toBe(' caff\uFFFD');
    expect(text.decode([0, 1, 2])).toBe(' caffé');
    expect(text.decode([0, 1])).toBe(' caff\uFFFD');
    // ids outside the vocabulary add nothing
    expect(text.decode([99, 0])).toBe(' caff');
  });
});
