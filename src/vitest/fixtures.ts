// The model as a worker-scoped fixture: one provider per worker and provider string, closed when the worker ends.
import { test as base } from 'vitest';
import type { ModelProvider } from '../models/types.ts';
import { splitModelList } from '../core/modelList.ts';
import { resolveSettingsTree, sharedSettings } from '../core/settings.ts';
import { BENCHMARKS } from '../benchmarks/index.ts';
import { lokalModelOptions, modelSpec, openLokalModel, type LokalModel, type LokalModelOptions } from '../models/open.ts';
import { probeProvider } from '../models/probe.ts';
import { modelCapabilities, type ModelCapabilities } from '../models/capabilities.ts';

/** Models by provider string and options; building one twice (e.g. two suites in a file) reuses the first. */
export class ModelPool {
  readonly #models = new Map<string, Promise<LokalModel>>();
  readonly #usable = new Map<string, Promise<LokalModel>>();

  /** The built model (provider, cache wrapper, chat detection). */
  open(spec: string, options: LokalModelOptions = {}): Promise<LokalModel> {
    const key = `${spec}\u0000${JSON.stringify(options)}`;
    let model = this.#models.get(key);
    if (!model) {
      model = openLokalModel(spec, options);
      this.#models.set(key, model);
      // A failed build is not cached: the next test retries and reports its own error.
      model.catch(() => this.#models.delete(key));
    }
    return model;
  }

  /**
   * The built model, loaded (transformers:) or its server reached (openai:) once. Unlike `open`, a failure is kept:
   * every suite of the worker gets the same error at once instead of loading or waiting again.
   */
  usable(spec: string, options: LokalModelOptions = {}): Promise<LokalModel> {
    const key = `${spec}\u0000${JSON.stringify(options)}`;
    let model = this.#usable.get(key);
    if (!model) {
      model = this.open(spec, options).then(async (built) => {
        await probeProvider(built.kind, built.inner);
        return built;
      });
      model.catch(() => undefined);
      this.#usable.set(key, model);
    }
    return model;
  }

  readonly #capabilities = new Map<string, Promise<ModelCapabilities>>();

  /** What the model can do, asked once per worker (every suite of the worker shares the answer). */
  capabilities(spec: string, options: LokalModelOptions = {}): Promise<ModelCapabilities> {
    const key = `${spec}\u0000${JSON.stringify(options)}`;
    let found = this.#capabilities.get(key);
    if (!found) {
      found = this.usable(spec, options).then(modelCapabilities);
      found.catch(() => undefined);
      this.#capabilities.set(key, found);
    }
    return found;
  }

  /** Closes one model and forgets it: a run listing several models holds one at a time (the next call builds it anew). */
  async release(spec: string, options: LokalModelOptions = {}): Promise<void> {
    const key = `${spec}\u0000${JSON.stringify(options)}`;
    const model = this.#models.get(key);
    this.#models.delete(key);
    this.#usable.delete(key);
    const built = await model?.catch(() => undefined);
    await built?.provider.close?.();
  }

  /** The provider tests call: cached (transformers:, openai:) or not (replay:, or cache off). */
  async get(spec: string, options: LokalModelOptions = {}): Promise<ModelProvider> {
    return (await this.open(spec, options)).provider;
  }

  async close(): Promise<void> {
    const models = [...this.#models.values()];
    this.#models.clear();
    this.#usable.clear();
    const settled = await Promise.allSettled(models);
    await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? s.value.provider.close?.() : undefined)));
  }
}

/** The pool's slot on globalThis: eval files run in one worker without isolation (lokalEvals) share it even when modules are evaluated again per file. */
const POOL_SLOT = Symbol.for('vitest-lokal.workerModelPool');

/** The worker's pool: shared by benchmarkSuite (which loads the model at collection) and the lokalModels fixture, across the files of the worker. */
export function workerModelPool(): ModelPool {
  const slot = globalThis as { [POOL_SLOT]?: ModelPool };
  slot[POOL_SLOT] ??= new ModelPool();
  return slot[POOL_SLOT];
}

/**
 * `lokalTest`: Vitest's `test` with two worker-scoped fixtures — `lokalModels` (the pool) and `model` (the provider
 * named by LOKAL_MODEL or lokal.config.json, else the default model; response cache included).
 * Use it in your own tests: `lokalTest('…', async ({ model }) => …)`.
 */
export const lokalTest = base
  .extend('lokalModels', { scope: 'worker' }, async ({}, { onCleanup }) => {
    const pool = workerModelPool();
    onCleanup(() => pool.close());
    return pool;
  })
  .extend('model', { scope: 'worker' }, async ({ lokalModels }) => {
    const config = sharedSettings(resolveSettingsTree(BENCHMARKS.map((b) => b.settings)));
    const specs = splitModelList(modelSpec(config));
    if (specs.length > 1) throw new Error(`the model fixture takes one model, but LOKAL_MODEL lists ${specs.length} (${specs.join(', ')}); benchmark suites run each in turn, your own tests need one`);
    return lokalModels.get(modelSpec(config), lokalModelOptions(config));
  });
