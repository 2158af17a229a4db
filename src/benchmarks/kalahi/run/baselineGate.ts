// Kalahi against a baseline kalahi.json: per variant in both runs, MC1 (0/1 per prompt) and MC2 paired by prompt
// variation id, the variations of one prompt as one cluster (they share prompt_id): McNemar's exact test where no two
// prompts share a source, the paired cluster bootstrap otherwise; one Holm family. Tolerance mode keeps a fixed
// allowed drop of each variant's MC1 and MC2.
import { readFileSync } from 'node:fs';
import { MAX_JSON_DEPTH, tooDeep } from '../../../core/jsonDepth.ts';
import { baselineOutcome, judgeBaselineFamily, pairedFigure, type BaselineTest, type PairedFigure, type SignificanceSettings } from '../../../core/baseline/index.ts';
import { judge, type GateOutcome } from '../../../core/gates.ts';
import type { KalahiPromptRecord } from './records.ts';
import { recordedMCProtocol } from '../../../core/mcProtocol.ts';
import type { KalahiMCProtocol } from '../settings.ts';
import { FingerprintError, parseFingerprint, type Fingerprint } from '../../../core/fingerprint.ts';
import { redactedOnce } from '../../../core/redact.ts';
import { parseResultsFile, ResultsFileError } from '../../../core/resultsFile.ts';
import { KalahiResultsSchema } from '../resultsSchema.ts';

interface BaselinePrompt {
  promptId: string;
  mc1: number | null;
  mc2: number | null;
  preferred: string;
}

export interface KalahiBaseline {
  file: string;
  /** Variant → the protocol that produced its MC1 (undefined: no MC). */
  protocols: Map<string, KalahiMCProtocol | undefined>;
  /** Variant → prompt variation id → its MC figures. */
  variants: Map<string, Map<string, BaselinePrompt>>;
  /** What made the baseline run; absent in files of older versions. */
  fingerprint?: Fingerprint;
}

