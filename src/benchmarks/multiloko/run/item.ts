// One MultiLoKo item's verdict line for Vitest UI (the model call itself: src/models/askModel.ts).
import type { LokalItemRecord } from './records.ts';
import { shorten } from '../../../core/shorten.ts';

const quote = (text: string) => JSON.stringify(shorten(text, 80));

/**
 * One line for Vitest UI: `✓ EM 1 · F1 1 · chrF 100.0 · said "Roma" · targets "roma"` (the answer scored); a wrong
 * answer ends with its error category (`· error near`).
 */
export function verdictLine(record: Pick<LokalItemRecord, 'rawPrediction' | 'targets' | 'scores' | 'missing' | 'error'> & { answer?: string }): string {
  const { em, f1, chrf } = record.scores;
  const mark = record.missing ? '∅' : em === 1 ? '✓' : '✗';
  const said = record.missing ? 'no prediction (scored as empty)' : `said ${quote(record.answer ?? record.rawPrediction)}`;
  const targets = record.targets.slice(0, 3).map(quote).join(' | ') + (record.targets.length > 3 ? ` (+${record.targets.length - 3})` : '');
  const error = !record.missing && record.error !== undefined && record.error !== 'correct' ? ` · error ${record.error}` : '';
  return `${mark} EM ${em} · F1 ${Number(f1.toFixed(2))} · chrF ${chrf.toFixed(1)} · ${said} · targets ${targets}${error}`;
}
