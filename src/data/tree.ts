// A dataset tree: the files of a `benchmark_data/` root, read from a folder on disk or from an archive in memory.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { DataError } from './errors.ts';
import { DEFAULT_MAX_FILE_BYTES, ioError, readRegularFile } from './files.ts';

interface TreeEntry {
  name: string;
  kind: 'dir' | 'file';
}

export interface DatasetTree {
  /** The folder or archive the data was read from. */
  readonly location: string;
  /** How a file of the tree is named in messages (`relPath` is relative to the dataset root, `/`-separated). */
  describe(relPath: string): string;
  /** Children of a folder of the tree (`''` is the root), in no particular order. */
  list(relDir: string): Promise<TreeEntry[]>;
  read(relPath: string): Promise<Uint8Array>;
}

export class FolderTree implements DatasetTree {
  /** `maxFileBytes`: largest file read (default 256 MiB); FIFOs, devices and other non-regular files are refused. */
  constructor(
    readonly location: string,
    private readonly options: { maxFileBytes?: number } = {},
  ) {}

  describe(relPath: string): string {
    return path.join(this.location, ...relPath.split('/'));
  }

  async list(relDir: string): Promise<TreeEntry[]> {
    const dir = relDir === '' ? this.location : this.describe(relDir);
    const dirents = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
      throw ioError(dir, 'cannot list the folder', error);
    });
    const entries: TreeEntry[] = [];
    for (const d of dirents) {
      let isDir = d.isDirectory();
      // Follow symlinks as Python's os.path.isdir does; a dangling link counts as a file.
      if (d.isSymbolicLink()) isDir = await stat(path.join(dir, d.name)).then((s) => s.isDirectory(), () => false);
      entries.push({ name: d.name, kind: isDir ? 'dir' : 'file' });
    }
    return entries;
  }

  async read(relPath: string): Promise<Uint8Array> {
    return readRegularFile(this.describe(relPath), {
      what: 'the dataset file',
      maxBytes: this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      option: 'maxFileBytes',
    });
  }
}

/** Files held in memory, keyed by `/`-separated paths relative to the dataset root. */
export class MemoryTree implements DatasetTree {
  constructor(
    readonly location: string,
    private readonly files: ReadonlyMap<string, Uint8Array>,
    /** Path of the dataset root inside the archive (e.g. `benchmark_data`), for messages. */
    private readonly rootInArchive: string,
  ) {}

  describe(relPath: string): string {
    const inner = this.rootInArchive === '' ? relPath : `${this.rootInArchive}/${relPath}`;
    return `${this.location}!/${inner}`;
  }

  async list(relDir: string): Promise<TreeEntry[]> {
    const prefix = relDir === '' ? '' : `${relDir}/`;
    const kinds = new Map<string, 'dir' | 'file'>();
    for (const name of this.files.keys()) {
      if (!name.startsWith(prefix)) continue;
      const rest = name.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash === -1) {
        if (!kinds.has(rest)) kinds.set(rest, 'file');
      } else {
        kinds.set(rest.slice(0, slash), 'dir');
      }
    }
    return [...kinds].map(([name, kind]) => ({ name, kind }));
  }

  async read(relPath: string): Promise<Uint8Array> {
    const bytes = this.files.get(relPath);
    if (bytes === undefined) throw new DataError(this.describe(relPath), 'is not in the archive');
    return bytes;
  }
}

/** One member of an archive: a file's bytes, a folder, or a link (target: a normalised path from the archive root). */
export type ArchiveEntry =
  | { kind: 'file'; bytes: Uint8Array }
  | { kind: 'dir' }
  | { kind: 'link'; target: string; hard: boolean };

/** Links followed while resolving one path before it counts as a loop (Linux's limit for symlinks). */
export const MAX_LINK_HOPS = 40;

/**
 * The members of an archive as a tree rooted at `root` (e.g. `benchmark_data`). Links are resolved when a path is
 * listed or read, with at most MAX_LINK_HOPS per path: a chain or loop of links costs that much, never a copy of
 * the tree.
 */
