// The runtime's ICU and Unicode versions a fingerprint records: kept apart from fingerprint.ts (zod), which lokal score does not load.

/**
 * `process.versions.icu` and `.unicode` (null on a Node built without ICU): `f1_words` follows ICU's word segmentation
 * (`Intl.Segmenter`) and the script rule the Unicode version's script properties (docs/multiloko.md#f1-over-words-f1_words).
 */
export function runtimeVersions(): { icu: string | null; unicode: string | null } {
  return { icu: process.versions.icu ?? null, unicode: process.versions.unicode ?? null };
}
