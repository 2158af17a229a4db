// sha256 (one-shot crypto.hash where Node has it): the FIPS 180-2 test vectors, UTF-8 text hashed as its bytes, and
// redactedText's 12-digit prefix, against the digests of a Hash object built the long way.
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { sha256 } from '../../src/core/sha256.ts';
import { redactedText } from '../../src/core/redact.ts';

describe('sha256', () => {
  test('the FIPS 180-2 vectors "abc" and the empty string', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  test('text is hashed as its UTF-8 bytes, the same digest as for those bytes', () => {
    const text = 'Ciudad de México · 東京 · ✓';
    expect(sha256(text)).toBe(sha256(new TextEncoder().encode(text)));
    expect(sha256(text)).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
  });

  test('bytes of a view into a larger buffer are hashed as the view alone', () => {
    const whole = new TextEncoder().encode('xxabcxx');
    expect(sha256(whole.subarray(2, 5))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  test('redactedText is sha256: and the first 12 hex digits', () => {
    expect(redactedText('abc')).toBe('sha256:ba7816bf8f01');
  });
});
