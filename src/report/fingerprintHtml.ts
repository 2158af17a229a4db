// The report's "How this run was made": the run's fingerprint, and against a baseline every field that differs
// (score-changing ones marked: the gate refuses them unless LOKAL_BASELINE_ALLOW accepts them).
import { compareFingerprints, differenceText, fieldPreview, FingerprintError, parseFingerprint, SCORE_FIELDS, type Fingerprint } from '../core/fingerprint.ts';
import { html, type Html } from './escape.ts';

function shown(value: unknown): string {
  if (value === null || value === undefined) return '– (not known for this run)';
  if (typeof value !== 'object') return fieldPreview(String(value));
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${fieldPreview(k)}: ${v === null ? '–' : fieldPreview(String(v))}`)
    .join(' · ');
}

/** The fingerprint (none when absent), or what is wrong with a malformed one: the report still renders. */
function readOrProblem(value: unknown): { fingerprint?: Fingerprint; problem?: string } {
  try {
    const fingerprint = parseFingerprint(value, 'fingerprint');
    return fingerprint ? { fingerprint } : {};
  } catch (error) {
    if (error instanceof FingerprintError) return { problem: error.message };
    throw error;
  }
}

export function fingerprintBlock(current: unknown, baseline: unknown, id: string): Html {
  const { fingerprint: fp, problem } = readOrProblem(current);
  if (problem) return html`<p class="note fail" id="${id}">The results file's fingerprint is malformed (${problem}): runs made from it cannot be checked for comparability.</p>`;
  if (!fp) return html`<p class="note" id="${id}">The results file carries no fingerprint (written by an older version or by lokal score): runs made from it are not checked for comparability.</p>`;
  // A file from before the runtime was recorded has no runtime row.
  const fields = [...SCORE_FIELDS, 'model', ...(fp.runtime ? (['runtime'] as const) : [])] as const;
  const { fingerprint: base, problem: malformed } = baseline === undefined ? {} : readOrProblem(baseline);
  const c = base ? compareFingerprints(fp, base) : undefined;
  const differences = c ? [...c.refused.map((d) => ({ d, scores: true })), ...c.model.map((d) => ({ d, scores: false })), ...c.runtime.map((d) => ({ d, scores: false }))] : [];
  return html`<details class="fingerprint" id="${id}"${differences.length ? html` open` : ''}><summary>How this run was made (fingerprint)${c ? (differences.length ? html` · <strong class="${c.refused.length ? 'fail' : ''}">${differences.length} difference${differences.length === 1 ? '' : 's'} from the baseline</strong>` : ' · the same as the baseline') : ''}</summary>
<table><tbody>${fields.map((f) => html`<tr data-field="${f}"><th>${f}</th><td><code>${shown(fp[f])}</code></td></tr>\n`)}</tbody></table>
${differences.length ? html`<ul class="differences">${differences.map(({ d, scores }) => html`<li class="${scores ? 'fail' : ''}" data-field="${d.field}"><code>${differenceText(d)}</code> ${scores ? '(changes the scores: the gate refuses it unless LOKAL_BASELINE_ALLOW accepts it)' : d.field === 'runtime' ? '(a note: f1_words follows ICU, f1 and EM do not)' : '(the model: what a comparison is for)'}</li>`)}</ul>` : ''}
${malformed ? html`<p class="note fail">The baseline's fingerprint is malformed (${malformed}): not checked.</p>` : base === undefined && baseline !== undefined ? html`<p class="note">The baseline carries no fingerprint: not checked.</p>` : ''}</details>`;
}
