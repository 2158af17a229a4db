// Whether a run asks a local model (one that runs in the test worker: transformers:, llama:, or the default model):
// such a model is loaded once per worker, so lokalEvals() then runs every eval file in one worker without isolation,
// and all files share the load. The models are the settings' own (defaults < lokal.config.json < options < LOKAL_*),
// resolved leniently: this runs in Vitest's config, and a settings mistake fails the run later with its message.
import type { BenchmarkDefinition } from '../benchmarks/benchmark.ts';
import { splitModelList } from '../core/modelList.ts';
import { benchmarkModel, resolveSettingsTree, type ResolveOptions, type SettingsSection, type SettingsTree } from '../core/settings.ts';
import { BENCHMARKS } from '../benchmarks/index.ts';
import { DEFAULT_MODEL } from '../models/defaults.ts';
import { specRow } from '../models/providers.ts';

/** Where the settings are read, and the benchmarks the config registers beside the built-in ones (their own models). */
interface LocalModelRunOptions extends Pick<ResolveOptions, 'cwd' | 'env'> {
  benchmarks?: readonly BenchmarkDefinition[];
}

/** Whether any model of the run (the shared one, else the default, and each benchmark's own) runs in process. */
export function runUsesLocalModel(settings: SettingsTree | undefined, resolve: LocalModelRunOptions = {}): boolean {
  const sections = new Map<string, SettingsSection>();
  for (const benchmark of [...BENCHMARKS, ...(resolve.benchmarks ?? [])]) sections.set(benchmark.settings.key, benchmark.settings);
  const tree = resolveSettingsTree([...sections.values()], settings ?? {}, { cwd: resolve.cwd, env: resolve.env, lenient: true });
  const models = [tree.model ?? `transformers:${DEFAULT_MODEL}`, ...[...sections.values()].map((section) => benchmarkModel(tree, section).model)];
  return models.some((model) => model !== undefined && splitModelList(model).some((spec) => specRow(spec)?.runsInProcess));
}
