// Kalahi's fingerprint (`fingerprint` of kalahi.json): each variant's CSV hash, the protocol (how MC is measured, the
// generation budget, chrF variant, learned metrics' models), decoding, the scorer and the model. Prompts go to the
// model verbatim through its own chat template, which is part of the model's identity.
import type { Fingerprint } from '../../../core/fingerprint.ts';
import { runtimeVersions } from '../../../core/runtimeVersions.ts';
import { modelIdentity } from '../../../models/identity.ts';
import { providerRow, specRow } from '../../../models/providers.ts';
import type { KalahiSettings } from './config.ts';
import type { KalahiSuiteAggregate } from './records.ts';

/**
 * The scoring's version: the Kalahi reference scripts (MC by byte-normalised log-probabilities; HF BLEU, ROUGE, chrF,
 * METEOR, BERTScore, BLEURT) as this package reproduces them. Raise it whenever the same reply would score differently.
 */
export const KALAHI_SCORER = 'kalahi reference scripts · lokal scorer 1';

const single = <T>(values: readonly T[]): T | 'mixed' | null => (values.length === 0 ? null : values.every((v) => v === values[0]) ? values[0]! : 'mixed');

/** The MC protocol each variant recorded (LOKAL_KALAHI_MC; absent in older runs: log-probabilities of every reference). */
function mcProtocol(aggregates: readonly KalahiSuiteAggregate[]): string | null {
  const withMC = aggregates.filter((a) => a.tasks.includes('mc'));
  if (withMC.length === 0) return null;
  return single(withMC.map((a) => a.mcProtocol ?? 'logprobs'));
}


export function kalahiFingerprint(aggregates: readonly KalahiSuiteAggregate[], settings: KalahiSettings | undefined, root: string): Fingerprint {
  const first = aggregates.find((a) => a.modelDescription) ?? aggregates[0];
  const replay = providerRow(first?.modelDescription?.provider ?? '')?.answersFromFile === true || specRow(first?.model ?? '')?.answersFromFile === true;
  const generation = aggregates.some((a) => a.tasks.includes('generation'));
  return {
    version: 1,
    benchmark: 'kalahi',
    data: Object.fromEntries(aggregates.map((a) => [a.variant, a.sha256 ?? null])),
    // The prompt is sent as written, through the model's chat template; replayed replies were asked elsewhere.
    prompt: replay ? null : 'chat',
    template: null,
    shots: replay ? null : 0,
    fewshot: replay ? null : 'none',
    extraction: false,
    scorer: KALAHI_SCORER,
    decoding: replay || !generation ? null : { budget: single(aggregates.map((a) => a.budget.kind)), tokens: single(aggregates.map((a) => a.budget.tokens)), temperature: 0 },
    protocol: {
      mc: mcProtocol(aggregates),
      chrf: single(aggregates.map((a) => a.labels.chrf)),
      // A learned metric left off is not a difference: its column is simply absent from that run.
      bertscore: single(aggregates.flatMap((a) => (a.learnedModels.bertscore === 'off' ? [] : [a.learnedModels.bertscore]))),
      bleurt: single(aggregates.flatMap((a) => (a.learnedModels.bleurt === 'off' ? [] : [a.learnedModels.bleurt]))),
    },
    model: modelIdentity(first?.modelDescription, first?.model, root),
    runtime: runtimeVersions(),
  };
}
