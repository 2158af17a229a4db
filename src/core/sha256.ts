// SHA-256 (hex) of bytes or UTF-8 text: how fingerprints name data files, templates and model files.
import { createHash } from 'node:crypto';

export function sha256(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('hex');
}
