// npm run make:tiny-encoder -- <dir> [--kind bert|regression] [--seed S] [--layers N] [--hidden H] [--heads A] [--intermediate I]
// Writes a small BERT-style encoder (ONNX + WordPiece tokenizer + configs) that transformers.js loads like a Hub model:
// kind bert for BERTScore (every layer's hidden states), kind regression for BLEURT (one logit).
import { writeTinyEncoder } from '../test/support/tinyEncoder.ts';
import { parseSpecArgs, runScript, UsageError } from './specArgs.ts';

const USAGE =
  'usage: npm run make:tiny-encoder -- <dir> [--kind bert|regression] [--seed S] [--layers N] [--hidden H] [--heads A] [--intermediate I] [--max-positions P]';

process.exitCode = runScript(() => {
  const args = parseSpecArgs(
    process.argv.slice(2),
    USAGE,
    { seed: 'seed', layers: 'layers', hidden: 'hidden', heads: 'heads', intermediate: 'intermediate', 'max-positions': 'maxPositions' },
    ['kind'],
  );
  if (!args) return;
  const kind = args.text.kind;
  if (kind !== undefined && kind !== 'bert' && kind !== 'regression') {
    throw new UsageError(`--kind must be bert or regression, got "${kind}"\n${USAGE}`);
  }
  const started = Date.now();
  const info = writeTinyEncoder(args.dir, { ...args.spec, ...(kind ? { kind } : {}) });
  const s = info.spec;
  console.log(
    `wrote ${args.dir}: ${s.kind} encoder, ${s.layers} layers, hidden ${s.hidden}, ${s.heads} heads, intermediate ${s.intermediate}, ` +
      `vocab ${info.vocab.length}, seed ${s.seed}, ${info.parameters.toLocaleString('en')} parameters (${Date.now() - started} ms)`,
  );
});
