// `openssl enc -aes-256-cbc -pbkdf2 -iter 100000` containers, decrypted in memory with node:crypto.
// Format (OpenSSL 1.1.1+): "Salted__" + 8-byte salt + AES-256-CBC ciphertext with PKCS#7 padding;
// key (32 bytes) and IV (16 bytes) are the first 48 bytes of PBKDF2-HMAC-SHA256(password, salt, iter).
import { createDecipheriv, pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';
import { DataError } from './errors.ts';

const pbkdf2Async = promisify(pbkdf2);

const OPENSSL_MAGIC = Buffer.from('Salted__', 'latin1');
const MULTILOKO_PBKDF2_ITERATIONS = 100_000;
/** The password the MultiLoKo authors publish in their README (the archive is encrypted only against crawlers). */
export const MULTILOKO_PASSWORD = 'multiloko';

interface OpensslKeyMaterial {
  key: Buffer;
  iv: Buffer;
}

async function deriveOpensslKey(password: string, salt: Uint8Array, iterations = MULTILOKO_PBKDF2_ITERATIONS): Promise<OpensslKeyMaterial> {
  const bytes = await pbkdf2Async(Buffer.from(password, 'utf8'), salt, iterations, 48, 'sha256');
  return { key: bytes.subarray(0, 32), iv: bytes.subarray(32, 48) };
}

/** Decrypts an openssl `enc -pbkdf2` container; `file` names it in errors. */
export async function decryptOpensslEnc(
  data: Uint8Array,
  password: string,
  file: string,
  iterations = MULTILOKO_PBKDF2_ITERATIONS,
): Promise<Buffer> {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buf.length < 16 || !buf.subarray(0, 8).equals(OPENSSL_MAGIC)) {
    throw new DataError(
      file,
      'is not an openssl-encrypted archive (it does not start with "Salted__"); expected the official benchmark_data.tar.xz.enc',
      { code: 'bad-archive' },
    );
  }
  const ciphertext = buf.subarray(16);
  if (ciphertext.length === 0 || ciphertext.length % 16 !== 0) {
    throw new DataError(
      file,
      `is truncated or corrupt: its encrypted payload is ${ciphertext.length} bytes, not a positive multiple of the 16-byte AES block (re-download it)`,
      { code: 'bad-archive' },
    );
  }
  const { key, iv } = await deriveOpensslKey(password, buf.subarray(8, 16), iterations);
  const decipher = createDecipheriv('aes-256-cbc', key, iv);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch (cause) {
    throw new DataError(
      file,
      'could not be decrypted (bad padding): wrong password or corrupt archive. The official password is "multiloko"; if it was set, check LOKAL_MULTILOKO_PASSWORD, otherwise re-download the archive',
      { code: 'wrong-password', cause },
    );
  }
}
