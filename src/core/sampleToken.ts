// Choosing the next token from logits as sampled decoding does: greedy at temperature 0, otherwise softmax(logits / T),
// nucleus (top-p) filtering as Holtzman et al. 2020 define it, and one draw from a seeded uniform generator.

interface SamplingSettings {
  /** 0: greedy (argmax); otherwise logits are divided by it before the softmax. */
  temperature: number;
  /** Keep the smallest set of most probable tokens whose probability reaches this (1: every token). */
  topP: number;
}

/** Index of the largest logit; the lowest index among equal ones. */
function argmax(logits: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < logits.length; i++) if (logits[i]! > logits[best]!) best = i;
  return best;
}

function check(logits: ArrayLike<number>, { temperature, topP }: SamplingSettings): void {
  if (logits.length === 0) throw new RangeError('sampleToken: no logits');
  for (let i = 0; i < logits.length; i++) {
    if (Number.isNaN(logits[i]!) || logits[i] === Infinity) throw new RangeError(`sampleToken: logit ${i} is ${logits[i]}`);
  }
  if (!(temperature >= 0) || !Number.isFinite(temperature)) throw new RangeError(`sampleToken: temperature must be a number ≥ 0 (got ${temperature})`);
  if (!(topP > 0 && topP <= 1)) throw new RangeError(`sampleToken: top_p must be in (0, 1] (got ${topP})`);
}

/**
 * The tokens a draw can pick and their probabilities: softmax of logits / T, cut to the smallest set of most probable
 * tokens (ties: lower index first) whose probability reaches top_p, renormalised, most probable first. top_p = 1 keeps
 * every token with p > 0 in index order (no sort of a 150,000-token vocabulary). Temperature 0: the argmax alone.
 */
export function samplingDistribution(logits: ArrayLike<number>, settings: SamplingSettings): Array<{ token: number; p: number }> {
  check(logits, settings);
  if (settings.temperature === 0) return [{ token: argmax(logits), p: 1 }];
  // Subtracting the largest logit keeps exp() finite; the ratios, hence the softmax, are unchanged.
  const top = logits[argmax(logits)]!;
  if (top === -Infinity) throw new RangeError('sampleToken: every logit is -Infinity');
  const weights = Array.from({ length: logits.length }, (_, i) => ({ token: i, p: Math.exp((logits[i]! - top) / settings.temperature) }));
  let total = 0;
  for (const w of weights) total += w.p;
  for (const w of weights) w.p /= total;
  if (settings.topP === 1) return weights.filter((w) => w.p > 0);
  weights.sort((a, b) => b.p - a.p || a.token - b.token);
  // Rounding can leave the sum of all a hair below top_p: then every token is kept.
  let kept = weights.length;
  let cumulative = 0;
  for (let i = 0; i < weights.length; i++) {
    cumulative += weights[i]!.p;
    if (cumulative >= settings.topP) {
      kept = i + 1;
      break;
    }
  }
  const nucleus = weights.slice(0, kept).filter((w) => w.p > 0);
  let mass = 0;
  for (const w of nucleus) mass += w.p;
  return nucleus.map((w) => ({ token: w.token, p: w.p / mass }));
}

/** One token drawn from `samplingDistribution` with `uniform` (values in [0, 1), e.g. seededUniform(trialSeed(…))). */
export function sampleToken(logits: ArrayLike<number>, settings: SamplingSettings, uniform: () => number): number {
  const distribution = samplingDistribution(logits, settings);
  if (distribution.length === 1) return distribution[0]!.token;
  const u = uniform();
  let cumulative = 0;
  for (const { token, p } of distribution) {
    cumulative += p;
    if (u < cumulative) return token;
  }
  // u just below 1 with the cumulative sum rounded below it: the last token of the nucleus.
  return distribution[distribution.length - 1]!.token;
}
