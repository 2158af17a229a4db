// Benchmark: what the error categories and f1_words add to scoring 37,750 items (the full dev layout's count, answers
// in each of the 31 languages' scripts): scoreExample alone against scoreExample + errorCategory + f1Words, in
// alternating rounds in one process, as `lokal score` scores each item.
import { errorCategory } from '../src/metrics/errorCategory.ts';
import { f1Words } from '../src/benchmarks/multiloko/metrics/f1Words.ts';
import { contentLanguage } from '../src/benchmarks/multiloko/data/subsetKey.ts';
import { scoreExample } from '../src/metrics/scoreExample.ts';
import { wordSegmenter } from '../src/benchmarks/multiloko/metrics/wordSegmenter.ts';
import { MULTILOKO_LANGUAGES } from './replay.ts';

/** Two answers per language in its own script (a place and a phrase of several words), as a dataset's targets are. */
export const ANSWERS_BY_LANGUAGE: Record<string, [string, string]> = {
  arabic: ['القاهرة', 'مدينة القاهرة الكبرى'],
  bengali: ['ঢাকা', 'ঢাকা শহরের কেন্দ্র'],
  cantonese: ['香港', '香港特別行政區'],
  czech: ['Praha', 'hlavní město Praha'],
  dutch: ['Amsterdam', 'de stad Amsterdam'],
  english: ['London', 'the city of London'],
  farsi: ['تهران', 'شهر تهران بزرگ'],
  french: ['Paris', 'la ville de Paris'],
  german: ['Berlin', 'die Stadt Berlin'],
  hebrew: ['ירושלים', 'העיר ירושלים העתיקה'],
  hindi: ['दिल्ली', 'नई दिल्ली शहर'],
  indonesian: ['Jakarta', 'kota Jakarta Raya'],
  italian: ['Roma', 'la città di Roma'],
  japanese: ['東京', '山梨県富士吉田市'],
  khmer: ['ភ្នំពេញ', 'រាជធានីភ្នំពេញ'],
  korean: ['서울', '서울 특별시 중구'],
  malay: ['Kuala Lumpur', 'bandar raya Kuala Lumpur'],
  marathi: ['मुंबई', 'मुंबई शहराचा भाग'],
  polish: ['Warszawa', 'miasto stołeczne Warszawa'],
  portuguese: ['São Paulo', 'a cidade de São Paulo'],
  romanian: ['București', 'orașul București'],
  russian: ['Москва', 'город Москва на реке'],
  simplified_mandarin: ['北京', '北京市海淀区'],
  spanish: ['Madrid', 'la ciudad de Madrid'],
  swedish: ['Stockholm', 'staden Stockholm'],
  tagalog: ['Maynila', 'ang lungsod ng Maynila'],
  thai: ['กรุงเทพ', 'กรุงเทพมหานคร'],
  traditional_mandarin: ['臺北', '臺北市中正區'],
  turkish: ['İstanbul', 'İstanbul şehri'],
  urdu: ['لاہور', 'لاہور شہر کا مرکز'],
  vietnamese: ['Hà Nội', 'thành phố Hà Nội'],
};

export interface ErrorAnalysisItem {
  /** The content language (the subset key's: `english_translated_human_japanese` → japanese). */
  language: string;
  prediction: string;
  targets: string[];
}

/** The prediction a row gives, as the replay benches vary them: exact, with an article, an extra word, another script, empty. */
function predictionFor(targets: readonly string[], variant: number, other: string): string {
  return variant === 0 ? targets[0]! : variant === 1 ? `The ${targets[1]!}.` : variant === 2 ? `${targets[0]!} ${targets[1]!}` : variant === 3 ? other : '';
}

/** The full dev layout's subsets (31 local, 4 × 30 translated) × `perSubset` items, targets in each content language's script. */
export function errorAnalysisItems(perSubset = 250): ErrorAnalysisItem[] {
  const keys = [...MULTILOKO_LANGUAGES];
  for (const language of MULTILOKO_LANGUAGES) {
    if (language === 'english') continue;
    for (const kind of ['human', 'machine']) keys.push(`${language}_translated_${kind}_english`, `english_translated_${kind}_${language}`);
  }
  const items: ErrorAnalysisItem[] = [];
  keys.forEach((key, k) => {
    const language = contentLanguage(key);
    const targets = ANSWERS_BY_LANGUAGE[language]!;
    for (let i = 0; i < perSubset; i++) {
      const other = ANSWERS_BY_LANGUAGE[MULTILOKO_LANGUAGES[(k + i) % MULTILOKO_LANGUAGES.length]!]![i % 2]!;
      items.push({ language, prediction: predictionFor(targets, (k * 7 + i * 13) % 5, other), targets: [...targets] });
    }
  });
  return items;
}

/**
 * Wall and CPU seconds (user + system of this process: steadier than wall time on a shared machine) to score every
 * item with scoreExample only, or also with its error category and f1_words; `sink` keeps the work from being dropped.
 */
export function scoreItems(items: readonly ErrorAnalysisItem[], withAnalysis: boolean): { seconds: number; cpu: number; sink: number } {
  let sink = 0;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  // one segmenter per run of items of a language, as lokal score takes one per subset (finishScoring in score.ts)
  let language: string | undefined;
  let segmenter: Intl.Segmenter | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const { scores, prediction, targets } = scoreExample(item.prediction, item.targets);
    sink += scores.f1;
    if (withAnalysis) {
      if (item.language !== language) ({ segmenter } = wordSegmenter((language = item.language)));
      sink += errorCategory(prediction, targets, scores.edit_similarity).length;
      sink += f1Words(prediction, targets, segmenter!);
    }
  }
  const cpu = process.cpuUsage(cpuStart);
  return { seconds: (performance.now() - start) / 1000, cpu: (cpu.user + cpu.system) / 1e6, sink };
}
