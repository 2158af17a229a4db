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
 * The nucleus as typed arrays: tokens (most probable first; index order at top_p = 1) and their probabilities. The
 * arithmetic is the definition's, step for step — softmax of logits / T summed in index order, the sorted prefix
 * summed in order, renormalised — without an object per vocabulary entry (a 151,936-token row took 85 ms that way).
 */
function nucleus(logits: ArrayLike<number>, settings: SamplingSettings): { tokens: Uint32Array; p: Float64Array } {
  check(logits, settings);
  if (settings.temperature === 0) return { tokens: Uint32Array.of(argmax(logits)), p: Float64Array.of(1) };
  const { weights: p, total } = softmaxWeights(logits, settings.temperature);
  const n = logits.length;
  let positive = 0;
  for (let i = 0; i < n; i++) if ((p[i] = p[i]! / total) > 0) positive++;
  if (settings.topP === 1) {
    const tokens = new Uint32Array(positive);
    const kept = new Float64Array(positive);
    for (let i = 0, k = 0; i < n; i++) if (p[i]! > 0) (tokens[k] = i), (kept[k++] = p[i]!);
    return { tokens, p: kept };
  }
  // Only tokens at or above a threshold whose mass reaches top_p can be in the nucleus: they come first in the full
  // order (p descending, lower index first), so sorting them alone gives the same prefix; the threshold halves from
  // the top probability until that mass is there, and reaches 0 (every token) when rounding leaves it short.
  // the top logit's weight is exp(0) = 1 (softmaxWeights), so the top probability is 1 / total
  let threshold = 1 / total;
  let order = candidates(p, threshold);
  while (threshold > 0 && massOf(p, order) < settings.topP) order = candidates(p, (threshold = threshold > Number.MIN_VALUE ? threshold / 2 : 0));
  order.sort((a, b) => p[b]! - p[a]! || a - b);
  let kept = prefixReaching(p, order, settings.topP);
  if (kept === undefined && threshold > 0) {
    // short of top_p within the candidates by rounding: the full order goes on past them
    order = candidates(p, 0);
    order.sort((a, b) => p[b]! - p[a]! || a - b);
    kept = prefixReaching(p, order, settings.topP);
  }
  // Rounding can leave the sum of all a hair below top_p: then every token is kept.
  kept ??= order.length;
  let count = 0;
  for (let i = 0; i < kept; i++) if (p[order[i]!]! > 0) count++;
  const tokens = new Uint32Array(count);
  const chosen = new Float64Array(count);
  let mass = 0;
  for (let i = 0, k = 0; i < kept; i++) {
    const token = order[i]!;
    if (p[token]! > 0) (tokens[k] = token), (chosen[k++] = p[token]!), (mass += p[token]!);
  }
  for (let k = 0; k < count; k++) chosen[k] = chosen[k]! / mass;
  return { tokens, p: chosen };
}

/** Reused between calls (sampling is synchronous): a 151,936-entry row would otherwise allocate 1.2 MB per token. */
let scratch = new Float64Array(0);

/** exp((logit − max) / T) per token, in a scratch buffer, and their sum in index order (the softmax's denominator). */
function softmaxWeights(logits: ArrayLike<number>, temperature: number): { weights: Float64Array; total: number } {
  // Subtracting the largest logit keeps exp() finite; the ratios, hence the softmax, are unchanged.
  const top = logits[argmax(logits)]!;
  if (top === -Infinity) throw new RangeError('sampleToken: every logit is -Infinity');
  const n = logits.length;
  if (scratch.length < n) scratch = new Float64Array(n);
  const weights = scratch.subarray(0, n);
  let total = 0;
  for (let i = 0; i < n; i++) total += weights[i] = Math.exp((logits[i]! - top) / temperature);
  return { weights, total };
}

/** Indices whose probability is at least `threshold` (all of them at 0). */
function candidates(p: Float64Array, threshold: number): Uint32Array {
  let count = 0;
  for (let i = 0; i < p.length; i++) if (p[i]! >= threshold) count++;
  const out = new Uint32Array(count);
  for (let i = 0, k = 0; i < p.length; i++) if (p[i]! >= threshold) out[k++] = i;
  return out;
}

/** Length of the shortest prefix of `order` whose probabilities, summed in order, reach topP (undefined: none). */
function prefixReaching(p: Float64Array, order: Uint32Array, topP: number): number | undefined {
  let cumulative = 0;
  for (let i = 0; i < order.length; i++) {
    cumulative += p[order[i]!]!;
    if (cumulative >= topP) return i + 1;
  }
  return undefined;
}

function massOf(p: Float64Array, indices: Uint32Array): number {
  let sum = 0;
  for (let i = 0; i < indices.length; i++) sum += p[indices[i]!]!;
  return sum;
}

/**
 * The tokens a draw can pick and their probabilities: softmax of logits / T, cut to the smallest set of most probable
 * tokens (ties: lower index first) whose probability reaches top_p, renormalised, most probable first. top_p = 1 keeps
 * every token with p > 0 in index order (no sort of a 150,000-token vocabulary). Temperature 0: the argmax alone.
 */
export function samplingDistribution(logits: ArrayLike<number>, settings: SamplingSettings): Array<{ token: number; p: number }> {
  const { tokens, p } = nucleus(logits, settings);
  return Array.from(tokens, (token, k) => ({ token, p: p[k]! }));
}

/** One token drawn from `samplingDistribution` with `uniform` (values in [0, 1), e.g. seededUniform(trialSeed(…))). */
export function sampleToken(logits: ArrayLike<number>, settings: SamplingSettings, uniform: () => number): number {
  if (settings.topP === 1 && settings.temperature !== 0) return drawFromAll(logits, settings, uniform);
  const { tokens, p } = nucleus(logits, settings);
  if (tokens.length === 1) return tokens[0]!;
  const u = uniform();
  let cumulative = 0;
  for (let k = 0; k < tokens.length; k++) {
    cumulative += p[k]!;
    if (u < cumulative) return tokens[k]!;
  }
  // u just below 1 with the cumulative sum rounded below it: the last token of the nucleus.
  return tokens[tokens.length - 1]!;
}

/**
 * sampleToken at top_p = 1 without building the distribution: the same probabilities (weight / total), summed in index
 * order, and no draw when one token holds every bit of the mass.
 */
function drawFromAll(logits: ArrayLike<number>, settings: SamplingSettings, uniform: () => number): number {
  check(logits, settings);
  const { weights, total } = softmaxWeights(logits, settings.temperature);
  let first = -1;
  let second = -1;
  for (let i = 0; i < weights.length && second < 0; i++) if (weights[i]! / total > 0) first < 0 ? (first = i) : (second = i);
  if (second < 0) return first;
  const u = uniform();
  let cumulative = 0;
  let last = first;
  for (let i = 0; i < weights.length; i++) {
    const p = weights[i]! / total;
    if (p > 0) last = i;
    cumulative += p;
    if (u < cumulative) return i;
  }
  return last;
}
