// A hand-made .xz file for size-limit tests: LZMA2 chunk headers that declare gigabytes in a few kilobytes.
import { crc32 } from 'node:zlib';

const le32 = (value: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value >>> 0);
  return b;
};

/**
 * An .xz file whose LZMA2 chunk headers declare `chunks` × 2 MiB of output (the packed bytes are not valid LZMA: the
 * size check must refuse it from the headers alone, before any decoder runs).
 */
export function xzDeclaring(chunks: number): Buffer {
  const flags = Buffer.from([0x00, 0x01]); // CRC32 check
  const header = Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), flags, le32(crc32(flags))]);
  const blockHeaderBody = Buffer.from([0x02, 0x00, 0x21, 0x01, 0x16, 0x00, 0x00, 0x00]);
  const blockHeader = Buffer.concat([blockHeaderBody, le32(crc32(blockHeaderBody))]);
  const parts: Buffer[] = [];
  for (let i = 0; i < chunks; i++) {
    // 0xFF: LZMA chunk with dictionary reset and properties; 0x9F: LZMA chunk, no reset. Unpacked 2 MiB, packed 1 byte.
    parts.push(i === 0 ? Buffer.from([0xff, 0xff, 0xff, 0x00, 0x00, 0x5d, 0x00]) : Buffer.from([0x9f, 0xff, 0xff, 0x00, 0x00, 0x00]));
  }
  parts.push(Buffer.from([0x00]));
  const data = Buffer.concat(parts);
  const padding = Buffer.alloc((4 - (data.length % 4)) % 4);
  const block = Buffer.concat([blockHeader, data, padding, le32(crc32(data))]);
  return Buffer.concat([header, block]);
}

