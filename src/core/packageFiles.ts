// Files of this package named in messages, as paths the reader can open from where they run `lokal` or Vitest: in a
// user's project `node_modules/vitest-lokal/docs/models.md`, in a checkout `docs/models.md`. Each file named here is
// in package.json's "files", so it exists in the installed package too.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'vitest-lokal';

/** The folder holding this package's package.json: above src/core/ in a checkout, above dist/src/core/ when built. */
function findPackageRoot(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    try {
      if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) return dir;
    } catch {
      // An unreadable package.json on the way up is not ours.
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

let root: string | undefined | null = null;

/** The package's root folder (undefined only when its package.json was removed). */
function packageRoot(): string | undefined {
  if (root === null) root = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));
  return root;
}

/** A file of the package (`docs/models.md`), as a path from the working folder when it is below it, else absolute. */
export function packageFile(relative: string, cwd: string = process.cwd()): string {
  const base = packageRoot();
  if (base === undefined) return `${relative} in the ${PACKAGE_NAME} package`;
  const file = path.join(base, relative);
  const fromCwd = path.relative(cwd, file);
  return fromCwd !== '' && !fromCwd.startsWith('..') && !path.isAbsolute(fromCwd) ? fromCwd : file;
}

/** Whether this is a checkout of the repository (its scripts/ are there), not the installed package. */
export function isCheckout(): boolean {
  const base = packageRoot();
  return base !== undefined && existsSync(path.join(base, 'scripts', 'make-tiny-model.ts'));
}
