// A process that loaded a local model ends promptly. transformers.js's FileResponse starts reading the
// whole ONNX file into memory in the background even though onnxruntime opens it by path; on a 2 GB model that read
// kept a finished process alive for 16–89 s. With ModelFileCache no read stream is ever opened on a model's weights,
// for a local folder, its saved optimised graph, or a Hub model in the download cache.
import fs, { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env } from '@huggingface/transformers';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isOnnxWeights, requestedFile } from '../../src/models/modelFileCache.ts';
import { TransformersProvider } from '../../src/models/transformers.ts';
import { writeTinyModel } from '../support/tinyModel.ts';

const root = mkdtempSync(path.join(tmpdir(), 'lokal-model-file-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const model = path.join(root, 'tiny');
writeTinyModel(model, { layers: 1, hidden: 32, vocab: 320, seed: 5 });

// Every read stream opened in this process while a test runs (transformers.js opens them through the fs module object).
const opened: string[] = [];
const createReadStream = fs.createReadStream;
beforeEach(() => {
  opened.length = 0;
  fs.createReadStream = ((file: fs.PathLike, options?: unknown) => {
    opened.push(String(file));
    return createReadStream(file, options as Parameters<typeof createReadStream>[1]);
  }) as typeof fs.createReadStream;
});
afterEach(() => {
  fs.createReadStream = createReadStream;
});

const onnxStreams = () => opened.filter((file) => isOnnxWeights(file));

async function answers(provider: TransformersProvider): Promise<string> {
  const [result] = await provider.generate([{ prompt: 'D: Qual è la capitale?\nR:', maxNewTokens: 4 }]);
  await provider.close();
  return result!.text;
}

describe('loading a model opens no read stream on its ONNX weights', () => {
  test('a local folder: the model answers, and only the small files were read', async () => {
    const text = await answers(new TransformersProvider(model, { env: {}, saveOptimised: false, log: () => undefined }));
    expect(typeof text).toBe('string');
    expect(onnxStreams()).toEqual([]);
  });

  test('a saved optimised graph (graph and external data) on its first and second load', async () => {
    const cacheDir = path.join(root, 'saved-cache');
    const first = new TransformersProvider(model, { env: {}, cacheDir, saveOptimised: true, log: () => undefined });
    const firstText = await answers(first);
    expect(first.loadReport?.kind).toBe('optimised');
    const second = new TransformersProvider(model, { env: {}, cacheDir, saveOptimised: true, log: () => undefined });
    expect(await answers(second)).toBe(firstText);
    expect(second.loadReport?.kind).toBe('saved');
    expect(onnxStreams()).toEqual([]);
  });

  test('a Hub model in the download cache loads offline from FileCache\'s layout (<cache>/<owner>/<name>/…)', async () => {
    const cacheDir = path.join(root, 'hub-cache');
    cpSync(model, path.join(cacheDir, 'someone', 'tiny-model'), { recursive: true });
    const local = await answers(new TransformersProvider(model, { env: {}, saveOptimised: false, log: () => undefined }));
    opened.length = 0;
    const hub = new TransformersProvider('someone/tiny-model', { env: {}, cacheDir, allowRemote: false, modelDir: path.join(root, 'no-models'), dtype: 'fp32', saveOptimised: false, log: () => undefined });
    expect(hub.source).toEqual({ kind: 'hub', id: 'someone/tiny-model' });
    expect(await answers(hub)).toBe(local);
    expect(onnxStreams()).toEqual([]);
  });
});

/** Runs `work` with the model's files served as the Hub serves them (/<owner>/<name>/resolve/<revision>/<file>) at env.remoteHost. */
async function withServedModel(work: (stop: () => void) => Promise<void>): Promise<void> {
  const server = createServer((request, response) => {
    const file = /^\/owner\/served\/resolve\/main\/(.+)$/u.exec(request.url ?? '')?.[1];
    const local = file === undefined ? undefined : path.join(model, decodeURIComponent(file));
    if (local === undefined || !existsSync(local)) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-length': String(readFileSync(local).length) }).end(readFileSync(local));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const remoteHost = env.remoteHost;
  env.remoteHost = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    await work(() => server.close());
  } finally {
    env.remoteHost = remoteHost;
    server.close();
  }
}

test('a Hub model downloaded from a server is stored in FileCache\'s layout and then loads offline', async () => {
  await withServedModel(async (stop) => {
    const cacheDir = path.join(root, 'download-cache');
    const options = { env: {}, cacheDir, modelDir: path.join(root, 'no-models'), dtype: 'fp32' as const, saveOptimised: false, log: () => undefined };
    const local = await answers(new TransformersProvider(model, { env: {}, saveOptimised: false, log: () => undefined }));
    expect(await answers(new TransformersProvider('owner/served', { ...options, allowRemote: true }))).toBe(local);
    for (const file of ['config.json', 'tokenizer.json', 'onnx/model.onnx'])
      expect(readFileSync(path.join(cacheDir, 'owner/served', file)).equals(readFileSync(path.join(model, file))), file).toBe(true);
    stop();
    expect(await answers(new TransformersProvider('owner/served', { ...options, allowRemote: false }))).toBe(local);
    expect(onnxStreams()).toEqual([]);
  });
});

test('a download cache that is a file (ENOTDIR): the Hub model is downloaded, kept in memory and answers, with one warning', async () => {
  const cacheFile = path.join(root, 'cache-is-a-file');
  writeFileSync(cacheFile, 'not a folder');
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  await withServedModel(async () => {
    const local = await answers(new TransformersProvider(model, { env: {}, saveOptimised: false, log: () => undefined }));
    const options = { env: {}, cacheDir: cacheFile, modelDir: path.join(root, 'no-models'), dtype: 'fp32' as const, saveOptimised: false, allowRemote: true, log };
    expect(await answers(new TransformersProvider('owner/served', options))).toBe(local);
    expect(await answers(new TransformersProvider('owner/served', options))).toBe(local);
  });
  expect(lines.filter((line) => line.includes('LOKAL_MODEL_CACHE'))).toEqual([
    `lokal: the model cache ${cacheFile} (LOKAL_MODEL_CACHE) cannot be written (ENOTDIR): models load without saving there (downloads kept in memory, optimised graphs not saved); set LOKAL_MODEL_CACHE to a writable folder to keep them`,
  ]);
  expect(readFileSync(cacheFile, 'utf8')).toBe('not a folder');
});

describe('requestedFile: which file a transformers.js cache request stands for', () => {
  const cacheDir = path.join(root, 'layout');
  const host = 'https://huggingface.co/';
  mkdirSync(path.join(cacheDir, 'owner/name/onnx'), { recursive: true });
  mkdirSync(path.join(cacheDir, 'owner/name/v2'), { recursive: true });
  writeFileSync(path.join(cacheDir, 'owner/name/config.json'), '{}');
  writeFileSync(path.join(cacheDir, 'owner/name/onnx/model.onnx'), 'graph');
  writeFileSync(path.join(cacheDir, 'owner/name/v2/config.json'), '{}');

  test('Hub URLs map to <cache>/<id>/<file>, or <cache>/<id>/<revision>/<file> for another revision', () => {
    expect(requestedFile(`${host}owner/name/resolve/main/config.json`, cacheDir, host)).toBe(path.join(cacheDir, 'owner/name/config.json'));
    expect(requestedFile(`${host}owner/name/resolve/main/onnx/model.onnx`, cacheDir, host)).toBe(path.join(cacheDir, 'owner/name/onnx/model.onnx'));
    expect(requestedFile(`${host}owner/name/resolve/v2/config.json`, cacheDir, host)).toBe(path.join(cacheDir, 'owner/name/v2/config.json'));
    expect(requestedFile(`${host}owner/name/resolve/main/tokenizer.json`, cacheDir, host)).toBeUndefined();
    expect(requestedFile(`https://mirror.example/owner/name/resolve/main/config.json`, cacheDir, host)).toBeUndefined();
  });

  test('a local folder given as the model: its ONNX weights by path (absolute or as a URL), nothing else', () => {
    const graph = path.join(model, 'onnx', 'model.onnx');
    expect(requestedFile(graph, cacheDir, host)).toBe(graph);
    expect(requestedFile(`${host}${model.slice(1)}/resolve/main/onnx/model.onnx`, cacheDir, host)).toBe(graph);
    expect(requestedFile(path.join(model, 'config.json'), cacheDir, host)).toBeUndefined();
    expect(requestedFile(path.join(model, 'onnx', 'missing.onnx'), cacheDir, host)).toBeUndefined();
  });

  test('isOnnxWeights: graphs and their external data chunks', () => {
    expect(['model.onnx', 'model.onnx_data', 'model.onnx_data_1', 'model.onnx.data'].every(isOnnxWeights)).toBe(true);
    expect(['config.json', 'model.onnx.json', 'tokenizer.json'].some(isOnnxWeights)).toBe(false);
  });
});
