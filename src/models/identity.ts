// A model's identity for a run's fingerprint, from its describe(): provider, model, revision and dtype, and the
// SHA-256 of the file that answered where there is one (a replay's predictions file, a local model's ONNX weights).
// Servers name their model; where one reports a `system_fingerprint`, describe() carries it.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { DTYPE_FILES } from './dtypeFiles.ts';
import type { ModelDescription } from './types.ts';

export type ModelIdentity = Record<string, string | number | boolean | null>;

/** Hashes already taken in this process, by path, size and modification time (a report and a summary share them). */
const known = new Map<string, string>();

/** SHA-256 of a file read in 1 MiB chunks (weights may be gigabytes); null when it cannot be read. */
function fileSha256(file: string): string | null {
  let fd: number | undefined;
  try {
    const st = statSync(file);
    if (!st.isFile()) return null;
    const key = `${file}\u0000${st.size}\u0000${st.mtimeMs}`;
    const done = known.get(key);
    if (done) return done;
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(1 << 20);
    fd = openSync(file, 'r');
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) hash.update(chunk.subarray(0, n));
    const digest = hash.digest('hex');
    known.set(key, digest);
    return digest;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The file whose bytes are the model: a replay's predictions, or a local folder's ONNX weights of the dtype used. */
function modelFile(description: ModelDescription, root: string): string | undefined {
  if (description.provider === 'replay') return path.resolve(root, description.model);
  if (description.provider !== 'transformers') return undefined;
  const dtype = description.settings.dtype;
  const file = DTYPE_FILES.find(([d]) => d === dtype)?.[1];
  const dir = path.resolve(root, description.model);
  return file === undefined ? undefined : path.join(dir, 'onnx', file);
}

/** The identity recorded in a fingerprint; `spec` (the provider string) stands in when the model could not be described. */
export function modelIdentity(description: ModelDescription | null | undefined, spec: string | undefined, root: string): ModelIdentity {
  if (!description) return { spec: spec ?? null };
  const settings = description.settings;
  const identity: ModelIdentity = { provider: description.provider, model: description.model, revision: description.revision ?? null };
  if (typeof settings.dtype === 'string') identity.dtype = settings.dtype;
  if (typeof settings.baseUrl === 'string') identity.server = settings.baseUrl;
  const systemFingerprint = description.systemFingerprint ?? settings.systemFingerprint;
  if (typeof systemFingerprint === 'string') identity.system_fingerprint = systemFingerprint;
  const file = modelFile(description, root);
  if (file !== undefined) identity.sha256 = fileSha256(file);
  return identity;
}
