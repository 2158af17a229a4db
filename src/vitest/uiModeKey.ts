// The key under which the main process provides `config.ui` to the test workers (Vitest's `provide`/`inject`).
export const UI_MODE_KEY = 'lokalUi';

declare module 'vitest' {
  interface ProvidedContext {
    /** The run is shown in Vitest UI (`--ui`). */
    lokalUi: boolean;
  }
}
