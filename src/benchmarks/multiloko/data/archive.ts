// The official `benchmark_data.tar.xz.enc`, opened entirely in memory: decrypt → xz → tar, no plain-text files on disk.
import { readFile } from 'node:fs/promises';
import { decompress } from '@napi-rs/lzma/xz';
import tar from 'tar-stream';
import { DataError } from '../../../data/errors.ts';
import { MULTILOKO_PASSWORD, decryptOpensslEnc } from '../../../data/opensslEnc.ts';
import { MemoryTree } from '../../../data/tree.ts';

export const ARCHIVE_ROOT_FOLDER = 'benchmark_data';

/** Splits a tar path into its segments; `.` and empty segments vanish. Backslashes count as separators. */
function segmentsOf(name: string): string[] {
  return name.split(/[\\/]/).filter((s) => s !== '' && s !== '.');
}

function isAbsolute(name: string): boolean {
  return name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name);
}

/** The entry's path, normalised; absolute paths, `..` segments and NUL bytes are refused. */
export function safeEntryPath(name: string, archive: string): string {
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
export function linkTargetPath(entry: string, linkname: string, kind: 'symlink' | 'link', archive: string): string {
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

interface PendingLink {
  entry: string;
  target: string;
}

/** Gives each link the content of its target (a file, or every file of a folder), following chains. */
function materialiseLinks(files: Map<string, Uint8Array>, links: PendingLink[], archive: string): void {
  let pending = links;
  for (let round = 0; pending.length > 0 && round <= links.length; round++) {
    const unresolved: PendingLink[] = [];
    for (const link of pending) {
      const direct = files.get(link.target);
      if (direct !== undefined) {
        files.set(link.entry, direct);
        continue;
      }
      const prefix = link.target === '' ? '' : `${link.target}/`;
      const inside = [...files].filter(([name]) => name.startsWith(prefix) && !name.startsWith(`${link.entry}/`));
      if (inside.length > 0) for (const [name, bytes] of inside) files.set(`${link.entry}/${name.slice(prefix.length)}`, bytes);
      else unresolved.push(link);
    }
    if (unresolved.length === pending.length) break;
    pending = unresolved;
  }
  if (pending.length > 0) {
    const link = pending[0]!;
    throw new DataError(archive, `tar link ${JSON.stringify(link.entry)} points to ${JSON.stringify(link.target)}, which is not in the archive`, {
      code: 'bad-archive',
    });
  }
}

/** All regular files of a tar archive, keyed by normalised path (later entries replace earlier ones, as tar does). */
export async function readTarFiles(tarBytes: Uint8Array, archive: string): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  const links: PendingLink[] = [];
  const extract = tar.extract();
  extract.end(Buffer.from(tarBytes.buffer, tarBytes.byteOffset, tarBytes.byteLength));
  try {
    for await (const entry of extract) {
      const header = entry.header;
      const name = safeEntryPath(header.name, archive);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (header.type === 'file' || header.type === 'contiguous-file') {
        if (name !== '') files.set(name, Buffer.concat(chunks));
      } else if (header.type === 'symlink' || header.type === 'link') {
        links.push({ entry: name, target: linkTargetPath(name, header.linkname ?? '', header.type, archive) });
      }
      // Folders need no record; devices and fifos carry no data and are ignored.
    }
  } catch (cause) {
    if (cause instanceof DataError) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new DataError(archive, `contains a corrupt or truncated tar archive (${reason}); re-download it`, { code: 'bad-archive', cause });
  }
  materialiseLinks(files, links, archive);
  return files;
}

export async function decompressXz(data: Uint8Array, archive: string): Promise<Buffer> {
  try {
    return await decompress(data);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new DataError(
      archive,
      `decrypted, but the result is not valid xz data (${reason}): wrong password or corrupt archive`,
      { code: 'bad-archive', cause },
    );
  }
}

export interface OpenArchiveOptions {
  password?: string;
}

/** Opens `benchmark_data.tar.xz.enc` (or any openssl-encrypted tar.xz of the same layout) as a dataset tree. */
export async function openMultiLoKoArchive(archivePath: string, options: OpenArchiveOptions = {}): Promise<MemoryTree> {
  let encrypted: Buffer;
  try {
    encrypted = await readFile(archivePath);
  } catch (cause) {
    throw new DataError(archivePath, `cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`, { code: 'not-found', cause });
  }
  const xzBytes = await decryptOpensslEnc(encrypted, options.password ?? MULTILOKO_PASSWORD, archivePath);
  const tarBytes = await decompressXz(xzBytes, archivePath);
  const all = await readTarFiles(tarBytes, archivePath);
  // The official archive holds one top folder, benchmark_data/; an archive of the language folders themselves works too.
  const hasRootFolder = [...all.keys()].some((name) => name.startsWith(`${ARCHIVE_ROOT_FOLDER}/`));
  if (!hasRootFolder) return new MemoryTree(archivePath, all, '');
  const prefix = `${ARCHIVE_ROOT_FOLDER}/`;
  const files = new Map<string, Uint8Array>();
  for (const [name, bytes] of all) if (name.startsWith(prefix)) files.set(name.slice(prefix.length), bytes);
  return new MemoryTree(archivePath, files, ARCHIVE_ROOT_FOLDER);
}
