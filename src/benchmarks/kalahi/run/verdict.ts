// One-line verdicts for Vitest UI: which answer the model preferred (MC), and how its reply fared per metric.
import { KALAHI_LEARNED_METRICS, KALAHI_TABLE_METRICS, type KalahiGenerationRecord, type KalahiLetterAnswer, type KalahiMCRecord } from './records.ts';
import { shorten } from '../../../core/shorten.ts';
import { KALAHI_FIGURE_LABELS } from './gates.ts';

const quote = (text: string) => JSON.stringify(shorten(text, 60));
const fixed = (value: number | null, digits: number) => (value === null ? 'NaN' : value.toFixed(digits));

/** `✓ MC1 1 · MC2 0.5012 · MC3 0.60 · preferred the best answer "…" (0.4123) over irrelevant #2 "…" (0.3999)`. */
export function kalahiMCVerdict(mc: KalahiMCRecord): string {
  if (mc.letter) return kalahiLetterVerdict(mc.letter);
  const n = mc.normalised;
  const top = mc.preferred!;
  const bestIrrelevant = mc.references.filter((r) => r.kind === 'irrelevant').reduce((a, b) => (b.score > a.score ? b : a));
  const best = mc.references.find((r) => r.best)!;
  const preferred =
    top.best ? 'the best answer'
    : `${top.kind} answer #${top.index + 1}`;
  const other = top.kind === 'relevant' ? bestIrrelevant : best;
  const otherName = other.best ? 'the best answer' : `${other.kind} answer #${other.index + 1}`;
  return (
    `${n.mc1 === 1 ? '✓' : '✗'} MC1 ${n.mc1} · MC2 ${fixed(n.mc2, 4)} · MC3 ${fixed(n.mc3, 2)} · preferred ${preferred} ` +
    `${quote(top.text)} (${fixed(top.score, 4)}) over ${otherName} ${quote(other.text)} (${other.score.toFixed(4)})`
  );
}

/** `✓ MC1 1 · chose B "…" (the best answer is B) · said "Sagot: B"` for the lettered question. */
export function kalahiLetterVerdict(letter: KalahiLetterAnswer): string {
  const chosen = letter.options.find((o) => o.letter === letter.chosen);
  const choice = chosen ? `chose ${chosen.letter} ${quote(chosen.text)}` : 'named no letter';
  return `${chosen?.best ? '✓ MC1 1' : '✗ MC1 0'} · ${choice} (the best answer is ${letter.answer}) · said ${quote(letter.response)}`;
}

/** `BLEU ✓ · ChrF ✗ · … · BERTScore – · said "…"`; ✓ when the reply is closer to a relevant than to any irrelevant answer. */
export function kalahiGenerationVerdict(generation: KalahiGenerationRecord): string {
  const said = generation.missing ? 'no reply in the replay file' : `said ${quote(generation.response)}`;
  if (generation.status !== 'scored') return `∅ ${generation.status}: ${generation.reason} · ${said}`;
  const marks = KALAHI_TABLE_METRICS.flatMap((m) => {
    const record = generation.metrics[m];
    if (record) return [`${KALAHI_FIGURE_LABELS[m]} ${record.acc === 1 ? '✓' : '✗'}`];
    return (KALAHI_LEARNED_METRICS as readonly string[]).includes(m) ? [`${KALAHI_FIGURE_LABELS[m]} –`] : [];
  });
  const wins = KALAHI_TABLE_METRICS.filter((m) => generation.metrics[m]?.acc === 1).length;
  const total = KALAHI_TABLE_METRICS.filter((m) => generation.metrics[m]).length;
  return `${wins * 2 > total ? '✓' : '✗'} ${wins}/${total} closer to a relevant answer · ${marks.join(' · ')} · ${said}`;
}
