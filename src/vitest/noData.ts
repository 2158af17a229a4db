// Names shared by the suites that skip a benchmark and the reporter that notices when nothing else ran.
/** The benchmark's data was not found (never configured, and not in data/). */
export const NO_DATA_SUITE_SUFFIX = ' · no data';
/** The data is there, but the replayed predictions file holds no rows for the benchmark: no answers to score. */
export const NO_ROWS_SUITE_SUFFIX = ' · no rows in the predictions file';
/** Every suffix of a skipped benchmark's suite. */
export const SKIPPED_SUITE_SUFFIXES = [NO_DATA_SUITE_SUFFIX, NO_ROWS_SUITE_SUFFIX] as const;
