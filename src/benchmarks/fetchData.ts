// `lokal data fetch`'s downloads (src/data/fetch.ts) with what only the benchmarks know: the MultiLoKo archive's
// check and the variable that points each benchmark at a copy already on disk.
import { downloadData, type DatasetHooks, type FetchDataOptions, type FetchedFile } from '../data/fetch.ts';
import { MULTILOKO_ENV } from './multiloko/data/locate.ts';
import { multilokoArchiveProblem } from './multiloko/data/verifyArchive.ts';
import { KALAHI_ENV } from './kalahi/data/kalahi.ts';

const HOOKS: DatasetHooks = {
  verifyArchive: multilokoArchiveProblem,
  alternative: (source) =>
    source.dataset === 'multiloko'
      ? `or point ${MULTILOKO_ENV} at a copy you already have (the .enc archive or an extracted benchmark_data/ folder)`
      : `or point ${KALAHI_ENV} at a folder that already holds filipino.csv, filipino_partially_enriched.csv and filipino_unenriched.csv`,
};

/**
 * Downloads every source (or those of `only`) into `dir`, verified (a pinned hash, or the MultiLoKo archive's
 * structure); files already present and valid are kept. See downloadData for what happens when a file is unavailable.
 */
export function fetchData(options: FetchDataOptions): Promise<FetchedFile[]> {
  return downloadData(options, HOOKS);
}
