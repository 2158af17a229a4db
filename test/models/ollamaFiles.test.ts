// An Ollama manifest or model blob that is a FIFO is refused at once, naming the path (a read would wait forever).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ollamaManifestPath, resolveOllamaModel } from '../../src/models/ollamaModel.ts';
import { hasMkfifo, makeFifo } from '../support/fifo.ts';

const work = mkdtempSync(path.join(tmpdir(), 'lokal-ollama-files-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const DIGEST = `sha256:${'a'.repeat(64)}`;

/** An Ollama models folder for `tiny`, its manifest and blob as given ('fifo' makes that file a FIFO). */
function models(name: string, manifest: string | 'fifo', blob: string | 'fifo'): { dir: string; manifestFile: string; blobFile: string } {
  const dir = path.join(work, name);
  const manifestFile = ollamaManifestPath(dir, 'tiny');
  const blobFile = path.join(dir, 'blobs', DIGEST.replace(':', '-'));
  mkdirSync(path.dirname(manifestFile), { recursive: true });
  mkdirSync(path.dirname(blobFile), { recursive: true });
  if (manifest === 'fifo') makeFifo(manifestFile);
  else writeFileSync(manifestFile, manifest);
  if (blob === 'fifo') makeFifo(blobFile);
  else writeFileSync(blobFile, blob);
  return { dir, manifestFile, blobFile };
}

const MANIFEST = JSON.stringify({ layers: [{ mediaType: 'application/vnd.ollama.image.model', digest: DIGEST }] });

test('a regular manifest and blob resolve to the blob', () => {
  const { dir, blobFile } = models('plain', MANIFEST, 'GGUF');
  expect(resolveOllamaModel('tiny', dir)).toEqual({ file: blobFile, digest: DIGEST });
});

test.skipIf(!hasMkfifo)('a FIFO as the manifest or as the blob is refused at once', { timeout: 10_000 }, () => {
  const manifest = models('manifest', 'fifo', 'GGUF');
  expect(() => resolveOllamaModel('tiny', manifest.dir)).toThrow(`${manifest.manifestFile}: cannot read Ollama manifest: it is a FIFO (named pipe); only regular files are read`);
  const blob = models('blob', MANIFEST, 'fifo');
  expect(() => resolveOllamaModel('tiny', blob.dir)).toThrow(`${blob.blobFile}: cannot read Ollama model blob: it is a FIFO (named pipe); only regular files are read`);
});
