// npm run make:tiny-model -- <dir> [--layers N] [--hidden H] [--heads A] [--kv-heads K] [--qkv-bias] [--intermediate I] [--vocab V] [--seed S]
// Writes a small Llama-style causal LM (ONNX + tokenizer + configs) that transformers.js loads like a Hub model;
// --kv-heads below --heads gives grouped-query attention and --qkv-bias q/k/v biases (the Qwen2 shape).
import { writeTinyModel } from '../test/support/tinyModel.ts';
import { parseSpecArgs, runScript } from './specArgs.ts';

const USAGE =
  'usage: npm run make:tiny-model -- <dir> [--layers N] [--hidden H] [--heads A] [--kv-heads K] [--qkv-bias] [--intermediate I] [--vocab V] [--seed S] [--max-positions P]';

process.exitCode = runScript(() => {
  const args = parseSpecArgs(
    process.argv.slice(2),
    USAGE,
    {
      layers: 'layers', hidden: 'hidden', heads: 'heads', 'kv-heads': 'kvHeads', intermediate: 'intermediate', vocab: 'vocab', seed: 'seed', 'max-positions': 'maxPositions',
    },
    [],
    ['qkv-bias'],
  );
  if (!args) return;
  const started = Date.now();
  const info = writeTinyModel(args.dir, { ...args.spec, qkvBias: args.switches['qkv-bias'] });
  const s = info.spec;
  const family = s.qkvBias ? 'qwen2 (q/k/v biases)' : 'llama';
  const kv = s.kvHeads === s.heads ? '' : ` (${s.kvHeads} key/value heads)`;
  console.log(
    `wrote ${args.dir}: ${family}, ${s.layers} layers, hidden ${s.hidden}, ${s.heads} heads${kv}, intermediate ${s.intermediate}, ` +
      `vocab ${s.vocab}, seed ${s.seed}, ${info.parameters.toLocaleString('en')} parameters (${Date.now() - started} ms)`,
  );
});
