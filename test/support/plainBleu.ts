// sacrebleu's sentence BLEU written out plainly (string n-gram keys, merged reference maxima, closest reference length,
// exp smoothing; docs/metrics.md#sentence-bleu): the second implementation the fast and short-input paths are held to.
import { bleuTokens } from '../../src/metrics/index.ts';

/** docs/metrics.md#sentence-bleu written out plainly: string n-gram keys, merged reference maxima, closest length, exp smoothing. */
export function plainBleu(hyp: string, refs: string[], effectiveOrder = true): number {
  const grams = (tokens: string[], n: number) => {
    const m = new Map<string, number>();
    for (let i = 0; i + n <= tokens.length; i++) {
      const key = tokens.slice(i, i + n).join('\u0000');
      m.set(key, (m.get(key) ?? 0) + 1);
    }
    return m;
  };
  const h = bleuTokens(hyp);
  const rs = refs.map(bleuTokens);
  const c = h.length;
  let r = rs[0]!.length;
  for (const x of rs) if (Math.abs(x.length - c) < Math.abs(r - c) || (Math.abs(x.length - c) === Math.abs(r - c) && x.length < r)) r = x.length;
  const correct: number[] = [];
  const total: number[] = [];
  for (let n = 1; n <= 4; n++) {
    const merged = new Map<string, number>();
    for (const x of rs) for (const [g, k] of grams(x, n)) merged.set(g, Math.max(merged.get(g) ?? 0, k));
    let ok = 0;
    for (const [g, k] of grams(h, n)) ok += Math.min(k, merged.get(g) ?? 0);
    correct.push(ok);
    total.push(Math.max(0, c - n + 1));
  }
  if (correct.every((x) => x === 0)) return 0;
  const bp = c < r ? (c > 0 ? Math.exp(1 - r / c) : 0) : 1;
  const p = [0, 0, 0, 0];
  let f = 1;
  let order = 4;
  for (let n = 1; n <= 4; n++) {
    if (total[n - 1] === 0) break;
    if (effectiveOrder) order = n;
    if (correct[n - 1] === 0) {
      f *= 2;
      p[n - 1] = 100 / (f * total[n - 1]!);
    } else p[n - 1] = (100 * correct[n - 1]!) / total[n - 1]!;
  }
  let sum = 0;
  for (let n = 0; n < order; n++) sum += p[n] === 0 ? -9999999999 : Math.log(p[n]!);
  return bp * Math.exp(sum / order);
}
