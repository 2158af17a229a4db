// Loads an encoder (tokenizer + ONNX model) for the learned metrics through transformers.js, from a local folder,
// from LOKAL_MODEL_DIR/<owner>/<name>, or from the Hub when downloads are allowed; offline, a clear error says
// what to provide (see MODELS.md beside this file).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { AutoModel, AutoModelForSequenceClassification, AutoTokenizer, env, LogLevel, Tensor } from '@huggingface/transformers';
import { envFlag, firstLine } from '../providerText.ts';
import { useModelFileCache } from '../modelFileCache.ts';
import { packageFile } from '../../core/packageFiles.ts';

/** Weight variants transformers.js loads, and their file under onnx/ (probed in this order in a local folder). */
const ENCODER_DTYPE_FILES = [
  ['fp32', 'model.onnx'],
  ['fp16', 'model_fp16.onnx'],
  ['q8', 'model_quantized.onnx'],
  ['int8', 'model_int8.onnx'],
  ['uint8', 'model_uint8.onnx'],
  ['q4', 'model_q4.onnx'],
  ['q4f16', 'model_q4f16.onnx'],
  ['bnb4', 'model_bnb4.onnx'],
] as const;
export type EncoderDtype = (typeof ENCODER_DTYPE_FILES)[number][0];

const HUB_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;
/** The guide to these models, as a path the reader can open (in node_modules/vitest-lokal/ for a user). */
export const encoderGuide = (): string => packageFile('src/models/encoders/MODELS.md');

type EncoderTask = 'BERTScore' | 'BLEURT';

export class EncoderModelError extends Error {
  constructor(
    readonly task: EncoderTask,
    message: string,
  ) {
    super(`${task}: ${message}`);
    this.name = 'EncoderModelError';
  }
}

export interface EncoderLoadOptions {
  /** Folder holding local models as <dir>/<owner>/<name>/ (default: LOKAL_MODEL_DIR). */
  modelDir?: string;
  /** Download cache of transformers.js (default: LOKAL_MODEL_CACHE, else the library's default). */
  cacheDir?: string;
  /** Allow downloads from the Hugging Face Hub (default: true unless LOKAL_OFFLINE=1 or HF_HUB_OFFLINE=1). */
  allowRemote?: boolean;
  /** Weight variant (default: the first present in a local folder, fp32 first; fp32 for Hub models). */
  dtype?: EncoderDtype;
  /** onnxruntime intra-op threads (default: onnxruntime's choice). */
  threads?: number;
  /** Environment to read (default process.env); tests pass their own. */
  env?: Record<string, string | undefined>;
}

export type EncoderSource = { kind: 'local'; path: string; id?: string } | { kind: 'hub'; id: string };

/** Where a model spec points: an existing folder (as given, or LOKAL_MODEL_DIR/<spec>) or a Hub id. */
export function resolveEncoderSource(task: EncoderTask, spec: string, modelDir: string | undefined): EncoderSource {
  const trimmed = spec.trim();
  if (trimmed === '') throw new EncoderModelError(task, 'empty model name: give a Hugging Face model id or a local folder');
  const asPath = path.resolve(trimmed);
  const isId = HUB_ID.test(trimmed);
  if (existsSync(asPath) && statSync(asPath).isDirectory()) return { kind: 'local', path: asPath, ...(isId ? { id: trimmed } : {}) };
  if (modelDir && isId) {
    const under = path.resolve(modelDir, trimmed);
    if (existsSync(under) && statSync(under).isDirectory()) return { kind: 'local', path: under, id: trimmed };
  }
  if (isId) return { kind: 'hub', id: trimmed };
  throw new EncoderModelError(
    task,
    `model folder "${trimmed}" does not exist (resolved to ${asPath}) and it is not a Hugging Face model id of the form owner/name`,
  );
}

/** The parts of a transformers.js tokenizer the learned metrics use. */
interface EncoderTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  convert_tokens_to_ids(token: string): number | undefined;
  config: Record<string, unknown>;
  pad_token_id?: number | null;
  model_max_length: number;
}

interface EncoderModel {
  (inputs: Record<string, Tensor>): Promise<Record<string, Tensor | undefined>>;
  config: Record<string, unknown>;
  sessions?: Record<string, { inputNames?: string[]; outputNames?: string[] }>;
  dispose(): Promise<unknown>;
}

export interface LoadedEncoder {
  source: EncoderSource;
  /** What to call the model in messages and results: the Hub id when known, else the folder. */
  name: string;
  dtype: EncoderDtype;
  tokenizer: EncoderTokenizer;
  model: EncoderModel;
  inputNames: string[];
  outputNames: string[];
}

/** A special token's id, named by a tokenizer_config.json key (a string or an AddedToken object). */
export function specialTokenId(tokenizer: EncoderTokenizer, key: 'cls_token' | 'sep_token' | 'pad_token'): number | undefined {
  const entry = tokenizer.config[key];
  const token = typeof entry === 'string' ? entry : entry && typeof entry === 'object' ? (entry as { content?: unknown }).content : undefined;
  if (typeof token !== 'string') return undefined;
  const id = tokenizer.convert_tokens_to_ids(token);
  return typeof id === 'number' ? id : undefined;
}

