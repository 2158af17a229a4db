// BCP-47 tags of MultiLoKo's language folder names, for locale-aware text handling (Intl.Segmenter's word rules).

/** MultiLoKo's 31 language names (its folders and prompts) → BCP-47 language tags. */
export const MULTILOKO_LANGUAGE_TAGS: Readonly<Record<string, string>> = {
  arabic: 'ar',
  bengali: 'bn',
  cantonese: 'yue',
  czech: 'cs',
  dutch: 'nl',
  english: 'en',
  farsi: 'fa',
  french: 'fr',
  german: 'de',
  hebrew: 'he',
  hindi: 'hi',
  indonesian: 'id',
  italian: 'it',
  japanese: 'ja',
  khmer: 'km',
  korean: 'ko',
  malay: 'ms',
  marathi: 'mr',
  polish: 'pl',
  portuguese: 'pt',
  romanian: 'ro',
  russian: 'ru',
  simplified_mandarin: 'zh-Hans',
  spanish: 'es',
  swedish: 'sv',
  tagalog: 'tl',
  thai: 'th',
  traditional_mandarin: 'zh-Hant',
  turkish: 'tr',
  urdu: 'ur',
  vietnamese: 'vi',
};

/** The language's BCP-47 tag; undefined for a name MultiLoKo does not have (e.g. a folder of the user's own). */
export function multilokoLanguageTag(language: string): string | undefined {
  return Object.hasOwn(MULTILOKO_LANGUAGE_TAGS, language) ? MULTILOKO_LANGUAGE_TAGS[language] : undefined;
}
