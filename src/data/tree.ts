// A dataset tree: the files of a `benchmark_data/` root, read from a folder on disk or from an archive in memory.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { DataError } from './errors.ts';

export interface TreeEntry {
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
  constructor(readonly location: string) {}

  describe(relPath: string): string {
    return path.join(this.location, ...relPath.split('/'));
  }

  async list(relDir: string): Promise<TreeEntry[]> {
    const dir = relDir === '' ? this.location : this.describe(relDir);
    const dirents = await readdir(dir, { withFileTypes: true });
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
    const file = this.describe(relPath);
    try {
      return await readFile(file);
    } catch (cause) {
      throw new DataError(file, `cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`, { cause });
    }
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
