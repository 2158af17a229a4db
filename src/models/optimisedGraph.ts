// A saved optimised graph of a local ONNX model: onnxruntime's graph optimisation (most of a 2 GB model's load time)
// runs once, and the optimised graph is kept with its weights as external data; later loads read it with
// optimisation off. One entry per model file and dtype, valid only for the key it was built under.
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { weightFiles } from './dtypeFiles.ts';
import { selectLogitPositions } from './logitPositions.ts';
import { exposeNewKeyValues } from './newKeyValues.ts';
import { exposeNextToken } from './nextToken.ts';
import { aliasLookupTables } from './lookupAlias.ts';
import { quantiseActivationsPerItem } from './perItemQuantisation.ts';

/** Folder under the model cache holding the entries. */
const OPTIMISED_GRAPHS_FOLDER = 'vitest-lokal-optimised';
/** Bumped when the entry layout or what the key covers changes: older entries are then rebuilt. */
const ENTRY_FORMAT = 6;
/** Initialisers below this size stay inside the graph file (onnxruntime's session config key, bytes). */
const EXTERNAL_MIN_BYTES = 1024;
/** Blocks of the external data read to check an entry (evenly spread, first and last included). */
const SAMPLE_BLOCKS = 64;
const SAMPLE_BYTES = 64 * 1024;

interface OptimisedGraphInput {
  /** Folder with config.json and onnx/<modelFile> (a local model, or a Hub model's download cache). */
  modelFolder: string;
  /** File name under onnx/ (model.onnx, model_quantized.onnx, …). */
  modelFile: string;
  dtype: string;
  ortVersion: string;
  executionProvider: string;
  /** CPU identity (default: cpuFeatures()); tests pass their own. */
  cpu?: string;
}

const fileRecord = z.object({ file: z.string(), bytes: z.number().int().nonnegative() });
const Manifest = z.object({
  format: z.literal(ENTRY_FORMAT),
  key: z.string(),
  inputs: z.record(z.string(), z.unknown()),
  graph: fileRecord.extend({ sha256: z.string() }),
  data: fileRecord.extend({ sampleSha256: z.string() }).nullable(),
  optimiseMs: z.number().nonnegative(),
  /** Matrix products whose input the per-item edit quantises per item (an entry of per-item numerics). */
  perItem: z.number().int().positive().optional(),
  createdAt: z.string(),
});
type OptimisedGraphManifest = z.infer<typeof Manifest>;

