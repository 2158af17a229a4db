// The run's line on where its answers came from: the response cache and the model, or a replay's predictions file.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RunSummary } from './rollup.ts';
import { answerFile } from '../../../models/providers.ts';

/**
 * `5 items from the cache, 0 asked the model`; for a replay, the answers read from the predictions file — or, when the
 * replay could not be opened, that the file is missing (not "0 answers read", which reads as an empty file).
 */
export function callsLine(summary: Pick<RunSummary, 'model' | 'model_description' | 'calls'>, root: string): string {
  const model = summary.model;
  const file = model === undefined ? undefined : answerFile(model);
  if (file !== undefined) {
    // No description and no answer: the replay never opened (a -t filter that skips the gate tests leaves answers).
    if (summary.model_description === null && summary.calls.model_calls === 0) {
      return existsSync(path.resolve(root, file)) ? `the predictions file ${file} could not be read (see the failed tests)` : `the predictions file ${file} does not exist`;
    }
    return `${summary.calls.model_calls} answers read from the predictions file`;
  }
  return `${summary.calls.cached} items from the cache, ${summary.calls.model_calls} asked the model`;
}
