// The decompressed size of an .xz file, read from its LZMA2 chunk headers without decompressing anything: every
// chunk states its unpacked size, and a decoder must produce exactly that, so the sum bounds the output before a byte
// of it is allocated (the xz index is not trusted: it is only checked after the data it describes was decoded).
// Format: https://tukaani.org/xz/xz-file-format.txt (streams, blocks, index) and the LZMA2 chunk headers.

export class XzFormatError extends Error {}

const STREAM_MAGIC = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00];
const LZMA2_FILTER = 0x21;
/** Bytes of the check field by check type (xz-file-format §2.1.1.2). */
const CHECK_BYTES = [0, 4, 4, 4, 8, 8, 8, 16, 16, 16, 32, 32, 32, 64, 64, 64];

/**
 * Sum of the unpacked sizes of every LZMA2 chunk of every block of every stream; stops early once the sum is above
 * `stopAbove`. Throws XzFormatError on anything that is not a well-formed xz file with LZMA2 blocks.
 */
export function xzDecompressedSize(data: Uint8Array, stopAbove = Infinity): number {
  let pos = 0;
  let total = 0;
  const need = (bytes: number, what: string): void => {
    if (pos + bytes > data.length) throw new XzFormatError(`truncated ${what}`);
  };
  const varint = (what: string): number => {
    let value = 0;
    for (let i = 0; i < 9; i++) {
      need(1, what);
      const byte = data[pos++]!;
      value += (byte & 0x7f) * 2 ** (7 * i);
      if ((byte & 0x80) === 0) return value;
    }
    throw new XzFormatError(`${what}: integer longer than 9 bytes`);
  };

  let streams = 0;
  while (pos < data.length) {
    if (streams > 0 && data[pos] === 0) {
      // Stream padding: zero bytes in groups of four.
      need(4, 'stream padding');
      if (data[pos + 1] !== 0 || data[pos + 2] !== 0 || data[pos + 3] !== 0) throw new XzFormatError('bad stream padding');
      pos += 4;
      continue;
    }
    need(12, 'stream header');
    if (STREAM_MAGIC.some((byte, i) => data[pos + i] !== byte)) {
      throw new XzFormatError(streams === 0 ? 'it does not start with the xz magic bytes' : 'unexpected bytes after the xz stream');
    }
    const flags = data[pos + 7]!;
    if (data[pos + 6] !== 0 || (flags & 0xf0) !== 0) throw new XzFormatError('unsupported stream flags');
    const checkBytes = CHECK_BYTES[flags & 0x0f]!;
    pos += 12;
    for (;;) {
      need(1, 'block header');
      if (data[pos] === 0) {
        // The index, then the stream footer.
        const indexStart = pos++;
        const records = varint('index');
        for (let i = 0; i < records; i++) {
          varint('index record');
          varint('index record');
        }
        pos += (4 - ((pos - indexStart) % 4)) % 4;
        need(4 + 12, 'index and stream footer');
        pos += 4;
        if (data[pos + 10] !== 0x59 || data[pos + 11] !== 0x5a) throw new XzFormatError('bad stream footer');
        pos += 12;
        break;
      }
      const headerStart = pos;
      const headerBytes = (data[pos]! + 1) * 4;
      need(headerBytes, 'block header');
      const blockFlags = data[pos + 1]!;
      pos += 2;
      if (blockFlags & 0x40) varint('block header');
      if (blockFlags & 0x80) varint('block header');
      let lastFilter = -1;
      for (let f = 0; f <= (blockFlags & 0x03); f++) {
        lastFilter = varint('filter flags');
        pos += varint('filter flags');
      }
      if (pos > headerStart + headerBytes - 4) throw new XzFormatError('bad block header');
      if (lastFilter !== LZMA2_FILTER) throw new XzFormatError(`unsupported filter ${lastFilter} (expected LZMA2)`);
      pos = headerStart + headerBytes;
      const dataStart = pos;
      for (;;) {
        need(1, 'LZMA2 chunk');
        const control = data[pos]!;
        if (control === 0x00) {
          pos++;
          break;
        }
        if (control === 0x01 || control === 0x02) {
          need(3, 'LZMA2 chunk header');
          const size = ((data[pos + 1]! << 8) | data[pos + 2]!) + 1;
          pos += 3 + size;
          total += size;
        } else if (control >= 0x80) {
          need(5, 'LZMA2 chunk header');
          const unpacked = (control & 0x1f) * 65536 + ((data[pos + 1]! << 8) | data[pos + 2]!) + 1;
          const packed = ((data[pos + 3]! << 8) | data[pos + 4]!) + 1;
          pos += 5 + (control >= 0xc0 ? 1 : 0) + packed;
          total += unpacked;
        } else {
          throw new XzFormatError(`invalid LZMA2 control byte 0x${control.toString(16).padStart(2, '0')}`);
        }
        if (total > stopAbove) return total;
        if (pos > data.length) throw new XzFormatError('truncated LZMA2 chunk');
      }
      pos += (4 - ((pos - dataStart) % 4)) % 4;
      need(checkBytes, 'block check');
      pos += checkBytes;
    }
    streams++;
  }
  if (streams === 0) throw new XzFormatError('it is empty');
  return total;
}
