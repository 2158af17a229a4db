// One Intl.Segmenter (ICU word boundaries: Unicode UAX 29 plus dictionaries for Thai, Lao, Khmer, Burmese, Chinese and
// Japanese) per language, built on first use and kept: building one costs far more than segmenting a short answer.
import { multilokoLanguageTag } from './multilokoLanguageTags.ts';
import { summariseList } from '../../../data/errors.ts';

interface WordSegmenter {
  segmenter: Intl.Segmenter;
  /** The tag asked for (undefined: the language has none) and the locale Intl resolved the segmenter to. */
  tag: string | undefined;
  locale: string;
  /** Why the root locale's rules were used instead of the language's; absent when the language's locale is supported. */
  fallback?: string;
}

const cache = new Map<string, WordSegmenter>();

/** The word segmenter of a MultiLoKo language name (`japanese`), falling back to the root locale when needed. */
export function wordSegmenter(language: string): WordSegmenter {
  let found = cache.get(language);
  if (found) return found;
  found = segmenterForTag(multilokoLanguageTag(language));
  cache.set(language, found);
  return found;
}

/** The word segmenter of a BCP-47 tag (undefined: none known), or the root locale's when Intl.Segmenter lacks the tag. */
export function segmenterForTag(tag: string | undefined): WordSegmenter {
  if (tag !== undefined && Intl.Segmenter.supportedLocalesOf([tag]).length > 0) {
    const segmenter = new Intl.Segmenter(tag, { granularity: 'word' });
    return { segmenter, tag, locale: segmenter.resolvedOptions().locale };
  }
  // 'und' asks for the root locale (Intl resolves it to the host's default): ICU's default word rules, which still
  // find words in every script (the dictionaries for Thai, Chinese, Japanese … apply in any locale).
  const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
  const fallback = tag === undefined ? 'no BCP-47 tag known' : `Intl.Segmenter does not support ${tag}`;
  return { segmenter, tag, locale: segmenter.resolvedOptions().locale, fallback };
}

/** One line naming the languages segmented with the root locale's rules (the first few, then a count); undefined when none. */
export function wordSegmenterFallbackLine(languages: Iterable<string>): string | undefined {
  const fallbacks = [...new Set(languages)].map((language) => ({ language, ...wordSegmenter(language) })).filter((w) => w.fallback !== undefined);
  if (fallbacks.length === 0) return undefined;
  return `f1_words segmented with the root locale's word rules (${fallbacks[0]!.locale}) for ${summariseList(fallbacks, (w) => `${w.language} (${w.fallback})`)}`;
}
