// npm run make:tiny-encoder -- <dir> [--kind bert|regression] [--seed S] [--layers N] [--hidden H] [--heads A] [--intermediate I]
// Writes a small BERT-style encoder (ONNX + WordPiece tokenizer + configs) that transformers.js loads like a Hub model:
// kind bert for BERTScore (every layer's hidden states), kind regression for BLEURT (one logit).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeTinyEncoder, type TinyEncoderSpec } from '../src/models/encoders/tinyEncoder.ts';

const USAGE =
  'usage: npm run make:tiny-encoder -- <dir> [--kind bert|regression] [--seed S] [--layers N] [--hidden H] [--heads A] [--intermediate I] [--max-positions P]';

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        kind: { type: 'string' },
        seed: { type: 'string' },
        layers: { type: 'string' },
        hidden: { type: 'string' },
        heads: { type: 'string' },
        intermediate: { type: 'string' },
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
  const spec: Partial<TinyEncoderSpec> = {};
  const kind = parsed.values.kind;
  if (kind !== undefined) {
    if (kind !== 'bert' && kind !== 'regression') {
      console.error(`--kind must be bert or regression, got "${kind}"\n${USAGE}`);
      return 2;
    }
    spec.kind = kind;
  }
  const numeric: Array<[keyof typeof parsed.values, 'seed' | 'layers' | 'hidden' | 'heads' | 'intermediate' | 'maxPositions']> = [
    ['seed', 'seed'],
    ['layers', 'layers'],
    ['hidden', 'hidden'],
    ['heads', 'heads'],
    ['intermediate', 'intermediate'],
    ['max-positions', 'maxPositions'],
  ];
  for (const [flag, key] of numeric) {
    const raw = parsed.values[flag];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (typeof raw !== 'string' || raw.trim() === '' || !Number.isInteger(value)) {
      console.error(`--${flag} must be an integer, got "${String(raw)}"\n${USAGE}`);
      return 2;
    }
    spec[key] = value;
  }
  const dir = path.resolve(parsed.positionals[0]!);
  try {
    const started = Date.now();
    const info = writeTinyEncoder(dir, spec);
    const s = info.spec;
    console.log(
      `wrote ${dir}: ${s.kind} encoder, ${s.layers} layers, hidden ${s.hidden}, ${s.heads} heads, intermediate ${s.intermediate}, ` +
        `vocab ${info.vocab.length}, seed ${s.seed}, ${info.parameters.toLocaleString('en')} parameters (${Date.now() - started} ms)`,
    );
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
