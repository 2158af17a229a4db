// Data layer: reading input safely (errors, size-limited files, dataset trees, OpenSSL containers) and the downloader
// of `lokal data fetch`; each benchmark's own loaders are in its folder's index.ts.
export { DataError, type DataErrorCode } from './errors.ts';
export { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_STREAM_BYTES, type FileLimits } from './files.ts';
export { decryptOpensslEnc, MULTILOKO_PASSWORD } from './opensslEnc.ts';
export { ArchiveTree, FolderTree, MemoryTree, MAX_LINK_HOPS, type ArchiveEntry, type DatasetTree } from './tree.ts';
export { DATA_SOURCES, type DataSource } from './sources.ts';
export { downloadData, type DatasetHooks, type FetchDataOptions, type FetchedFile } from './fetch.ts';
