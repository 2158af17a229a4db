// eval.py's language keys (`italian`, `italian_translated_human_english`), parsed and written in one place.

/** What an eval.py language key denotes. */
export type SubsetKey =
  | { key: string; kind: 'local'; language: string }
  | {
      key: string;
      kind: 'translated';
      /** Folder / language the questions were sourced in. */
      sourceLanguage: string;
      /** Language the questions are written in. */
      questionLanguage: string;
      translation: 'human' | 'machine';
    };

/** A key's parts as formatSubsetKey takes them (the key itself is what it computes). */
type SubsetKeyParts = { kind: 'local'; language: string } | { kind: 'translated'; sourceLanguage: string; questionLanguage: string; translation: 'human' | 'machine' };

// The first marker splits the key: a key is the folder's name followed by the file's `_translated_<kind>_<language>`
// (data/layout.ts), and folder names are language names.
const TRANSLATED = /^(.+?)_translated_(human|machine)_(.+)$/u;

/**
 * Parses an eval.py language key: `italian` (local), `italian_translated_human_english` (Italian questions in
 * English), `english_translated_machine_italian` (English questions in Italian, machine translation).
 */
export function parseSubsetKey(key: string): SubsetKey {
  const match = TRANSLATED.exec(key);
  if (match === null) return { key, kind: 'local', language: key };
  return { key, kind: 'translated', sourceLanguage: match[1]!, questionLanguage: match[3]!, translation: match[2] as 'human' | 'machine' };
}

/** The key of a subset: its language for a local one, `<source>_translated_<kind>_<question language>` otherwise. */
export function formatSubsetKey(parts: SubsetKeyParts): string {
  return parts.kind === 'local' ? parts.language : `${parts.sourceLanguage}_translated_${parts.translation}_${parts.questionLanguage}`;
}

/** The language a key's text is written in: `x_translated_{human|machine}_y` holds `y`; a local key its own language. */
export function contentLanguage(key: string): string {
  const parsed = parseSubsetKey(key);
  return parsed.kind === 'local' ? parsed.language : parsed.questionLanguage;
}

/**
 * `to-english`: a language's local questions in English (the mother-tongue effect); `from-english`: English questions
 * in the language (the locality effect); undefined for a local key and a translation between two other languages.
 */
export function subsetDirection(parsed: SubsetKey): 'to-english' | 'from-english' | undefined {
  if (parsed.kind === 'local') return undefined;
  if (parsed.questionLanguage === 'english') return 'to-english';
  if (parsed.sourceLanguage === 'english') return 'from-english';
  return undefined;
}

/** The subset's language for selection and tables: its non-English side (English only for the English local set). */
export function subsetLanguage(parsed: SubsetKey): string {
  if (parsed.kind === 'local') return parsed.language;
  return subsetDirection(parsed) === 'from-english' ? parsed.questionLanguage : parsed.sourceLanguage;
}

/** `italian · local`, `italian → english · human`, `english → italian · machine`. */
export function subsetTitle(parsed: SubsetKeyParts): string {
  return parsed.kind === 'local' ? `${parsed.language} · local` : `${parsed.sourceLanguage} → ${parsed.questionLanguage} · ${parsed.translation}`;
}
