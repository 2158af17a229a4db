// MultiLoKo's fingerprint (summary.fingerprint of multiloko.json): the subset files' hashes, how the items were asked
// (prompt mode, the templates of each prompt language, demonstrations, extraction, decoding), the scorer and the model.
import { sha256, type Fingerprint } from '../../../core/fingerprint.ts';
import { runtimeVersions } from '../../../core/runtimeVersions.ts';
import { modelIdentity } from '../../../models/identity.ts';
import { MULTILOKO_PROMPT_TABLE } from '../prompts/multilokoPromptTable.ts';
import type { LokalSubsetAggregate, SubsetSampling } from './records.ts';
import type { PromptSummary } from './usage.ts';
import { MULTILOKO_SCORER } from '../metrics/scoreFingerprint.ts';

// lokal score's fingerprint lives in its own module (no zod, no prompt table); re-exported for existing importers.
export { MULTILOKO_SCORER, fingerprintLine, scoreFingerprint } from '../metrics/scoreFingerprint.ts';

/** Stop strings of each prompt mode (base prompts stop at the next question token or a blank line; chat has none). */
const STOPS: Record<'base' | 'chat' | 'mixed', string> = { base: 'question token, blank line', chat: 'none', mixed: 'mixed' };

/** SHA-256 of one language's prompt material (answer tokens, templates, official demonstrations), as shipped. */
export function templateSha256(language: string): string | null {
  const prompts = Object.hasOwn(MULTILOKO_PROMPT_TABLE.languages, language) ? MULTILOKO_PROMPT_TABLE.languages[language] : undefined;
  return prompts === undefined ? null : sha256(JSON.stringify(prompts));
}

/** Temperature (0 when greedy), and top-p, seed and trials where set; each `mixed` when the subsets differ. */
function decodingSampling(aggregates: readonly LokalSubsetAggregate[]): Record<string, number | 'mixed'> {
  const one = (read: (s: SubsetSampling) => number | undefined, absent?: number) => {
    const values = [...new Set(aggregates.map((a) => (a.sampling ? read(a.sampling) : undefined) ?? absent))];
    return values.length <= 1 ? (values[0] ?? absent) : 'mixed';
  };
  const fields: Record<string, number | 'mixed' | undefined> = {
    temperature: one((s) => s.temperature, 0),
    top_p: one((s) => s.top_p),
    seed: one((s) => s.seed),
    trials: one((s) => s.trials),
  };
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, number | 'mixed'] => entry[1] !== undefined));
}

export function multilokoFingerprint(aggregates: readonly LokalSubsetAggregate[], prompt: PromptSummary, root: string): Fingerprint {
  const data: Record<string, string | null> = {};
  for (const a of aggregates) data[a.key] = a.sha256 ?? null;
  const asked = prompt.uses.filter((u) => u.mode !== 'none');
  // The dataset's demonstrations are data too: their file's hash per prompt language that used them.
  for (const use of asked) {
    if (use.fewshot !== 'dataset' || use.language === null) continue;
    const from = aggregates.find((a) => a.questionLanguage === use.language && a.fewshotSha256);
    data[`fewshot:${use.language}`] = from?.fewshotSha256 ?? null;
  }
  const template: Record<string, string | null> = {};
  for (const use of asked) if (use.language !== null) template[use.language] = templateSha256(use.language);
  const mode = prompt.mode === 'none' ? null : prompt.mode;
  const budgets = [...new Set(aggregates.map((a) => a.maxNewTokens ?? null))];
  const first = aggregates.find((a) => a.modelDescription) ?? aggregates[0];
  return {
    version: 1,
    benchmark: 'multiloko',
    data,
    prompt: mode,
    template: mode === null ? null : template,
    shots: mode === null ? null : prompt.shots,
    fewshot: mode === null ? null : prompt.fewshot,
    extraction: prompt.extraction,
    scorer: MULTILOKO_SCORER,
    // Replayed answers were decoded elsewhere: nothing known to compare.
    decoding: mode === null ? null : { max_new_tokens: budgets.length === 1 ? budgets[0]! : 'mixed', ...decodingSampling(aggregates), stops: STOPS[mode] },
    protocol: null,
    model: modelIdentity(first?.modelDescription, first?.model, root),
    runtime: runtimeVersions(),
  };
}
