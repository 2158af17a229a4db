// Whether this run is shown in Vitest UI (`vitest --ui`): there a wrong answer fails its item test, so the UI's Fail
// filter lists the wrong answers. Only the main process knows; uiModeSetup.ts provides it to the workers.
import { inject } from 'vitest';
import { SHARDED_KEY, UI_MODE_KEY } from './uiModeKey.ts';

/** True in a `vitest --ui` run; false otherwise, and where the evals project lacks lokal's global setup. */
export function inUiMode(): boolean {
  return inject(UI_MODE_KEY) === true;
}

/** True when this process runs one shard of the run (`--shard=i/n`): its files hold only part of each benchmark. */
export function inShard(): boolean {
  return inject(SHARDED_KEY) === true;
}

/** A wrong answer fails its item test: in Vitest UI, unless the `strict` setting says either way (LOKAL_STRICT). */
export function wrongAnswersFail(strict: boolean | undefined, ui: boolean): boolean {
  return strict === undefined && ui;
}
