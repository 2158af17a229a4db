// Whether a run asks a local model (transformers:, llama:, or the default model): such a model is loaded once per
// worker, so lokalEvals() then runs every eval file in one worker without isolation, and all files share the load.
// Read from the raw settings (LOKAL_MODEL, LOKAL_<BENCHMARK>_MODEL, options, lokal.config.json) without loading the
// benchmarks or validating: this runs in Vitest's config, and a settings error fails the run later with its message.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { splitModelList } from '../core/modelList.ts';
import { DEFAULT_MODEL } from '../models/defaults.ts';

/** Providers whose model lives in the test worker's memory. */
export const LOCAL_PROVIDERS: readonly string[] = ['transformers', 'llama'];

type Layer = Record<string, unknown>;

/** The config file's contents as written (LOKAL_CONFIG or ./lokal.config.json); {} when absent or unreadable. */
function configFile(cwd: string, env: Readonly<Record<string, string | undefined>>): Layer {
  const file = env.LOKAL_CONFIG ? path.resolve(cwd, env.LOKAL_CONFIG) : path.join(cwd, 'lokal.config.json');
  try {
    const value: unknown = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    return value !== null && typeof value === 'object' ? (value as Layer) : {};
  } catch {
    return {};
  }
}

/** Model settings of a layer: its shared `model` and every benchmark section's own `model`. */
function layerModels(layer: Layer): { shared?: string; own: string[] } {
  const own = Object.values(layer).flatMap((section) => {
    const model = section !== null && typeof section === 'object' ? (section as { model?: unknown }).model : undefined;
    return typeof model === 'string' ? [model] : [];
  });
  return { shared: typeof layer.model === 'string' ? layer.model : undefined, own };
}

/** Whether any model of the run (the shared one, else the default, and each benchmark's own) is local. */
export function runUsesLocalModel(settings: Layer | undefined, resolve: { cwd?: string; env?: Readonly<Record<string, string | undefined>> } = {}): boolean {
  const env = resolve.env ?? process.env;
  const file = layerModels(configFile(resolve.cwd ?? process.cwd(), env));
  const options = layerModels(settings ?? {});
  const shared = env.LOKAL_MODEL ?? options.shared ?? file.shared ?? `transformers:${DEFAULT_MODEL}`;
  const own = Object.entries(env).flatMap(([name, value]) => (/^LOKAL_\w+_MODEL$/u.test(name) && value ? [value] : []));
  return [shared, ...own, ...options.own, ...file.own].some((model) =>
    splitModelList(model).some((spec) => LOCAL_PROVIDERS.includes(spec.slice(0, spec.indexOf(':')).trim())),
  );
}
