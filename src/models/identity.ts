// A model's identity for a run's fingerprint, from its describe(): provider, model, revision and dtype, and the
// SHA-256 of the files that answered where there are some (a replay's predictions file; a local model's ONNX graph,
// and its external data as `data_sha256`, since the graph file alone is the same for every weights of one shape).
// Servers name their model; where one reports a `system_fingerprint`, describe() carries it.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DTYPE_FILES, weightFiles } from './dtypeFiles.ts';
import { providerRow } from './providers.ts';
import type { ModelDescription } from './types.ts';

type ModelIdentity = Record<string, string | number | boolean | null>;

/** Hashes already taken in this process, by the files' identity (a report and a summary share them). */
const known = new Map<string, string>();

/** Hashes kept between runs: the last this many file sets. */
const MEMO_ENTRIES = 64;
const Memo = z.object({ version: z.literal(1), entries: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/u)) });

/**
 * The file holding hashes between runs, `node_modules/.cache/vitest-lokal/sha256.json` under the project root (where
 * tools keep their caches), or undefined where the root has no node_modules.
 */
export function hashMemoFile(root: string): string | undefined {
  const modules = path.join(root, 'node_modules');
  return existsSync(modules) ? path.join(modules, '.cache', 'vitest-lokal', 'sha256.json') : undefined;
}

/** What identifies the files' bytes without reading them: real path, size, modification and change times, inode, device. */
export function filesKey(files: readonly string[]): string {
  return files
    .map((file) => {
      const st = statSync(file);
      if (!st.isFile()) throw new Error(`${file} is not a file`);
      return [realpathSync(file), st.size, st.mtimeMs, st.ctimeMs, st.ino, st.dev].join('\u0000');
    })
    .join('\u0001');
}

function readMemo(file: string): Record<string, string> {
  try {
    const parsed = Memo.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data.entries : {};
  } catch {
    return {};
  }
}

/** Adds one hash to the memo (the newest MEMO_ENTRIES kept), replacing the file whole; a memo that cannot be written is skipped. */
function writeMemo(file: string, key: string, digest: string): void {
  try {
    const entries = readMemo(file);
    delete entries[key];
    entries[key] = digest;
    const kept = Object.entries(entries).slice(-MEMO_ENTRIES);
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ version: 1, entries: Object.fromEntries(kept) })}\n`);
    renameSync(temporary, file);
  } catch {
    // only a memo: the next run hashes again
  }
}

/**
 * SHA-256 of the files' bytes one after another (of the file itself, for one), read in 1 MiB chunks (weights may be
 * gigabytes); taken from `memo` when the files' identity is unchanged since it was stored there. Null when a file
 * cannot be read.
 */
export function filesSha256(files: readonly string[], memo?: string): string | null {
  let fd: number | undefined;
  try {
    const key = filesKey(files);
    const done = known.get(key) ?? (memo ? readMemo(memo)[key] : undefined);
    if (done) {
      known.set(key, done);
      return done;
    }
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(1 << 20);
    for (const file of files) {
      fd = openSync(file, 'r');
      for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) hash.update(chunk.subarray(0, n));
      closeSync(fd);
      fd = undefined;
    }
    const digest = hash.digest('hex');
    known.set(key, digest);
    if (memo) writeMemo(memo, key, digest);
    return digest;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The files whose bytes are the model: a replay's predictions, or a local folder's ONNX graph of the dtype used and its external data. */
function modelFiles(description: ModelDescription, root: string): { file: string; data: string[] } | undefined {
  if (providerRow(description.provider)?.answersFromFile) return { file: path.resolve(root, description.model), data: [] };
  if (description.provider !== 'transformers') return undefined;
  const dtype = description.settings.dtype;
  const file = DTYPE_FILES.find(([d]) => d === dtype)?.[1];
  if (file === undefined) return undefined;
  const onnxDir = path.join(path.resolve(root, description.model), 'onnx');
  let data: string[] = [];
  try {
    data = weightFiles(onnxDir, file).filter((name) => name !== file).map((name) => path.join(onnxDir, name));
  } catch {
    // no readable onnx/ folder: the graph's hash is null below
  }
  return { file: path.join(onnxDir, file), data };
}

/** The identity recorded in a fingerprint; `spec` (the provider string) stands in when the model could not be described. */
export function modelIdentity(description: ModelDescription | null | undefined, spec: string | undefined, root: string): ModelIdentity {
  if (!description) return { spec: spec ?? null };
  const settings = description.settings;
  const identity: ModelIdentity = { provider: description.provider, model: description.model, revision: description.revision ?? null };
  if (typeof settings.dtype === 'string') identity.dtype = settings.dtype;
  // exact (one prompt at a time) or batched: on quantised graphs they give different answers (graphNumerics.ts)
  if (typeof settings.numerics === 'string') identity.numerics = settings.numerics;
  if (typeof settings.baseUrl === 'string') identity.server = settings.baseUrl;
  const systemFingerprint = description.systemFingerprint ?? settings.systemFingerprint;
  if (typeof systemFingerprint === 'string') identity.system_fingerprint = systemFingerprint;
  const files = modelFiles(description, root);
  if (files !== undefined) {
    // Predictions files are small and often rewritten: hashed each time; weights go through the memo.
    const memo = providerRow(description.provider)?.answersFromFile ? undefined : hashMemoFile(root);
    identity.sha256 = filesSha256([files.file], memo);
    if (files.data.length) identity.data_sha256 = filesSha256(files.data, memo);
  }
  return identity;
}
