// SHA-256 (hex) of bytes or UTF-8 text: how fingerprints name data files, templates and model files.
import { createHash } from 'node:crypto';

export function sha256(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** SHA-256 (hex) of a file's bytes, read as a stream (a predictions file may be large); null when it cannot be read. */
export async function fileSha256(file: string): Promise<string | null> {
  const { createReadStream } = await import('node:fs');
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch {
    return null;
  }
  return hash.digest('hex');
}
