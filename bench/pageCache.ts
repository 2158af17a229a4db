// Evicting a model's own files from the page cache before a cold-load round of `npm run bench -- load`:
// posix_fadvise(POSIX_FADV_DONTNEED) on each file through python3's os.posix_fadvise (Node has no fadvise), and
// where that is not possible a fresh copy of each file put in its place (the old file's pages go with it; the copy's
// written pages may stay cached, so the bench prints what fincore still finds resident).
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, renameSync } from 'node:fs';
import path from 'node:path';

const FADVISE = 'import os, sys\nfor f in sys.argv[1:]:\n    fd = os.open(f, os.O_RDONLY)\n    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)\n    os.close(fd)\n';

/** Every regular file under the folders, recursively. */
export function filesUnder(...folders: string[]): string[] {
  return folders.flatMap((folder) => readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)));
}

/** Bytes of `files` in the page cache (fincore from util-linux), or undefined when fincore is not there. */
export function residentBytes(files: string[]): number | undefined {
  const out = spawnSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', ...files], { encoding: 'utf8' });
  if (out.status !== 0) return undefined;
  return out.stdout.trim().split('\n').reduce((sum, line) => sum + (Number(line.trim()) || 0), 0);
}

/**
 * Evicts `files` from the page cache and says how: posix_fadvise, or (python3 missing) fresh copies of `copyable`
 * only — files whose inode may change (a saved graph's entry, tokenizer and configs; not the model's weights, whose
 * identity is in the saved graph's key).
 */
export function evictFromPageCache(files: string[], copyable: (file: string) => boolean): 'posix_fadvise' | 'fresh copy' {
  const out = spawnSync('python3', ['-c', FADVISE, ...files], { encoding: 'utf8' });
  if (out.status === 0) return 'posix_fadvise';
  for (const file of files.filter(copyable)) {
    const copy = `${file}.cold-${process.pid}`;
    copyFileSync(file, copy);
    renameSync(copy, file);
  }
  return 'fresh copy';
}
