// The model-generating npm scripts: they write loadable model folders and reject bad arguments with exit code 2.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
const run = (script: string, args: string[]) =>
  spawnSync(process.execPath, [tsx, path.join(root, 'scripts', script), ...args], { cwd: root, encoding: 'utf8' });

describe('make:tiny-model and make:tiny-encoder', () => {
  test('write a model folder with the requested spec', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lokal-script-'));
    const model = run('make-tiny-model.ts', [path.join(dir, 'lm'), '--layers', '1', '--hidden', '16', '--heads', '2', '--seed', '5']);
    expect(model.status).toBe(0);
    expect(model.stdout).toContain('llama, 1 layers, hidden 16, 2 heads');
    expect(JSON.parse(readFileSync(path.join(dir, 'lm/config.json'), 'utf8'))).toMatchObject({ num_hidden_layers: 1, hidden_size: 16 });
    // the variants transformers.js loads by dtype, beside model.onnx (test/models/quantisedModels.test.ts checks their contents)
    for (const file of ['model_quantized.onnx', 'model_q4.onnx', 'model_fp16.onnx']) expect(existsSync(path.join(dir, 'lm/onnx', file)), file).toBe(true);
    expect(model.stdout).toMatch(/\+ model_quantized\.onnx [\d.]+ MiB, model_q4\.onnx [\d.]+ MiB, model_fp16\.onnx [\d.]+ MiB/);
    const only = run('make-tiny-model.ts', [path.join(dir, 'lm32'), '--layers', '1', '--hidden', '16', '--heads', '2', '--dtypes', 'fp32']);
    expect(only.status).toBe(0);
    expect(existsSync(path.join(dir, 'lm32/onnx/model_quantized.onnx'))).toBe(false);
    expect(run('make-tiny-model.ts', [path.join(dir, 'x'), '--dtypes', 'fp32,q3']).stderr).toContain('--dtypes must list fp32 and any of q8, q4, fp16, got "fp32,q3"');
    const encoder = run('make-tiny-encoder.ts', [path.join(dir, 'enc'), '--kind', 'regression']);
    expect(encoder.status).toBe(0);
    expect(encoder.stdout).toContain('regression encoder');
    expect(existsSync(path.join(dir, 'enc/tokenizer.json'))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  test('--config and --tokenizer take a real model\'s shape and tokenizer files; --shape names the default model\'s', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lokal-script-'));
    try {
      const config = {
        model_type: 'qwen2',
        hidden_size: 16,
        num_attention_heads: 2,
        num_key_value_heads: 1,
        num_hidden_layers: 1,
        intermediate_size: 32,
        vocab_size: 151936,
        max_position_embeddings: 256,
        tie_word_embeddings: true,
        eos_token_id: 151645,
      };
      writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
      const model = run('make-tiny-model.ts', [path.join(dir, 'lm'), '--config', path.join(dir, 'config.json'), '--tokenizer', 'qwen2.5', '--seed', '4']);
      expect(model.stderr).toBe('');
      expect(model.status).toBe(0);
      expect(model.stdout).toContain('qwen2 (q/k/v biases), 1 layers, hidden 16, 2 heads (1 key/value heads), intermediate 32, vocab 151936, tied embeddings');
      expect(JSON.parse(readFileSync(path.join(dir, 'lm/config.json'), 'utf8'))).toMatchObject({ ...config, torch_dtype: 'float32', head_dim: 8 });
      expect(JSON.parse(readFileSync(path.join(dir, 'lm/tokenizer_config.json'), 'utf8')).chat_template).toContain('You are Qwen, created by Alibaba Cloud.');
      const bad = run('make-tiny-model.ts', [path.join(dir, 'x'), '--shape', 'llama-7b']);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('--shape must be qwen2.5-0.5b-instruct');
      const small = run('make-tiny-model.ts', [path.join(dir, 'y'), '--tokenizer', 'qwen2.5']);
      expect(small.status).toBe(1);
      expect(small.stderr).toMatch(/token ids up to 151664, beyond the model's vocab 384/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('bad arguments exit 2 with the usage line', () => {
    const bad = run('make-tiny-model.ts', ['/tmp/x', '--layers', 'two']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--layers must be an integer, got "two"');
    expect(bad.stderr).toContain('usage: npm run make:tiny-model');
    expect(run('make-tiny-encoder.ts', ['/tmp/x', '--kind', 'gpt']).status).toBe(2);
    expect(run('make-tiny-encoder.ts', []).stderr).toContain('expected exactly one output folder');
  }, 60_000);
});
