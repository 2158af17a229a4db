// npm run make:tiny-model -- <dir> [--layers N] [--hidden H] [--heads A] [--intermediate I] [--vocab V] [--seed S]
// Writes a small Llama-style causal LM (ONNX + tokenizer + configs) that transformers.js loads like a Hub model.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeTinyModel, type TinyModelSpec } from '../src/models/tinyModel.ts';

const USAGE = 'usage: npm run make:tiny-model -- <dir> [--layers N] [--hidden H] [--heads A] [--intermediate I] [--vocab V] [--seed S] [--max-positions P]';

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        layers: { type: 'string' },
        hidden: { type: 'string' },
        heads: { type: 'string' },
        intermediate: { type: 'string' },
        vocab: { type: 'string' },
        seed: { type: 'string' },
        'max-positions': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    console.error(`expected exactly one output folder\n${USAGE}`);
    return 2;
  }
  const spec: Partial<TinyModelSpec> = {};
  const numeric: Array<[keyof typeof parsed.values, keyof TinyModelSpec]> = [
    ['layers', 'layers'],
    ['hidden', 'hidden'],
    ['heads', 'heads'],
    ['intermediate', 'intermediate'],
    ['vocab', 'vocab'],
    ['seed', 'seed'],
    ['max-positions', 'maxPositions'],
  ];
  for (const [flag, key] of numeric) {
    const raw = parsed.values[flag];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value)) {
      console.error(`--${flag} must be an integer, got "${raw}"\n${USAGE}`);
      return 2;
    }
    spec[key] = value;
  }
  const dir = path.resolve(parsed.positionals[0]!);
  try {
    const started = Date.now();
    const info = writeTinyModel(dir, spec);
    const s = info.spec;
    console.log(
      `wrote ${dir}: llama, ${s.layers} layers, hidden ${s.hidden}, ${s.heads} heads, intermediate ${s.intermediate}, ` +
        `vocab ${s.vocab}, seed ${s.seed}, ${info.parameters.toLocaleString('en')} parameters (${Date.now() - started} ms)`,
    );
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
