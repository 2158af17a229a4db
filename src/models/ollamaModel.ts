// `llama:ollama:<name>[:tag]`: the GGUF blob of a model pulled with Ollama, found through Ollama's local manifests
// (read only). Layout as Ollama stores it: <models>/manifests/<registry>/<namespace>/<model>/<tag> (an OCI-style JSON
// manifest) and <models>/blobs/sha256-<hex>; <models> is OLLAMA_MODELS, else ~/.ollama/models.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { checkRegularFileSync, readRegularTextSync } from '../data/filesSync.ts';
import { ProviderError } from './types.ts';

const MODEL_LAYER = 'application/vnd.ollama.image.model';
/** Largest manifest read: Ollama's are a few hundred bytes. */
const MAX_MANIFEST_BYTES = 2 ** 20;

const OllamaManifest = z.object({
  layers: z.array(z.object({ mediaType: z.string(), digest: z.string().regex(/^sha256:[0-9a-f]{64}$/u, 'a sha256:<64 hex digits> digest'), size: z.number().optional() })),
});

/** Ollama's models folder: OLLAMA_MODELS, else ~/.ollama/models. */
export function ollamaModelsDir(env: Record<string, string | undefined> = process.env): string {
  return env.OLLAMA_MODELS?.trim() ? path.resolve(env.OLLAMA_MODELS) : path.join(homedir(), '.ollama', 'models');
}

/**
 * The manifest path of an Ollama model name as `ollama pull` takes it: `name`, `name:tag`, `namespace/name[:tag]` or
 * `host/namespace/name[:tag]`; the registry defaults to registry.ollama.ai, the namespace to library, the tag to latest.
 */
export function ollamaManifestPath(modelsDir: string, name: string): string {
  const trimmed = name.trim();
  const slash = trimmed.lastIndexOf('/');
  const colon = trimmed.lastIndexOf(':');
  const [repo, tag] = colon > slash ? [trimmed.slice(0, colon), trimmed.slice(colon + 1)] : [trimmed, 'latest'];
  const parts = repo.split('/');
  // a registry host may carry a port (host:5000/namespace/model)
  const valid = (p: string, i: number) => p !== '' && p !== '.' && p !== '..' && (parts.length === 3 && i === 0 ? /^[\w.-]+(:\d+)?$/u : /^[\w.-]+$/u).test(p);
  if (repo === '' || tag === '' || parts.length > 3 || !parts.every(valid) || !/^[\w.-]+$/u.test(tag))
    throw new ProviderError('llama', 'config', `"${name}" is not an Ollama model name (name, name:tag, namespace/name:tag or host/namespace/name:tag)`);
  const full = parts.length === 1 ? ['registry.ollama.ai', 'library', ...parts] : parts.length === 2 ? ['registry.ollama.ai', ...parts] : parts;
  return path.join(modelsDir, 'manifests', ...full, tag);
}

/** The GGUF file of an Ollama model (its model layer's blob) and that layer's digest. */
export function resolveOllamaModel(name: string, modelsDir: string): { file: string; digest: string } {
  const manifestFile = ollamaManifestPath(modelsDir, name);
  if (!existsSync(manifestFile))
    throw new ProviderError('llama', 'not-found', `Ollama model "${name}" is not in ${modelsDir} (no manifest ${manifestFile}): pull it with \`ollama pull ${name}\`, or set OLLAMA_MODELS to Ollama's models folder`);
  let text: string;
  try {
    // A FIFO or device is refused at once (a read would wait forever).
    text = readRegularTextSync(manifestFile, 'Ollama manifest', MAX_MANIFEST_BYTES);
  } catch (error) {
    throw new ProviderError('llama', 'invalid-response', (error as Error).message);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProviderError('llama', 'invalid-response', `${manifestFile}: not JSON (${(error as Error).message})`);
  }
  const manifest = OllamaManifest.safeParse(json);
  if (!manifest.success) {
    const issue = manifest.error.issues[0]!;
    throw new ProviderError('llama', 'invalid-response', `${manifestFile}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const layer = manifest.data.layers.find((l) => l.mediaType === MODEL_LAYER);
  if (!layer) throw new ProviderError('llama', 'unsupported', `${manifestFile}: no ${MODEL_LAYER} layer (not a GGUF model)`);
  const file = path.join(modelsDir, 'blobs', layer.digest.replace(':', '-'));
  if (!existsSync(file)) throw new ProviderError('llama', 'not-found', `${manifestFile} names ${layer.digest}, but ${file} is missing: pull the model again with \`ollama pull ${name}\``);
  try {
    // node-llama-cpp would wait forever on a FIFO.
    checkRegularFileSync(file, 'Ollama model blob');
  } catch (error) {
    throw new ProviderError('llama', 'invalid-response', (error as Error).message);
  }
  return { file, digest: layer.digest };
}
