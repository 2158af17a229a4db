// Which protocol produced a Kalahi run's MC1 (kalahi.json: `variants.<variant>.mc_protocol`), so that the baseline gate
// and `lokal compare` never set MC1 by log-probabilities against MC1 from a lettered question.
import type { Fingerprint } from '../../core/fingerprint.ts';
import { KALAHI_MC_PROTOCOLS, type KalahiMCProtocol } from './settings.ts';

/** The field of kalahi.json that names the protocol, per variant. */
export const MC_PROTOCOL_FIELD = 'mc_protocol';

/** A variant's MC protocol as written: its `mc_protocol`, `logprobs` for files older than the field, undefined without MC. */
export function recordedMCProtocol(variant: unknown): KalahiMCProtocol | undefined {
  const v = variant as { tasks?: unknown; mc_protocol?: unknown } | null;
  const recorded = v?.mc_protocol;
  if (typeof recorded === 'string' && (KALAHI_MC_PROTOCOLS as readonly string[]).includes(recorded)) return recorded as KalahiMCProtocol;
  return Array.isArray(v?.tasks) && v.tasks.includes('mc') ? 'logprobs' : undefined;
}

/**
 * The first variant both runs measured MC on by different protocols, as one line naming the field (undefined: none).
 * `current` and `other` map variant → protocol; `otherName` names the other run (a baseline file, a compared run).
 */
export function mcProtocolMismatch(current: ReadonlyMap<string, KalahiMCProtocol | undefined>, other: ReadonlyMap<string, KalahiMCProtocol | undefined>, otherName: string, currentName = 'this run'): string | undefined {
  for (const [variant, protocol] of current) {
    const theirs = other.get(variant);
    if (protocol === undefined || theirs === undefined || theirs === protocol) continue;
    return `${otherName} field "variants.${variant}.${MC_PROTOCOL_FIELD}" is "${theirs}" but ${currentName} measured MC1 by "${protocol}" (LOKAL_KALAHI_MC): MC figures of two protocols are not compared; use LOKAL_KALAHI_MC=${theirs} or a run of the same protocol`;
  }
  return undefined;
}

/** A variant whose MC figures two runs measured by different protocols. */
export interface MCProtocolDifference {
  variant: string;
  current: KalahiMCProtocol;
  other: KalahiMCProtocol;
}

/** Every variant both runs measured MC on by different protocols (their MC figures are left out, the rest compared). */
export function mcProtocolDifferences(current: ReadonlyMap<string, KalahiMCProtocol | undefined>, other: ReadonlyMap<string, KalahiMCProtocol | undefined>): MCProtocolDifference[] {
  return [...current].flatMap(([variant, protocol]) => {
    const theirs = other.get(variant);
    return protocol === undefined || theirs === undefined || theirs === protocol ? [] : [{ variant, current: protocol, other: theirs }];
  });
}

/**
 * A Kalahi fingerprint without its MC protocol: MC figures of two protocols are never compared, whatever
 * LOKAL_BASELINE_ALLOW says, so the difference is named per variant (mcProtocolMismatch) and not offered as allowable.
 */
export function withoutMCProtocol(fingerprint: Fingerprint | undefined): Fingerprint | undefined {
  if (fingerprint === undefined || fingerprint.protocol === null || typeof fingerprint.protocol !== 'object' || !('mc' in fingerprint.protocol)) return fingerprint;
  const { mc: _mc, ...protocol } = fingerprint.protocol;
  return { ...fingerprint, protocol };
}