/** The CPU's model and instruction-set flags (an optimised graph may use kernels of this CPU only). */
export function cpuFeatures(): string {
  const parts = [process.platform, process.arch, os.cpus()[0]?.model ?? 'unknown cpu'];
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const flags = /^(?:flags|Features)\s*:\s*(.*)$/mu.exec(info)?.[1];
    if (flags) parts.push(flags.trim().split(/\s+/u).sort().join(' '));
  } catch {
    // not Linux: the model name and architecture stand for the CPU
  }
  return parts.join('\n');
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** What the key covers: the model files' identity (path, size, modification time, inode), dtype, runtime, CPU. */
export function optimisedGraphInputs(input: OptimisedGraphInput): Record<string, unknown> {
  const folder = realpathSync(input.modelFolder);
  const onnxDir = path.join(folder, 'onnx');
  const files = weightFiles(onnxDir, input.modelFile).map((name) => {
    const st = statSync(path.join(onnxDir, name));
    return { name, bytes: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
  });
  const config = path.join(folder, 'config.json');
  return {
    folder,
    files,
    config: existsSync(config) ? sha256(readFileSync(config)) : null,
    dtype: input.dtype,
    onnxruntime: input.ortVersion,
    executionProvider: input.executionProvider,
    cpu: sha256(input.cpu ?? cpuFeatures()),
  };
}

export function optimisedGraphKey(inputs: Record<string, unknown>): string {
  return sha256(JSON.stringify({ format: ENTRY_FORMAT, ...inputs }));
}

/** The entry folder of a model file and dtype: the same folder whatever the key, so a stale entry is replaced, not kept beside. */
export function optimisedGraphDir(cacheRoot: string, input: Pick<OptimisedGraphInput, 'modelFolder' | 'modelFile' | 'dtype'>): string {
  const folder = realpathSync(input.modelFolder);
  const slug = path.basename(folder).replace(/[^\w.-]+/gu, '_').slice(0, 48);
  return path.join(cacheRoot, OPTIMISED_GRAPHS_FOLDER, `${slug}-${input.dtype}-${sha256(`${folder}\n${input.modelFile}`).slice(0, 16)}`);
}

/** sha256 over SAMPLE_BLOCKS blocks spread over the file (first and last included). */
function sampleHash(file: string, bytes: number): string {
  const hash = createHash('sha256');
  const block = Buffer.alloc(Math.min(SAMPLE_BYTES, bytes));
  const fd = openSync(file, 'r');
  try {
    const span = Math.max(0, bytes - block.length);
    for (let i = 0; i < SAMPLE_BLOCKS; i++) {
      const at = Math.floor((span * i) / (SAMPLE_BLOCKS - 1));
      const read = readSync(fd, block, 0, block.length, at);
      hash.update(block.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/**
 * Why the entry cannot be used for `key` (undefined: it can): no manifest, a manifest that does not parse or names
 * another key, a graph whose bytes changed, external data of another size or whose sampled blocks changed.
 */
export function entryProblem(dir: string, modelFile: string, key: string): string | undefined {
  const manifestFile = path.join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) return existsSync(dir) ? 'no manifest (an unfinished entry)' : 'absent';
  let manifest: OptimisedGraphManifest;
  try {
    const raw: unknown = JSON.parse(readFileSync(manifestFile, 'utf8'));
    const format = (raw as { format?: unknown } | null)?.format;
    if (typeof format === 'number' && format !== ENTRY_FORMAT) return `made by another version of vitest-lokal (entry format ${format}; this version reads ${ENTRY_FORMAT})`;
    const parsed = Manifest.safeParse(raw);
    if (!parsed.success) return `manifest.json does not match the entry format (${parsed.error.issues[0]?.path.join('.') || 'root'}: ${parsed.error.issues[0]?.message})`;
    manifest = parsed.data;
  } catch (error) {
    return `manifest.json is unreadable (${(error as Error).message})`;
  }
  if (manifest.key !== key) return 'built for another model file, dtype, onnxruntime version or CPU';
  const onnxDir = path.join(dir, 'onnx');
  if (manifest.graph.file !== modelFile) return `the graph is ${manifest.graph.file}, not ${modelFile}`;
  const graph = path.join(onnxDir, modelFile);
  if (!existsSync(graph) || statSync(graph).size !== manifest.graph.bytes) return 'the graph file is missing or of another size';
  if (sha256(readFileSync(graph)) !== manifest.graph.sha256) return 'the graph file changed';
  if (manifest.data) {
    const data = path.join(onnxDir, manifest.data.file);
    if (!existsSync(data) || statSync(data).size !== manifest.data.bytes) return 'the external data is missing or of another size';
    if (sampleHash(data, manifest.data.bytes) !== manifest.data.sampleSha256) return 'the external data changed';
  }
  return undefined;
}

/** A build in progress: a temporary folder that becomes the entry once onnxruntime has written the graph. */
export interface OptimisedGraphBuild {
  dir: string;
  tempDir: string;
  /** Session options that make onnxruntime write the optimised graph (initialisers as external data). */
  sessionOptions: Record<string, unknown>;
}

/** Data file name of a graph: transformers.js's name for one external data chunk (model.onnx_data). */
function externalDataName(modelFile: string): string {
  return `${modelFile}_data`;
}

/** Starts a build: the temporary folder with the model's configs (external-data hints dropped: onnxruntime reads the graph's own references). */
export function startBuild(dir: string, input: Pick<OptimisedGraphInput, 'modelFolder' | 'modelFile'>): OptimisedGraphBuild {
  const tempDir = `${dir}.tmp-${process.pid}-${Date.now().toString(36)}`;
  mkdirSync(path.join(tempDir, 'onnx'), { recursive: true });
  const config = JSON.parse(readFileSync(path.join(input.modelFolder, 'config.json'), 'utf8')) as Record<string, unknown>;
  const jsConfig = config['transformers.js_config'] as Record<string, unknown> | undefined;
  if (jsConfig) delete jsConfig.use_external_data_format;
  writeFileSync(path.join(tempDir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  const generation = path.join(input.modelFolder, 'generation_config.json');
  if (existsSync(generation)) copyFileSync(generation, path.join(tempDir, 'generation_config.json'));
  return {
    dir,
    tempDir,
    sessionOptions: {
      optimizedModelFilePath: path.join(tempDir, 'onnx', input.modelFile),
      extra: {
        session: {
          optimized_model_external_initializers_file_name: externalDataName(input.modelFile),
          optimized_model_external_initializers_min_size_in_bytes: String(EXTERNAL_MIN_BYTES),
          // The weights also in the kernels' prepacked layouts: a later load maps them instead of packing every
          // matrix again (most of a load's time; the data file holds both layouts, about twice the weights).
          save_external_prepacked_constant_initializers: '1',
        },
      },
    },
  };
}

/** The per-item edit could not be made (the graph has a pattern perItemQuantisation.ts does not rewrite). */
export class PerItemEditError extends Error {}

/** Bytes of a data file beside the graph, as an initializer's external_data names them. */
function readExternal(onnxDir: string, location: string, offset: number, length: number): Uint8Array {
  if (path.basename(location) !== location) throw new Error(`an initializer's data is outside the entry (${location})`);
  const out = Buffer.alloc(length);
  const fd = openSync(path.join(onnxDir, location), 'r');
  try {
    for (let got = 0; got < length; ) {
      const n = readSync(fd, out, got, length - got, offset + got);
      if (n === 0) throw new Error(`${location} ends at byte ${offset + got}, inside an initializer`);
      got += n;
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/**
 * Writes the manifest (last, so an entry without one is unfinished) and puts the folder in place of any older entry.
 * `perItem`: the graph's activations quantised per item (perItemQuantisation.ts); a graph it cannot edit is an error.
 */
export function finishBuild(build: OptimisedGraphBuild, modelFile: string, key: string, inputs: Record<string, unknown>, optimiseMs: number, edits: { perItem?: boolean } = {}): void {
  const onnxDir = path.join(build.tempDir, 'onnx');
  const graph = path.join(onnxDir, modelFile);
  if (!existsSync(graph)) throw new Error(`onnxruntime wrote no optimised graph at ${graph}`);
  const written = readFileSync(graph);
  const { bytes: aliasedBytes } = aliasLookupTables(written);
  let { bytes } = exposeNextToken(exposeNewKeyValues(selectLogitPositions(aliasedBytes).bytes).bytes);
  let perItem: number | undefined;
  if (edits.perItem) {
    const edited = quantiseActivationsPerItem(bytes, (location, offset, length) => readExternal(onnxDir, location, offset, length));
    if (edited.unchanged !== undefined) throw new PerItemEditError(`its activations cannot be quantised per item: ${edited.unchanged}`);
    ({ bytes, rewritten: perItem } = edited);
  }
  if (bytes !== written) writeFileSync(graph, bytes);
  const dataFile = externalDataName(modelFile);
  const data = path.join(onnxDir, dataFile);
  const dataBytes = existsSync(data) ? statSync(data).size : undefined;
  const manifest: OptimisedGraphManifest = {
    format: ENTRY_FORMAT,
    key,
    inputs,
    graph: { file: modelFile, bytes: bytes.length, sha256: sha256(bytes) },
    data: dataBytes === undefined ? null : { file: dataFile, bytes: dataBytes, sampleSha256: sampleHash(data, dataBytes) },
    optimiseMs,
    ...(perItem === undefined ? {} : { perItem }),
    createdAt: new Date().toISOString(),
  };
  writeFileSync(path.join(build.tempDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const old = `${build.dir}.old-${process.pid}-${Date.now().toString(36)}`;
  if (existsSync(build.dir)) renameSync(build.dir, old);
  try {
    renameSync(build.tempDir, build.dir);
  } catch (error) {
    // another process put its entry in place meanwhile: keep theirs
    if (!existsSync(build.dir)) throw error;
    rmSync(build.tempDir, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

/** Removes a build's temporary folder (the load failed, or its graph could not be kept). */
export function abandonBuild(build: OptimisedGraphBuild): void {
  rmSync(build.tempDir, { recursive: true, force: true });
}

/** Where a per-item entry refused on this CPU is recorded: beside the entry, under its key. */
const refusalFile = (dir: string) => `${dir}.refused.json`;

/** Why the per-item entry of `key` was refused on this CPU and runtime, when it was. */
export function perItemRefusal(dir: string, key: string): string | undefined {
  try {
    const record = JSON.parse(readFileSync(refusalFile(dir), 'utf8')) as { key?: unknown; reason?: unknown };
    return record.key === key && typeof record.reason === 'string' ? record.reason : undefined;
  } catch {
    return undefined;
  }
}

/** Records that the per-item entry of `key` is refused (an unwritable cache: the next run checks again). */
export function refusePerItem(dir: string, key: string, reason: string): void {
  try {
    writeFileSync(refusalFile(dir), `${JSON.stringify({ key, reason, at: new Date().toISOString() }, null, 2)}\n`);
  } catch {
    // nothing recorded
  }
}

/** Removes an entry that cannot be trusted. */
export function discardEntry(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
