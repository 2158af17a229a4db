// Kalahi's message when a baseline's MC protocol differs from this run's (the protocol itself: src/core/mcProtocol.ts).
import { MC_PROTOCOL_FIELD } from '../../../core/mcProtocol.ts';
import type { KalahiMCProtocol } from '../settings.ts';

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
