// Which protocol produced a run's multiple-choice figures (Kalahi's kalahi.json: `variants.<variant>.mc_protocol`), so
// that the baseline gate and `lokal compare` never set MC1 by log-probabilities against MC1 from a lettered question.
import type { Fingerprint } from './fingerprint.ts';

/** `logprobs`: every answer scored by log-probability (the reference); `letter`: SEA-HELM's lettered question answered in text. */
export const MC_PROTOCOLS = ['logprobs', 'letter'] as const;
export type MCProtocol = (typeof MC_PROTOCOLS)[number];

/** The field of kalahi.json that names the protocol, per variant. */
export const MC_PROTOCOL_FIELD = 'mc_protocol';

/** A variant's MC protocol as written: its `mc_protocol`, `logprobs` for files older than the field, undefined without MC. */
export function recordedMCProtocol(variant: unknown): MCProtocol | undefined {
  const v = variant as { tasks?: unknown; mc_protocol?: unknown } | null;
  const recorded = v?.mc_protocol;
  if (typeof recorded === 'string' && (MC_PROTOCOLS as readonly string[]).includes(recorded)) return recorded as MCProtocol;
  return Array.isArray(v?.tasks) && v.tasks.includes('mc') ? 'logprobs' : undefined;
}

/** A variant whose MC figures two runs measured by different protocols. */
interface MCProtocolDifference {
  variant: string;
  current: MCProtocol;
  other: MCProtocol;
}

/** Every variant both runs measured MC on by different protocols (their MC figures are left out, the rest compared). */
export function mcProtocolDifferences(current: ReadonlyMap<string, MCProtocol | undefined>, other: ReadonlyMap<string, MCProtocol | undefined>): MCProtocolDifference[] {
  return [...current].flatMap(([variant, protocol]) => {
    const theirs = other.get(variant);
    return protocol === undefined || theirs === undefined || theirs === protocol ? [] : [{ variant, current: protocol, other: theirs }];
  });
}

/**
 * A Kalahi fingerprint without its MC protocol: MC figures of two protocols are never compared, whatever
 * LOKAL_BASELINE_ALLOW says, so the difference is named per variant (src/benchmarks/kalahi/run/protocol.ts) and not offered as allowable.
 */
export function withoutMCProtocol(fingerprint: Fingerprint | undefined): Fingerprint | undefined {
  if (fingerprint === undefined || fingerprint.protocol === null || typeof fingerprint.protocol !== 'object' || !('mc' in fingerprint.protocol)) return fingerprint;
  const { mc: _mc, ...protocol } = fingerprint.protocol;
  return { ...fingerprint, protocol };
}
