// SHA-256 (hex) of bytes or UTF-8 text: how fingerprints name data files, templates and model files.
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';

// Node's one-shot crypto.hash (20.12 and later): no Hash object per call, a third of the time on the short texts a
// redacted run hashes (each item's question, answers and targets); the same digest.
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array | string, encoding: 'hex') => string }).hash;

export function sha256(content: Uint8Array | string): string {
  return oneShot ? oneShot('sha256', content, 'hex') : createHash('sha256').update(content).digest('hex');
}

/**
 * SHA-256 (hex) of a file's bytes, read a mebibyte at a time (a predictions file may be large) through a file handle:
 * a read stream would first load Node's streams stack; null when it cannot be read.
 */
export async function fileSha256(file: string): Promise<string | null> {
  const { open } = await import('node:fs/promises');
  const hash = createHash('sha256');
  const buffer = new Uint8Array(1 << 20);
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, 'r');
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
  return hash.digest('hex');
}
