// transformers.js's file cache without its background reads. Its FileCache and local files answer with a FileResponse,
// which starts reading the whole file into memory as it is made, even when only the path is used (ONNX weights in
// Node: onnxruntime opens them itself). For a 2 GB model that read holds the file's bytes in memory and keeps the
// process alive for seconds to a minute after its work is done. This cache answers ONNX weights with their path and
// other files with their bytes, in FileCache's folder layout (<cacheDir>/<model id>[/<revision>]/<file>).
import { createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { env } from '@huggingface/transformers';
import { isUnder, unwritableCacheWarning } from './unwritableCache.ts';

/** transformers.js's default remote path template: the only one whose URLs this cache maps back to files. */
const DEFAULT_PATH_TEMPLATE = '{model}/resolve/{revision}/';

/** ONNX graphs and their external data (model.onnx, model.onnx_data, model.onnx_data_1, model.onnx.data): onnxruntime opens these by path. */
export function isOnnxWeights(file: string): boolean {
  return /\.onnx(?:[._]data(?:_\d+)?)?$/u.test(file);
}

function isFile(file: string): boolean {
  return existsSync(file) && statSync(file).isFile();
}

/**
 * The file a request names, or undefined. transformers.js asks with a local path first (a local model's file, or
 * <localModelPath>/<id>/<file>), then with the file's Hub URL, which stands for <cacheDir>/<id>[/<revision>]/<file>
 * (FileCache's layout) or, for a local folder given as the model, that folder's file.
 */
export function requestedFile(request: string, cacheDir: string | null | undefined, remoteHost: string): string | undefined {
  if (path.isAbsolute(request)) return isOnnxWeights(request) && isFile(request) ? request : undefined;
  const host = remoteHost.endsWith('/') ? remoteHost : `${remoteHost}/`;
  if (!request.startsWith(host)) return undefined;
  const parts = /^(.+?)\/resolve\/([^/]+)\/(.+)$/u.exec(request.slice(host.length));
  if (!parts) return undefined;
  const [, model, encodedRevision, file] = parts as unknown as [string, string, string, string];
  const revision = decodeURIComponent(encodedRevision);
  // A local folder's URL lost its leading slash (POSIX) or kept its drive letter (Windows).
  const folder = path.isAbsolute(model) ? model : `/${model}`;
  if (existsSync(path.join(folder, 'config.json'))) {
    const local = path.join(folder, file);
    return isOnnxWeights(local) && isFile(local) ? local : undefined;
  }
  if (!cacheDir) return undefined;
  const cached = revision === 'main' ? path.join(cacheDir, model, file) : path.join(cacheDir, model, revision, file);
  return isFile(cached) ? cached : undefined;
}

/** Where the cache's warnings go: the log of the load that last installed it (useModelFileCache). */
let warn: (line: string) => void = (line) => console.warn(line);

/** The cache interface transformers.js's getModelFile uses (the Web Cache API's match and put). */
class ModelFileCache {
  /** Downloads a cache folder that cannot be written could not keep, by request: this process still loads them. */
  private readonly inMemory = new Map<string, Uint8Array>();

  async match(request: string): Promise<Response | string | undefined> {
    const kept = this.inMemory.get(request);
    if (kept) return new Response(kept, { status: 200, headers: { 'content-length': String(kept.length) } });
    const file = requestedFile(request, env.cacheDir, env.remoteHost);
    if (file === undefined) return undefined;
    if (isOnnxWeights(file)) return file;
    const bytes = readFileSync(file);
    return new Response(bytes, { status: 200, headers: { 'content-length': String(bytes.length) } });
  }

  /** Stores a download where FileCache would: written to a temporary file, then renamed, so no reader sees half a file. */
  async put(request: string, response: Response): Promise<void> {
    const host = env.remoteHost.endsWith('/') ? env.remoteHost : `${env.remoteHost}/`;
    const parts = request.startsWith(host) ? /^(.+?)\/resolve\/([^/]+)\/(.+)$/u.exec(request.slice(host.length)) : null;
    if (!parts || !env.cacheDir || !response.body) return;
    const [, model, encodedRevision, name] = parts as unknown as [string, string, string, string];
    const revision = decodeURIComponent(encodedRevision);
    const file = revision === 'main' ? path.join(env.cacheDir, model, name) : path.join(env.cacheDir, model, revision, name);
    const temporary = `${file}.tmp.${process.pid}.${Date.now().toString(36)}`;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(temporary, '');
    } catch (error) {
      // A cache that is a file or read-only (before the body is read: it is then kept in memory instead).
      if (!isUnder((error as NodeJS.ErrnoException).path, env.cacheDir)) throw error;
      const warning = unwritableCacheWarning(path.resolve(env.cacheDir), error);
      if (warning) warn(warning);
      this.inMemory.set(request, new Uint8Array(await response.arrayBuffer()));
      return;
    }
    try {
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(temporary));
      await rename(temporary, file);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }
}

/**
 * Makes transformers.js use ModelFileCache for every model and encoder it loads in this process (`log`: where the
 * warnings of the load about to start go). Left alone when the caller set a cache of their own or a remote path template whose URLs
 * it cannot map back to files.
 */
export function useModelFileCache(log: (line: string) => void = (line) => console.warn(line)): void {
  warn = log;
  if (env.useCustomCache || env.remotePathTemplate !== DEFAULT_PATH_TEMPLATE || !env.useFSCache) return;
  env.customCache = new ModelFileCache();
  env.useCustomCache = true;
}
