// The key under which the main process provides `config.ui` to the test workers (Vitest's `provide`/`inject`).
export const UI_MODE_KEY = 'lokalUi';

/** The key under which it provides whether this process runs one shard (`--shard=i/n`) of the run. */
export const SHARDED_KEY = 'lokalSharded';

declare module 'vitest' {
  interface ProvidedContext {
    /** The run is shown in Vitest UI (`--ui`). */
    lokalUi: boolean;
    /** The run is one shard of several (`--shard`): run-wide figures are judged where the shards' reports merge. */
    lokalSharded: boolean;
  }
}
