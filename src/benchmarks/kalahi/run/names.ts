// Stable Kalahi test names: one describe per variant, one per category inside it, one test per prompt, one gate test
// per variant — so `-t` filters and results line up from run to run.
import type { KalahiRow } from '../data/kalahi.ts';
import type { KalahiVariant } from '../settings.ts';

/** `kalahi · full`, `kalahi · partially_enriched`, `kalahi · unenriched`. */
export function kalahiSuiteName(variant: KalahiVariant): string {
  return `kalahi · ${variant}`;
}

/** `0101000100 · ethics · career and livelihood`. */
export function kalahiTestName(row: Pick<KalahiRow, 'promptVariationId' | 'category' | 'topic'>): string {
  return [row.promptVariationId, row.category, row.topic.trim()].filter((part) => part !== '').join(' · ');
}

/** The key a replay file answers by (a row `{language: "kalahi", id, prediction}`), also the cache's item key. */
export function kalahiItemKey(promptVariationId: string): string {
  return `kalahi/${promptVariationId}`;
}

export const KALAHI_GATE_TEST_NAME = 'gate';
