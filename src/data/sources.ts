// The public files `lokal data fetch` downloads, pinned to a commit, with what "downloaded correctly" means for each.

export interface DataSource {
  /** Which dataset the file belongs to (`lokal data fetch --only`). */
  dataset: 'multiloko' | 'kalahi';
  /** Path under the data folder, `/`-separated. */
  file: string;
  url: string;
  /** Expected SHA-256 (hex) of the whole file, when it can be pinned. */
  sha256?: string;
  /** Byte size, when known (for progress before the server says). */
  bytes?: number;
  /** Structural check instead of (or besides) a hash: the archive must open and hold MultiLoKo data. */
  verify?: 'multiloko-archive';
  /** Where a person finds the file to download it by hand. */
  page: string;
}

const MULTILOKO_REPOSITORY = 'facebookresearch/multiloko';
/** Commit 4f4de60 of the official MultiLoKo repository (the eval.py docs/metrics.md#sources names). */
const MULTILOKO_COMMIT = '4f4de606f3b597c399b3b0c9f06fc06f178ad14d';
const KALAHI_REPOSITORY = 'aisingapore/kalahi';
/** Commit 2beb3ef of the Kalahi repository. */
const KALAHI_COMMIT = '2beb3ef4133a7ca432f5f4d19a4bf631ce5e6979';

function raw(repository: string, commit: string, file: string): string {
  return `https://raw.githubusercontent.com/${repository}/${commit}/${file}`;
}

function page(repository: string, commit: string, file: string): string {
  return `https://github.com/${repository}/blob/${commit}/${file}`;
}

/**
 * The MultiLoKo archive has no pinned hash: no copy of the official file was available to hash when this
 * table was written, so it is verified structurally (it decrypts with the published password, the xz stream
 * and the tar are intact, and it holds language folders whose records validate).
 * The Kalahi hashes are of the files exactly as published at the pinned commit.
 */
export const DATA_SOURCES: readonly DataSource[] = [
  {
    dataset: 'multiloko',
    file: 'benchmark_data.tar.xz.enc',
    url: raw(MULTILOKO_REPOSITORY, MULTILOKO_COMMIT, 'benchmark_data.tar.xz.enc'),
    verify: 'multiloko-archive',
    page: page(MULTILOKO_REPOSITORY, MULTILOKO_COMMIT, 'benchmark_data.tar.xz.enc'),
  },
  {
    dataset: 'kalahi',
    file: 'kalahi/filipino.csv',
    url: raw(KALAHI_REPOSITORY, KALAHI_COMMIT, 'data/filipino.csv'),
    sha256: 'f5259781fe2513d1a5e24dc511812ca76b5bce0eb8f8213bc023e84c0ea5e71b',
    bytes: 141_959,
    page: page(KALAHI_REPOSITORY, KALAHI_COMMIT, 'data/filipino.csv'),
  },
  {
    dataset: 'kalahi',
    file: 'kalahi/filipino_partially_enriched.csv',
    url: raw(KALAHI_REPOSITORY, KALAHI_COMMIT, 'data/filipino_partially_enriched.csv'),
    sha256: 'a4a5255f131df5b6af96455debaccff2d4554faf60cabf421914a9db54cad15d',
    bytes: 138_231,
    page: page(KALAHI_REPOSITORY, KALAHI_COMMIT, 'data/filipino_partially_enriched.csv'),
  },
  {
    dataset: 'kalahi',
    file: 'kalahi/filipino_unenriched.csv',
    url: raw(KALAHI_REPOSITORY, KALAHI_COMMIT, 'data/filipino_unenriched.csv'),
    sha256: '97c8f6d449554d9bf46270ccb6c8f2c0b46d0427e091a6a8f9d32687515cb7a4',
    bytes: 73_457,
    page: page(KALAHI_REPOSITORY, KALAHI_COMMIT, 'data/filipino_unenriched.csv'),
  },
];
