// The structural check `lokal data fetch` makes of a downloaded MultiLoKo archive: it opens and holds language folders.
import { loadMultiLoKo } from './multiloko.ts';

/** Why `file` is not a usable MultiLoKo archive (decrypted with `password`, default the published one), or undefined. */
export async function multilokoArchiveProblem(file: string, password: string | undefined): Promise<string | undefined> {
  try {
    const dataset = await loadMultiLoKo(file, 'dev', password === undefined ? { env: {} } : { password, env: {} });
    const languages = new Set(dataset.subsets.map((s) => s.folder));
    if (languages.size === 0) return 'the archive holds no language folders';
  } catch (error) {
    return `not a valid MultiLoKo archive: ${error instanceof Error ? error.message : String(error)}`;
  }
  return undefined;
}
