// Decode steps' kept output buffers: a step never writes the memory the previous step's outputs (its past) live in.
import { describe, expect, test } from 'vitest';
import { StepBuffers } from '../../src/models/stepBuffers.ts';

describe('StepBuffers', () => {
  test('consecutive steps get different memory for a cache output; every other step reuses the same', () => {
    const buffers = new StepBuffers();
    const first = buffers.cache('past_key_values.0.key', 10);
    buffers.flip();
    const second = buffers.cache('past_key_values.0.key', 12);
    buffers.flip();
    const third = buffers.cache('past_key_values.0.key', 14);
    expect(first.buffer).not.toBe(second.buffer);
    // 10 floats got 10 + ceil(10 / 8) = 12 of room: 14 needs a new buffer, 11 would not have
    expect(third.buffer).not.toBe(first.buffer);
    expect(third.buffer).not.toBe(second.buffer);
    buffers.flip();
    const fourth = buffers.cache('past_key_values.0.key', 13);
    // second had 12 + ceil(12 / 8) = 14 floats of room: 13 fit
    expect(fourth.buffer).toBe(second.buffer);
    expect([first.length, second.length, third.length, fourth.length]).toEqual([10, 12, 14, 13]);
  });

  test('what a step wrote survives the next step\'s writes (the next step reads it as its past)', () => {
    const buffers = new StepBuffers();
    const written = buffers.cache('present.0.value', 4);
    written.set([1, 2, 3, 4]);
    buffers.flip();
    buffers.cache('present.0.value', 5).fill(9);
    expect(Array.from(written)).toEqual([1, 2, 3, 4]);
  });

  test('each cache output has buffers of its own; the logits one buffer reused by size', () => {
    const buffers = new StepBuffers();
    const key = buffers.cache('a', 3);
    const value = buffers.cache('b', 3);
    expect(key.buffer).not.toBe(value.buffer);
    const logits = buffers.logits(6);
    buffers.flip();
    expect(buffers.logits(4).buffer).toBe(logits.buffer);
    expect(buffers.logits(7).buffer).not.toBe(logits.buffer);
  });
});
