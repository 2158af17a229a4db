// `lokal score`'s fingerprint and the scorer's version, apart from fingerprint.ts: what a score needs loads neither
// zod (the fingerprint schema) nor the prompt table (read and validated at import), a fifth of a cold 7,500-item score.
import type { Fingerprint } from '../../../core/fingerprint.ts';
import { runtimeVersions } from '../../../core/runtimeVersions.ts';

/**
 * The scoring's version: eval.py of facebookresearch/multiloko at 4f4de60, as this package reproduces it. Raise the
 * number whenever the same answer would get a different score, so older runs stop being compared with newer ones.
 */
export const MULTILOKO_SCORER = 'multiloko eval.py@4f4de60 · lokal scorer 1';

/**
 * `lokal score`'s fingerprint (its `lokal.fingerprint`): the scored subsets' file hashes and the scorer; no prompt or
 * decoding is known (the answers were made elsewhere) and none is extracted; the model is the predictions file.
 */
export function scoreFingerprint(subsets: ReadonlyArray<{ key: string; sha256?: string }>, predictions: { file: string; sha256: string | null }): Fingerprint {
  const data: Record<string, string | null> = {};
  for (const s of subsets) data[s.key] = s.sha256 ?? null;
  return {
    version: 1,
    benchmark: 'multiloko',
    data,
    prompt: null,
    template: null,
    shots: null,
    fewshot: null,
    extraction: false,
    scorer: MULTILOKO_SCORER,
    decoding: null,
    protocol: null,
    model: { provider: 'predictions', model: predictions.file, sha256: predictions.sha256 },
    runtime: runtimeVersions(),
  };
}

/** One line for the terminal: what a comparison with this file would check. */
export function fingerprintLine(fp: Fingerprint): string {
  const data = Object.entries(fp.data).map(([key, hash]) => `${key} ${typeof hash === 'string' ? hash.slice(0, 8) : '–'}`);
  const model = fp.model.sha256;
  return `fingerprint: data ${data.join(', ')}; scorer ${String(fp.scorer)}; extraction ${String(fp.extraction)}; model ${String(fp.model.model ?? fp.model.spec)}${typeof model === 'string' ? ` (sha256 ${model.slice(0, 8)})` : ''}`;
}