export class KalahiBaselineError extends Error {
  constructor(file: string, field: string | undefined, detail: string) {
    super(`baseline ${file}${field ? ` field "${field}"` : ''}: ${detail}`);
    this.name = 'KalahiBaselineError';
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function parseKalahiBaseline(text: string, file: string): KalahiBaseline {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new KalahiBaselineError(file, undefined, `malformed JSON: ${(error as Error).message}`);
  }
  const deep = tooDeep(value);
  if (deep !== undefined) throw new KalahiBaselineError(file, deep.replace(/^\./u, '').slice(0, 120), `nested more than ${MAX_JSON_DEPTH} levels deep; not a results file`);
  const variantsJson = (value as { variants?: unknown } | null)?.variants;
  if (variantsJson === null || typeof variantsJson !== 'object') throw new KalahiBaselineError(file, 'variants', 'missing (expected a kalahi.json written by a run)');
  const variants = new Map<string, Map<string, BaselinePrompt>>();
  const protocols = new Map<string, KalahiMCProtocol | undefined>();
  for (const [variant, entry] of Object.entries(variantsJson as Record<string, unknown>)) {
    protocols.set(variant, recordedMCProtocol(entry));
    const records = (entry as { records?: unknown } | null)?.records;
    if (!Array.isArray(records)) throw new KalahiBaselineError(file, `variants.${variant}.records`, 'missing or not a list (the per-prompt records are what is paired)');
    const prompts = new Map<string, BaselinePrompt>();
    records.forEach((r: unknown, i) => {
      const record = r as { promptVariationId?: unknown; promptId?: unknown; mc?: { normalised?: { mc1?: unknown; mc2?: unknown }; preferred?: { text?: unknown } } } | null;
      if (typeof record?.promptVariationId !== 'string') throw new KalahiBaselineError(file, `variants.${variant}.records[${i}].promptVariationId`, 'missing or not a string');
      for (const metric of ['mc1', 'mc2'] as const) {
        const score = num(record.mc?.normalised?.[metric]);
        if (score !== null && (score < 0 || score > 1)) {
          throw new KalahiBaselineError(file, `variants.${variant}.records[${i}].mc.normalised.${metric}`, `is ${score}, outside ${metric.toUpperCase()}'s range [0, 1] (prompt ${record.promptVariationId})`);
        }
      }
      prompts.set(record.promptVariationId, {
        promptId: typeof record.promptId === 'string' ? record.promptId : record.promptVariationId,
        mc1: num(record.mc?.normalised?.mc1),
        mc2: num(record.mc?.normalised?.mc2),
        preferred: typeof record.mc?.preferred?.text === 'string' ? record.mc.preferred.text : '',
      });
    });
    variants.set(variant, prompts);
  }
  // The rest of the file against kalahi.json's schema (the checks above say more about the fields paired).
  const checked = ResultsFileError.check(() => parseResultsFile(KalahiResultsSchema, value, file));
  if (checked) throw new KalahiBaselineError(file, checked.field, checked.detail);
  let fingerprint: Fingerprint | undefined;
  try {
    fingerprint = parseFingerprint((value as { fingerprint?: unknown }).fingerprint, 'fingerprint');
  } catch (error) {
    if (error instanceof FingerprintError) throw new KalahiBaselineError(file, error.field, error.detail);
    throw error;
  }
  return { file, variants, protocols, ...(fingerprint ? { fingerprint } : {}) };
}

/** The baseline with its preferred answers hashed as a redacted run's own are: the flips (`baseline.flips`) quote them. */
export function withRedactedAnswers(baseline: KalahiBaseline): KalahiBaseline {
  const variants = new Map([...baseline.variants].map(([variant, prompts]) => [variant, new Map([...prompts].map(([id, p]) => [id, { ...p, preferred: redactedOnce(p.preferred) }]))]));
  return { ...baseline, variants };
}

export function readKalahiBaseline(file: string): KalahiBaseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new KalahiBaselineError(file, undefined, `cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseKalahiBaseline(text, file);
}

export interface KalahiFlip {
  promptVariationId: string;
  baseline: string;
  current: string;
}

export interface KalahiBaselineComparison {
  file: string;
  mode: 'significance';
  alpha: number;
  margin: number;
  tests: BaselineTest[];
  /** Per variant, the prompts whose MC1 went 1 → 0 (worse) and 0 → 1 (better). */
  flips: Record<string, { worse: KalahiFlip[]; better: KalahiFlip[] }>;
  only_current: string[];
  only_baseline: string[];
}

export interface KalahiSuiteRecords {
  variant: string;
  records: readonly KalahiPromptRecord[];
}

type Pick = (mc: { mc1: number | null; mc2: number | null }) => number | null;
const FIGURES: Array<[string, Pick, 'binary' | 'continuous']> = [
  ['MC1', (m) => m.mc1, 'binary'],
  ['MC2', (m) => m.mc2, 'continuous'],
];

function currentMc(r: KalahiPromptRecord): { mc1: number | null; mc2: number | null } | undefined {
  return r.mc ? { mc1: r.mc.normalised.mc1, mc2: r.mc.normalised.mc2 } : undefined;
}

/** One figure of a variant: prompts paired by variation id, the variations of one prompt one cluster. */
function figure(variant: string, name: string, pick: Pick, scores: 'binary' | 'continuous', records: readonly KalahiPromptRecord[], base: ReadonlyMap<string, BaselinePrompt>): PairedFigure {
  const current = records.map((r) => {
    const mc = currentMc(r);
    return { id: r.promptVariationId, cluster: r.promptId, score: mc ? pick(mc) : null };
  });
  return pairedFigure(`${variant}.${name}`, `Kalahi ${variant} ${name}`, current, new Map([...base].map(([id, b]) => [id, pick(b)])), scores);
}

export function judgeKalahiBaseline(suites: readonly KalahiSuiteRecords[], baseline: KalahiBaseline, settings: SignificanceSettings): { outcomes: GateOutcome[]; comparison: KalahiBaselineComparison } {
  const compared = suites.filter((s) => baseline.variants.has(s.variant));
  const figures = compared.flatMap((s) => FIGURES.map(([name, pick, scores]) => figure(s.variant, name, pick, scores, s.records, baseline.variants.get(s.variant)!)));
  const tests = judgeBaselineFamily(figures, settings);
  const flips: KalahiBaselineComparison['flips'] = {};
  for (const s of compared) {
    const base = baseline.variants.get(s.variant)!;
    const worse: KalahiFlip[] = [];
    const better: KalahiFlip[] = [];
    for (const r of s.records) {
      const b = base.get(r.promptVariationId);
      if (!r.mc || !b || b.mc1 === null) continue;
      const flip = { promptVariationId: r.promptVariationId, baseline: b.preferred, current: r.mc.preferred?.text ?? '' };
      if (b.mc1 === 1 && r.mc.normalised.mc1 !== 1) worse.push(flip);
      else if (b.mc1 !== 1 && r.mc.normalised.mc1 === 1) better.push(flip);
    }
    flips[s.variant] = { worse, better };
  }
  const runVariants = new Set(suites.map((s) => s.variant));
  return {
    outcomes: tests.map((t) => baselineOutcome(t, settings, baseline.file)),
    comparison: {
      file: baseline.file,
      mode: 'significance',
      alpha: settings.alpha,
      margin: settings.margin,
      tests,
      flips,
      only_current: suites.filter((s) => !baseline.variants.has(s.variant)).map((s) => s.variant),
      only_baseline: [...baseline.variants.keys()].filter((v) => !runVariants.has(v)),
    },
  };
}

/** Tolerance mode: each variant's MC1 and MC2 (means over the prompts of each run) must not drop by more than `tolerance`. */
export function judgeKalahiTolerance(suites: readonly KalahiSuiteRecords[], baseline: KalahiBaseline, tolerance: number): GateOutcome[] {
  const outcomes: GateOutcome[] = [];
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  for (const s of suites) {
    const base = baseline.variants.get(s.variant);
    if (!base) continue;
    for (const [name, pick] of FIGURES) {
      const current = s.records.flatMap((r) => {
        const mc = currentMc(r);
        const v = mc ? pick(mc) : null;
        return v === null ? [] : [v];
      });
      const before = [...base.values()].flatMap((b) => (pick(b) === null ? [] : [pick(b)!]));
      if (current.length === 0 || before.length === 0) continue;
      const outcome = judge(`baseline(-${tolerance})`, `Kalahi ${s.variant} ${name}`, mean(current), '>=', mean(before) - tolerance);
      outcome.message += `; baseline ${mean(before).toFixed(4)} in ${baseline.file}`;
      outcomes.push(outcome);
    }
  }
  return outcomes;
}

