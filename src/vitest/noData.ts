// Names shared by the suites that skip for want of data and the reporter that notices when nothing else ran.
export const NO_DATA_SUITE_SUFFIX = ' · no data';
