// Where the MultiLoKo data is: an explicit path, LOKAL_MULTILOKO, or ./data/ — and how to get it when it is nowhere.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { DataError } from '../../../data/errors.ts';

export const MULTILOKO_ENV = 'LOKAL_MULTILOKO';
export const MULTILOKO_PASSWORD_ENV = 'LOKAL_MULTILOKO_PASSWORD';
export const DEFAULT_DATA_DIR = 'data';
export const MULTILOKO_ARCHIVE_NAME = 'benchmark_data.tar.xz.enc';
const MULTILOKO_FOLDER_NAME = 'benchmark_data';

export type MultiLoKoLocation = { kind: 'folder'; path: string } | { kind: 'archive'; path: string };

export interface LocateOptions {
  /** Folder that `data/` is relative to; default process.cwd(). */
  cwd?: string;
  /** Environment to read LOKAL_MULTILOKO from; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The three ways to provide the data, as printed whenever it cannot be found. */
export function howToProvideMultiLoKo(dataDir = DEFAULT_DATA_DIR): string {
  const archive = path.join(dataDir, MULTILOKO_ARCHIVE_NAME);
  const folder = path.join(dataDir, MULTILOKO_FOLDER_NAME);
  return [
    'Provide the MultiLoKo data in one of these ways:',
    `  - set ${MULTILOKO_ENV} to the official ${MULTILOKO_ARCHIVE_NAME} or to an extracted ${MULTILOKO_FOLDER_NAME}/ folder`,
    `  - run \`npx lokal data fetch\` to download the official archive into ${dataDir}/`,
    `  - place the archive at ${archive} (from https://github.com/facebookresearch/multiloko), or extract it to ${folder}/`,
  ].join('\n');
}

async function kindOf(p: string): Promise<'file' | 'dir' | undefined> {
  try {
    const s = await stat(p);
    return s.isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

/** True when some non-debug subfolder holds a `.jsonl` file, i.e. the folder is a dataset root itself. */
async function hasLanguageFolders(dir: string): Promise<boolean> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.includes('debug')) continue;
    const sub = path.join(dir, entry.name);
    if ((await kindOf(sub)) !== 'dir') continue;
    if ((await readdir(sub)).some((name) => name.endsWith('.jsonl'))) return true;
  }
  return false;
}

async function classify(location: string, origin: string): Promise<MultiLoKoLocation> {
  const kind = await kindOf(location);
  if (kind === undefined) {
    throw new DataError(location, `does not exist (${origin}).\n${howToProvideMultiLoKo()}`, { code: 'not-found' });
  }
  if (kind === 'file') return { kind: 'archive', path: location };
  const nested = path.join(location, MULTILOKO_FOLDER_NAME);
  if ((await kindOf(nested)) === 'dir') return { kind: 'folder', path: nested };
  if (await hasLanguageFolders(location)) return { kind: 'folder', path: location };
  const archive = path.join(location, MULTILOKO_ARCHIVE_NAME);
  if ((await kindOf(archive)) === 'file') return { kind: 'archive', path: archive };
  throw new DataError(
    location,
    `holds no MultiLoKo data: expected language folders with <split>.jsonl files, a ${MULTILOKO_FOLDER_NAME}/ folder or ${MULTILOKO_ARCHIVE_NAME} (${origin}).\n${howToProvideMultiLoKo()}`,
    { code: 'not-found' },
  );
}

/**
 * Resolves a user-given location (the extracted `benchmark_data/` folder, its parent, or the encrypted
 * archive), or without one: $LOKAL_MULTILOKO, then ./data/benchmark_data.tar.xz.enc, then ./data/benchmark_data/.
 */
export async function locateMultiLoKo(location?: string, options: LocateOptions = {}): Promise<MultiLoKoLocation> {
  if (location !== undefined && location !== '') return classify(location, 'the path given');
  const env = options.env ?? process.env;
  const fromEnv = env[MULTILOKO_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return classify(fromEnv, `from ${MULTILOKO_ENV}`);
  const dataDir = path.join(options.cwd ?? process.cwd(), DEFAULT_DATA_DIR);
  const archive = path.join(dataDir, MULTILOKO_ARCHIVE_NAME);
  if ((await kindOf(archive)) === 'file') return { kind: 'archive', path: archive };
  const folder = path.join(dataDir, MULTILOKO_FOLDER_NAME);
  if ((await kindOf(folder)) === 'dir') return { kind: 'folder', path: folder };
  throw new DataError(
    dataDir,
    `MultiLoKo data not found: no path was given, ${MULTILOKO_ENV} is not set, and neither ${archive} nor ${folder}/ exists.\n${howToProvideMultiLoKo()}`,
    { code: 'not-found' },
  );
}
