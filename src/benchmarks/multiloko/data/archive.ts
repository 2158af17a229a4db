// The official `benchmark_data.tar.xz.enc`, opened entirely in memory: decrypt → xz → tar, no plain-text files on disk.
import { decompress } from '@napi-rs/lzma/xz';
import tar from 'tar-stream';
import { DataError, previewText } from '../../../data/errors.ts';
import { DEFAULT_MAX_FILE_BYTES, readRegularFile } from '../../../data/files.ts';
import { MULTILOKO_PASSWORD, decryptOpensslEnc } from '../../../data/opensslEnc.ts';
import { ArchiveTree, type ArchiveEntry } from '../../../data/tree.ts';
import { XzFormatError, xzDecompressedSize } from '../../../data/xz.ts';

const ARCHIVE_ROOT_FOLDER = 'benchmark_data';

/** Splits a tar path into its segments; `.` and empty segments vanish. Backslashes count as separators. */
function segmentsOf(name: string): string[] {
  return name.split(/[\\/]/).filter((s) => s !== '' && s !== '.');
}

function isAbsolute(name: string): boolean {
  return name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name);
}

/** The entry's path, normalised; absolute paths, `..` segments and NUL bytes are refused. */
function safeEntryPath(name: string, archive: string): string {
  const problem = name.includes('\0')
    ? 'contains a NUL byte'
    : isAbsolute(name)
      ? 'is absolute'
      : segmentsOf(name).includes('..')
        ? 'contains a ".." segment'
        : undefined;
  if (problem) {
    throw new DataError(archive, `refusing unsafe tar entry ${JSON.stringify(name)}: its path ${problem}`, { code: 'unsafe-path' });
  }
  return segmentsOf(name).join('/');
}

/**
 * Where a link points, as a normalised archive path. Symlink targets are relative to the link's folder,
 * hard-link targets to the archive root; a target that is absolute or climbs out of the archive is refused.
 */
function linkTargetPath(entry: string, linkname: string, kind: 'symlink' | 'link', archive: string): string {
  const refuse = (why: string): never => {
    throw new DataError(
      archive,
      `refusing unsafe tar ${kind === 'symlink' ? 'symlink' : 'hard link'} ${JSON.stringify(entry)} → ${JSON.stringify(linkname)}: ${why}`,
      { code: 'unsafe-path' },
    );
  };
  if (linkname.includes('\0')) refuse('the target contains a NUL byte');
  if (isAbsolute(linkname)) refuse('the target is absolute');
  const resolved = kind === 'symlink' ? segmentsOf(entry).slice(0, -1) : [];
  for (const seg of segmentsOf(linkname)) {
    if (seg !== '..') resolved.push(seg);
    else if (resolved.length === 0) refuse('the target points outside the archive');
    else resolved.pop();
  }
  return resolved.join('/');
}

/** Bounds on what an archive may expand to; defaults far above the official archive (about 150 files). */
export interface ArchiveLimits {
  /** Largest decompressed tar, in bytes (default 1 GiB), checked from the xz chunk headers before decompressing. */
  maxArchiveBytes?: number;
  /** Most tar members: files, folders and links (default 100 000). */
  maxArchiveMembers?: number;
}

export const DEFAULT_MAX_ARCHIVE_BYTES = 2 ** 30;
export const DEFAULT_MAX_ARCHIVE_MEMBERS = 100_000;
/** Longest member path accepted (Linux's PATH_MAX). */
const MAX_ENTRY_PATH = 4096;

/**
 * Every member of a tar archive by normalised path (later entries replace earlier ones, as tar does): files with
 * their bytes, folders, and links with their target resolved to an archive path (not followed here).
 */