export class ArchiveTree implements DatasetTree {
  /** Folder path → names of its children (folders implied by deeper members included). */
  private readonly children = new Map<string, Set<string>>();

  constructor(
    readonly location: string,
    private readonly entries: ReadonlyMap<string, ArchiveEntry>,
    /** Archive path of the dataset root (`''`: the archive root). */
    private readonly root: string,
  ) {
    for (const name of entries.keys()) {
      let parent = '';
      let at = 0;
      for (;;) {
        const slash = name.indexOf('/', at);
        const child = slash === -1 ? name : name.slice(0, slash);
        let names = this.children.get(parent);
        if (!names) this.children.set(parent, (names = new Set()));
        names.add(child.slice(at));
        if (slash === -1) break;
        parent = child;
        at = slash + 1;
      }
    }
  }

  private inArchive(relPath: string): string {
    return this.root === '' ? relPath : relPath === '' ? this.root : `${this.root}/${relPath}`;
  }

  describe(relPath: string): string {
    return `${this.location}!/${this.inArchive(relPath)}`;
  }

  /** The path with every link in it replaced by its target; `lastLink`: the last link followed, for messages. */
  private resolve(archivePath: string): { path: string; lastLink?: { name: string; target: string } } {
    let pending = archivePath === '' ? [] : archivePath.split('/');
    let done = '';
    let hops = 0;
    let lastLink: { name: string; target: string } | undefined;
    for (let i = 0; i < pending.length; i++) {
      const candidate = done === '' ? pending[i]! : `${done}/${pending[i]}`;
      const entry = this.entries.get(candidate);
      if (entry?.kind !== 'link') {
        done = candidate;
        continue;
      }
      if (++hops > MAX_LINK_HOPS) {
        throw new DataError(
          this.location,
          `tar links loop or chain too deep: more than ${MAX_LINK_HOPS} links followed while resolving ${JSON.stringify(archivePath)} (last: ${JSON.stringify(candidate)} → ${JSON.stringify(entry.target)})`,
          { code: 'bad-archive' },
        );
      }
      lastLink = { name: candidate, target: entry.target };
      pending = [...(entry.target === '' ? [] : entry.target.split('/')), ...pending.slice(i + 1)];
      done = '';
      i = -1;
    }
    return { path: done, ...(lastLink ? { lastLink } : {}) };
  }

  private isDir(archivePath: string): boolean {
    return archivePath === '' || this.entries.get(archivePath)?.kind === 'dir' || this.children.has(archivePath);
  }

  async list(relDir: string): Promise<TreeEntry[]> {
    const dir = this.resolve(this.inArchive(relDir)).path;
    const entries: TreeEntry[] = [];
    for (const name of this.children.get(dir) ?? []) {
      const child = dir === '' ? name : `${dir}/${name}`;
      let isDir = this.isDir(child);
      if (this.entries.get(child)?.kind === 'link') {
        // As FolderTree: a link counts as what it points to; a dangling or looping one as a file (read names it).
        try {
          isDir = this.isDir(this.resolve(child).path);
        } catch {
          isDir = false;
        }
      }
      entries.push({ name, kind: isDir ? 'dir' : 'file' });
    }
    return entries;
  }

  async read(relPath: string): Promise<Uint8Array> {
    const { path: resolved, lastLink } = this.resolve(this.inArchive(relPath));
    const entry = this.entries.get(resolved);
    if (entry?.kind === 'file') return entry.bytes;
    const targetMissing = lastLink !== undefined && !this.entries.has(lastLink.target) && !this.isDir(lastLink.target);
    if (lastLink && targetMissing && entry === undefined) {
      throw new DataError(
        this.location,
        `tar link ${JSON.stringify(lastLink.name)} points to ${JSON.stringify(lastLink.target)}, which is not in the archive`,
        { code: 'bad-archive' },
      );
    }
    throw new DataError(this.describe(relPath), this.isDir(resolved) ? 'is a folder, not a file' : 'is not in the archive');
  }
}
