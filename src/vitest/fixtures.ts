// The model as a worker-scoped fixture: one provider per worker and provider string, closed when the worker ends.
import { test as base } from 'vitest';
import { createProvider, type CreateProviderOptions } from '../models/index.ts';
import type { ModelProvider } from '../models/types.ts';
import { resolveLokalConfig } from './config.ts';

/** Providers by provider string and options; building one twice (e.g. two suites in a file) reuses the first. */
export class ModelPool {
  readonly #providers = new Map<string, Promise<ModelProvider>>();

  get(spec: string, options: CreateProviderOptions = {}): Promise<ModelProvider> {
    const key = `${spec}\u0000${JSON.stringify(options)}`;
    let provider = this.#providers.get(key);
    if (!provider) {
      provider = createProvider(spec, options);
      this.#providers.set(key, provider);
      // A failed build is not cached: the next test retries and reports its own error.
      provider.catch(() => this.#providers.delete(key));
    }
    return provider;
  }

  async close(): Promise<void> {
    const providers = [...this.#providers.values()];
    this.#providers.clear();
    const settled = await Promise.allSettled(providers);
    await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? s.value.close?.() : undefined)));
  }
}

export const NO_MODEL_MESSAGE =
  'no model configured: set LOKAL_MODEL (e.g. LOKAL_MODEL=replay:predictions.jsonl, transformers:<id or path>, openai:<model>) or "model" in lokal.config.json';

/**
 * `lokalTest`: Vitest's `test` with two worker-scoped fixtures — `lokalModels` (the pool) and `model` (the provider
 * named by LOKAL_MODEL or lokal.config.json). Use it in your own tests: `lokalTest('…', async ({ model }) => …)`.
 */
export const lokalTest = base
  .extend('lokalModels', { scope: 'worker' }, async ({}, { onCleanup }) => {
    const pool = new ModelPool();
    onCleanup(() => pool.close());
    return pool;
  })
  .extend('model', { scope: 'worker' }, async ({ lokalModels }) => {
    const config = resolveLokalConfig();
    if (!config.model) throw new Error(NO_MODEL_MESSAGE);
    return lokalModels.get(config.model, { replay: { onMissing: config.missing } });
  });
