// The significance-tested baseline gate: every figure's paired test, Holm's correction across the figures tested, and
// the decision — a figure fails when its drop is significant at α (after Holm) and larger than the practical margin.
// Each outcome names the difference with its interval, the adjusted p and the minimum detectable effect (MDE).
import { holm, mcnemarExact, minimumDetectableEffect } from '../statistics/index.ts';
import type { GateOutcome } from '../gates.ts';
import { DEFAULT_TEST_SETTINGS, pairedTest, type PairedFigure, type PairedTest, type TestSettings } from './pairedTest.ts';

export interface SignificanceSettings {
  /** Family-wise level of the tests (after Holm). */
  alpha: number;
  /** Drops up to this size (on the figure's scale) pass even when significant. */
  margin: number;
}

export type BaselineVerdict = 'significant drop' | 'significant drop within margin' | 'significant gain' | 'no significant change' | 'too few items to tell';

export interface BaselineTest extends PairedTest {
  /** Holm-adjusted p across the figures tested together. */
  p_adjusted: number;
  /** Figures in the Holm family. */
  family: number;
  /** Smallest true change this test detects with 80% power at α/family (Holm's first step); null where undefined. */
  mde: number | null;
  verdict: BaselineVerdict;
  pass: boolean;
}

/** The gate's label in outcomes, e.g. `baseline(α=0.05, margin=0.01)`. */
export function significanceGateName(settings: SignificanceSettings): string {
  return `baseline(α=${settings.alpha}, margin=${settings.margin})`;
}

/** Fewest discordant pairs, all one way, that McNemar's exact test finds significant at `level` (2·0.5^k < level). */
export function fewestSignificantFlips(level: number): number {
  let k = 1;
  while (mcnemarExact(k, 0) >= level && k < 1100) k++;
  return k;
}

/**
 * MDE at `level`: (z_{1−level/2} + z_0.8)·SE; for McNemar's test at least the fewest one-way flips it can flag over n
 * (so a run where nothing changed still learns how small a drop it could have seen); null without a usable SE.
 */
export function testMde(test: PairedTest, level: number): number | null {
  const fromSe = test.se !== null && test.se > 0 ? minimumDetectableEffect(test.se, level) : null;
  if (test.test !== 'McNemar exact') return fromSe;
  const floor = fewestSignificantFlips(level) / test.n;
  return fromSe === null ? floor : Math.max(fromSe, floor);
}

export function decide(diff: number, pAdjusted: number, mde: number | null, settings: SignificanceSettings): BaselineVerdict {
  if (pAdjusted < settings.alpha) {
    if (diff < -settings.margin) return 'significant drop';
    return diff < 0 ? 'significant drop within margin' : 'significant gain';
  }
  return mde === null || mde > settings.margin ? 'too few items to tell' : 'no significant change';
}

/** Tests every figure, adjusts their p-values together (Holm) and decides each; figures without paired items are left out. */
export function judgeBaselineFamily(figures: readonly PairedFigure[], settings: SignificanceSettings, testSettings: TestSettings = DEFAULT_TEST_SETTINGS): BaselineTest[] {
  const tests = figures.map((f) => pairedTest(f, testSettings)).filter((t): t is PairedTest => t !== undefined);
  const adjusted = holm(tests.map((t) => t.p));
  return tests.map((t, i) => {
    const mde = testMde(t, settings.alpha / tests.length);
    const verdict = decide(t.diff, adjusted[i]!, mde, settings);
    return { ...t, p_adjusted: adjusted[i]!, family: tests.length, mde, verdict, pass: verdict !== 'significant drop' };
  });
}

const signed = (v: number) => `${v < 0 ? '−' : v > 0 ? '+' : '±'}${Math.abs(v).toFixed(3)}`;
const plain = (v: number) => v.toFixed(3);
/** p-values as 4 decimals, tiny ones as `< 0.0001`. */
export const formatP = (p: number) => (p < 1e-4 ? '< 0.0001' : p.toFixed(4));
const pIs = (p: number) => (p < 1e-4 ? '< 0.0001' : `= ${p.toFixed(4)}`);

function why(t: BaselineTest, settings: SignificanceSettings): string {
  const margin = `the ${settings.margin} margin`;
  switch (t.verdict) {
    case 'significant drop':
      return `a significant drop larger than ${margin}, so the gate fails`;
    case 'significant drop within margin':
      return `a significant drop, but within ${margin}`;
    case 'significant gain':
      return 'a significant gain';
    case 'no significant change':
      return `no significant change (a drop of ${margin} would have been seen)`;
    case 'too few items to tell':
      return t.mde === null
        ? 'no significant change, and too few items to tell (no spread to measure the MDE)'
        : `no significant change, but too few items to tell: MDE ${plain(t.mde)} > ${margin}`;
  }
}

/** The outcome of one figure as a gate line: value = the difference, bound = −margin, pass by the decision. */
export function baselineOutcome(t: BaselineTest, settings: SignificanceSettings, file: string): GateOutcome {
  const gate = significanceGateName(settings);
  const interval = t.low === null || t.high === null ? 'no interval' : `95% CI [${signed(t.low)}, ${signed(t.high)}]`;
  const moves = t.binary ? `${t.worse} right → wrong, ${t.better} wrong → right` : `${t.worse} lower, ${t.better} higher`;
  const clusters = t.clusters < t.n ? ` in ${t.clusters} clusters` : '';
  const p = `${t.test} p ${pIs(t.p)}, Holm-adjusted p ${pIs(t.p_adjusted)} over ${t.family} test${t.family === 1 ? '' : 's'}`;
  const mde = t.mde === null ? 'MDE –' : `MDE ${plain(t.mde)}`;
  const message =
    `${t.figure} vs baseline: Δ ${signed(t.diff)} (${interval}), ${plain(t.baseline)} → ${plain(t.current)} over ${t.n} paired items${clusters} (${moves}); ` +
    `${p}; ${mde}: ${why(t, settings)} (gate ${gate}); baseline ${file}`;
  return { gate, figure: `${t.figure} change vs baseline`, value: t.diff, op: '>=', bound: -settings.margin, pass: t.pass, message };
}
