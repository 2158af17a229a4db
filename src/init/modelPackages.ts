// Whether the packages the configured models need are installed in the project: a `transformers:` model (the default
// one included) needs @huggingface/transformers and onnxruntime-node, a `llama:` model node-llama-cpp — optional peers
// the light install leaves out (docs/setup.md), without which every eval file fails at collection.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { splitModelList } from '../core/modelList.ts';
import { peerInstallCommand, type OptionalPeer } from '../models/optionalPeer.ts';
import { specRow } from '../models/providers.ts';

/** A model of the run whose packages the project lacks. */
interface MissingModelPackages {
  /** The provider string, as configured (`transformers:onnx-community/Qwen2.5-0.5B-Instruct`). */
  model: string;
  peer: OptionalPeer;
  /** The peer's packages not found. */
  missing: string[];
}

/**
 * Whether a package resolves from `root` as Node resolves a bare name: `node_modules/<name>` in the folder or one
 * of its parents (an npm workspace installs into the root's), or in NODE_PATH.
 */
function packageInstalled(name: string, root: string, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const folders: string[] = [];
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    folders.push(path.join(dir, 'node_modules'));
    if (path.dirname(dir) === dir) break;
  }
  for (const extra of (env.NODE_PATH ?? '').split(path.delimiter)) if (extra) folders.push(path.resolve(extra));
  return folders.some((folder) => existsSync(path.join(folder, name, 'package.json')));
}


/** The models (each provider string of each model setting) whose packages are not all installed in `root`. */
export function missingModelPackages(models: readonly string[], root: string, env?: Readonly<Record<string, string | undefined>>): MissingModelPackages[] {
  const out: MissingModelPackages[] = [];
  for (const model of new Set(models.flatMap(splitModelList))) {
    // The optional packages its provider needs (none for replay: and openai:).
    const peer = specRow(model)?.peer;
    if (!peer) continue;
    const missing = Object.keys(peer.packages).filter((name) => !packageInstalled(name, root, env));
    if (missing.length > 0) out.push({ model, peer, missing });
  }
  return out;
}

/** The one line saying what to install for a model, and what works without it. */
export function missingPackagesLine(found: MissingModelPackages): string {
  return (
    `the model ${found.model} needs ${Object.keys(found.peer.packages).join(' and ')} (${found.missing.join(', ')} not installed here): ` +
    `\`${peerInstallCommand(found.peer)}\`; or set "model" in lokal.config.json to a model that needs no package: ` +
    `replay:<predictions.jsonl> (answers from a file) or openai:<model> with OPENAI_BASE_URL (a server) — docs/models.md`
  );
}