export async function readTarEntries(tarBytes: Uint8Array, archive: string, limits: ArchiveLimits = {}): Promise<Map<string, ArchiveEntry>> {
  const maxMembers = limits.maxArchiveMembers ?? DEFAULT_MAX_ARCHIVE_MEMBERS;
  const entries = new Map<string, ArchiveEntry>();
  const extract = tar.extract();
  extract.end(Buffer.from(tarBytes.buffer, tarBytes.byteOffset, tarBytes.byteLength));
  let members = 0;
  try {
    for await (const entry of extract) {
      const header = entry.header;
      if (++members > maxMembers) {
        throw new DataError(archive, `holds more than ${maxMembers} tar members (raise the limit with the maxArchiveMembers option)`, { code: 'too-large' });
      }
      if (header.name.length > MAX_ENTRY_PATH || (header.linkname ?? '').length > MAX_ENTRY_PATH) {
        throw new DataError(archive, `refusing unsafe tar entry ${previewText(header.name)}: its path or link target is longer than ${MAX_ENTRY_PATH} characters`, {
          code: 'unsafe-path',
        });
      }
      const name = safeEntryPath(header.name, archive);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (name === '') continue;
      if (header.type === 'file' || header.type === 'contiguous-file') {
        entries.set(name, { kind: 'file', bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
      } else if (header.type === 'directory') {
        entries.set(name, { kind: 'dir' });
      } else if (header.type === 'symlink' || header.type === 'link') {
        const target = linkTargetPath(name, header.linkname ?? '', header.type, archive);
        entries.set(name, { kind: 'link', target, hard: header.type === 'link' });
      }
      // Devices and fifos carry no data and are ignored.
    }
  } catch (cause) {
    if (cause instanceof DataError) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new DataError(archive, `contains a corrupt or truncated tar archive (${reason}); re-download it`, { code: 'bad-archive', cause });
  }
  return entries;
}

/**
 * All regular files of a tar archive, keyed by normalised path; a link to a file gives that file's bytes (links to
 * folders are not expanded: open the archive with openMultiLoKoArchive to follow them).
 */
export async function readTarFiles(tarBytes: Uint8Array, archive: string, limits: ArchiveLimits = {}): Promise<Map<string, Uint8Array>> {
  const entries = await readTarEntries(tarBytes, archive, limits);
  const tree = new ArchiveTree(archive, entries, '');
  const files = new Map<string, Uint8Array>();
  for (const [name, entry] of entries) {
    if (entry.kind === 'file') files.set(name, entry.bytes);
    else if (entry.kind === 'link') {
      const bytes = await tree.read(name).catch(() => undefined);
      if (bytes !== undefined) files.set(name, bytes);
    }
  }
  return files;
}

/** xz → tar, refusing before decompression an archive whose chunks add up to more than `maxBytes`. */
async function decompressXz(data: Uint8Array, archive: string, maxBytes = DEFAULT_MAX_ARCHIVE_BYTES): Promise<Buffer> {
  const notXz = (reason: string, cause: unknown) =>
    new DataError(archive, `decrypted, but the result is not valid xz data (${reason}): wrong password or corrupt archive`, { code: 'bad-archive', cause });
  const overLimit = (detail: string) =>
    new DataError(archive, `expands to ${detail}, more than the limit of ${maxBytes} bytes (raise it with the maxArchiveBytes option)`, { code: 'too-large' });
  let declared: number;
  try {
    declared = xzDecompressedSize(data, maxBytes);
  } catch (cause) {
    if (cause instanceof XzFormatError) throw notXz(cause.message, cause);
    throw cause;
  }
  if (declared > maxBytes) throw overLimit(`at least ${declared} bytes`);
  let tarBytes: Buffer;
  try {
    tarBytes = await decompress(data);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    // A buffer too large for Node (ERR_BUFFER_TOO_LARGE) or memory exhausted: say so, naming the file.
    if (cause instanceof RangeError || (cause as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw overLimit(`more than Node can hold (${reason})`);
    throw notXz(reason, cause);
  }
  if (tarBytes.length > maxBytes) throw overLimit(`${tarBytes.length} bytes`);
  return tarBytes;
}

interface OpenArchiveOptions extends ArchiveLimits {
  password?: string;
  /** Largest encrypted archive file read, in bytes (default 256 MiB). */
  maxFileBytes?: number;
}

/** Opens `benchmark_data.tar.xz.enc` (or any openssl-encrypted tar.xz of the same layout) as a dataset tree. */
export async function openMultiLoKoArchive(archivePath: string, options: OpenArchiveOptions = {}): Promise<ArchiveTree> {
  const encrypted = await readRegularFile(archivePath, {
    what: 'the archive',
    maxBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    option: 'maxFileBytes',
  });
  const xzBytes = await decryptOpensslEnc(encrypted, options.password ?? MULTILOKO_PASSWORD, archivePath);
  const tarBytes = await decompressXz(xzBytes, archivePath, options.maxArchiveBytes ?? DEFAULT_MAX_ARCHIVE_BYTES);
  const entries = await readTarEntries(tarBytes, archivePath, options);
  // The official archive holds one top folder, benchmark_data/; an archive of the language folders themselves works too.
  const prefix = `${ARCHIVE_ROOT_FOLDER}/`;
  const hasRootFolder = [...entries.keys()].some((name) => name.startsWith(prefix));
  return new ArchiveTree(archivePath, entries, hasRootFolder ? ARCHIVE_ROOT_FOLDER : '');
}
