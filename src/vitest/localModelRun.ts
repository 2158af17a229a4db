// Whether a run asks a local model (transformers:, llama:, or the default model): such a model is loaded once per
// worker, so lokalEvals() then runs every eval file in one worker without isolation, and all files share the load.
import { BENCHMARKS } from '../benchmarks/index.ts';
import type { BenchmarkDefinition } from '../core/benchmark.ts';
import { splitModelList } from '../core/modelList.ts';
import { benchmarkModel, resolveSettingsTree, type ResolveOptions, type SettingsTree } from '../core/settings.ts';
import { DEFAULT_MODEL } from '../models/defaults.ts';

/** Providers whose model lives in the test worker's memory. */
export const LOCAL_PROVIDERS: readonly string[] = ['transformers', 'llama'];

/** Whether any benchmark's model (its own `<benchmark>.model`, else the shared one, else the default) is local. */
export function runUsesLocalModel(settings: SettingsTree | undefined, benchmarks: readonly BenchmarkDefinition[] = [], resolve: ResolveOptions = {}): boolean {
  const sections = [...BENCHMARKS, ...benchmarks.filter((b) => !BENCHMARKS.some((known) => known.name === b.name))].map((b) => b.settings);
  let tree: SettingsTree;
  try {
    tree = resolveSettingsTree(sections, settings, resolve);
  } catch {
    return false; // a settings error fails the run at collection, with its own message
  }
  return sections.some((section) => {
    const model = benchmarkModel(tree, section).model ?? `transformers:${DEFAULT_MODEL}`;
    return splitModelList(model).some((spec) => LOCAL_PROVIDERS.includes(spec.slice(0, spec.indexOf(':')).trim()));
  });
}
