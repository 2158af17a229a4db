// eval.py's edit similarity of one pair: difflib's SequenceMatcher(None, a, b).ratio() on code points (not symmetric).
import { codePointsOf } from '../core/python/codePoints.ts';
import { sequenceMatcherRatio } from './sequenceMatcherRatio.ts';

/** `SequenceMatcher(None, a, b, autojunk=opts.autojunk ?? True).ratio()`. */
export function editSimilarity(a: string, b: string, opts: { autojunk?: boolean } = {}): number {
  return sequenceMatcherRatio(codePointsOf(a), codePointsOf(b), opts.autojunk ?? true);
}