/**
 * Loads tokenizer and model. `head`: 'base' = AutoModel (hidden states), 'regression' = AutoModelForSequenceClassification.
 * Errors name the task, the model and where it was looked for.
 */
export async function loadEncoder(task: EncoderTask, spec: string, head: 'base' | 'regression', options: EncoderLoadOptions = {}): Promise<LoadedEncoder> {
  const vars = options.env ?? process.env;
  const modelDir = options.modelDir ?? vars.LOKAL_MODEL_DIR;
  const cacheDir = options.cacheDir ?? vars.LOKAL_MODEL_CACHE;
  const allowRemote = options.allowRemote ?? !(envFlag(vars.LOKAL_OFFLINE) || envFlag(vars.HF_HUB_OFFLINE));
  const source = resolveEncoderSource(task, spec, modelDir);
  const requested = options.dtype;
  if (requested !== undefined && !ENCODER_DTYPE_FILES.some(([d]) => d === requested))
    throw new EncoderModelError(task, `unknown dtype "${requested}" (one of ${ENCODER_DTYPE_FILES.map(([d]) => d).join(', ')})`);
  let dtype: EncoderDtype;
  if (source.kind === 'local') {
    for (const file of ['config.json', 'tokenizer.json']) {
      if (!existsSync(path.join(source.path, file)))
        throw new EncoderModelError(task, `${source.path} has no ${file}: expected a transformers.js model folder (see ${encoderGuide()})`);
    }
    const onnxDir = path.join(source.path, 'onnx');
    const present = ENCODER_DTYPE_FILES.filter(([, file]) => existsSync(path.join(onnxDir, file)));
    if (present.length === 0)
      throw new EncoderModelError(task, `${onnxDir} holds no ONNX weights (expected one of ${ENCODER_DTYPE_FILES.map(([, f]) => f).join(', ')}; see ${encoderGuide()})`);
    dtype = requested ?? present[0]![0];
    if (!present.some(([d]) => d === dtype))
      throw new EncoderModelError(task, `${onnxDir} has no weights for dtype ${dtype} (${ENCODER_DTYPE_FILES.find(([d]) => d === dtype)![1]})`);
  } else dtype = requested ?? 'fp32';
  const name = source.kind === 'hub' ? source.id : (source.id ?? source.path);

  if (!envFlag(process.env.LOKAL_DEBUG)) env.logLevel = LogLevel.ERROR;
  env.allowLocalModels = true;
  env.allowRemoteModels = source.kind === 'hub' && allowRemote;
  if (cacheDir) env.cacheDir = path.resolve(cacheDir);
  // Weights by path, without transformers.js reading the whole file in the background (modelFileCache.ts).
  useModelFileCache();
  const where = source.kind === 'local' ? source.path : source.id;
  try {
    const tokenizer = (await AutoTokenizer.from_pretrained(where)) as unknown as EncoderTokenizer;
    const loader = head === 'base' ? AutoModel : AutoModelForSequenceClassification;
    const model = (await loader.from_pretrained(where, {
      dtype,
      device: 'cpu',
      ...(options.threads ? { session_options: { intraOpNumThreads: options.threads } } : {}),
    })) as unknown as EncoderModel;
    const session = model.sessions?.model;
    return { source, name, dtype, tokenizer, model, inputNames: session?.inputNames ?? [], outputNames: session?.outputNames ?? [] };
  } catch (error) {
    const reason = firstLine(error);
    if (source.kind === 'local') throw new EncoderModelError(task, `cannot load the model in ${source.path}: ${reason} (see ${encoderGuide()})`);
    const looked = [modelDir ? `LOKAL_MODEL_DIR=${path.resolve(modelDir)}/${source.id}` : 'LOKAL_MODEL_DIR (not set)', `the download cache ${env.cacheDir ?? '(none)'}`];
    const remote = allowRemote
      ? `could not be loaded from the Hub (${reason}); most checkpoints, including the defaults, publish no ONNX weights`
      : `downloads are disabled (LOKAL_OFFLINE/HF_HUB_OFFLINE; ${reason})`;
    throw new EncoderModelError(
      task,
      `model "${source.id}" is not available locally (looked in ${looked.join(' and ')}) and ${remote}. ` +
        `Export it to ONNX once (instructions in ${encoderGuide()}) and put the folder (config.json, tokenizer.json, tokenizer_config.json, ` +
        `onnx/model.onnx) at LOKAL_MODEL_DIR/${source.id}/, or pass the folder as the model`,
    );
  }
}

/** A [rows, columns] int64 tensor from equal-length rows. */
export function int64Matrix(rows: number[][]): Tensor {
  const width = rows[0]?.length ?? 0;
  const data = new BigInt64Array(rows.length * width);
  rows.forEach((r, i) => {
    if (r.length !== width) throw new Error(`row ${i} has ${r.length} entries, expected ${width}`);
    for (let j = 0; j < width; j++) data[i * width + j] = BigInt(r[j]!);
  });
  return new Tensor('int64', data, [rows.length, width]);
}

