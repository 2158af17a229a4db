// Kalahi's face: what other layers and the package's entry points take from this benchmark (its data loaders); the
// benchmark's own modules import each other directly.
export {
  loadKalahi, parseKalahiCsv, resolveKalahiFile, kalahiVariantOfFile, readKalahiResponses, parseKalahiResponsesJsonl,
  KALAHI_VARIANTS, KALAHI_FILES, KALAHI_DEFAULT_DIR, KALAHI_ENV,
  type KalahiVariant, type KalahiRow, type KalahiDataset, type KalahiResponseRow,
} from './data/kalahi.ts';
