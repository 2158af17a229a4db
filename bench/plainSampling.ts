// Sampled decoding's definition written plainly (an object per vocabulary token, a full sort): the baseline of
// `npm run bench -- sampling` and the second method test/core/sampleToken.test.ts holds src/core/sampleToken.ts to.

/** The definition written plainly (an object per token, a full sort), as a second method for the typed-array one. */
export function plainDistribution(logits: ArrayLike<number>, { temperature, topP }: { temperature: number; topP: number }): Array<{ token: number; p: number }> {
  let best = 0;
  for (let i = 1; i < logits.length; i++) if (logits[i]! > logits[best]!) best = i;
  if (temperature === 0) return [{ token: best, p: 1 }];
  const weights = Array.from({ length: logits.length }, (_, i) => ({ token: i, p: Math.exp((logits[i]! - logits[best]!) / temperature) }));
  let total = 0;
  for (const w of weights) total += w.p;
  for (const w of weights) w.p /= total;
  if (topP === 1) return weights.filter((w) => w.p > 0);
  weights.sort((a, b) => b.p - a.p || a.token - b.token);
  let kept = weights.length;
  let cumulative = 0;
  for (let i = 0; i < weights.length; i++) if ((cumulative += weights[i]!.p) >= topP) { kept = i + 1; break; }
  const nucleus = weights.slice(0, kept).filter((w) => w.p > 0);
  let mass = 0;
  for (const w of nucleus) mass += w.p;
  return nucleus.map((w) => ({ token: w.token, p: w.p / mass }));
}

/** A draw from a plain distribution, as sampleToken draws (no draw when one token is left). */
export function plainDraw(d: ReadonlyArray<{ token: number; p: number }>, uniform: () => number): number {
  if (d.length === 1) return d[0]!.token;
  const u = uniform();
  let cumulative = 0;
  for (const { token, p } of d) if (u < (cumulative += p)) return token;
  return d[d.length - 1]!.token;
}

