// npm run make:tiny-model -- <dir> [--layers N] [--hidden H] [--heads A] [--intermediate I] [--vocab V] [--seed S]
// Writes a small Llama-style causal LM (ONNX + tokenizer + configs) that transformers.js loads like a Hub model.
import { writeTinyModel } from '../src/models/tinyModel.ts';
import { parseSpecArgs, runScript } from './specArgs.ts';

const USAGE = 'usage: npm run make:tiny-model -- <dir> [--layers N] [--hidden H] [--heads A] [--intermediate I] [--vocab V] [--seed S] [--max-positions P]';

process.exitCode = runScript(() => {
  const args = parseSpecArgs(process.argv.slice(2), USAGE, {
    layers: 'layers', hidden: 'hidden', heads: 'heads', intermediate: 'intermediate', vocab: 'vocab', seed: 'seed', 'max-positions': 'maxPositions',
  });
  if (!args) return;
  const started = Date.now();
  const info = writeTinyModel(args.dir, args.spec);
  const s = info.spec;
  console.log(
    `wrote ${args.dir}: llama, ${s.layers} layers, hidden ${s.hidden}, ${s.heads} heads, intermediate ${s.intermediate}, ` +
      `vocab ${s.vocab}, seed ${s.seed}, ${info.parameters.toLocaleString('en')} parameters (${Date.now() - started} ms)`,
  );
});
