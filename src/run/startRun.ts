// Before an evals run asks any model: the settings must be valid, the gates parse, and where the run writes be usable
// (runFiles.ts). The reporter turns a LokalConfigError or ThresholdError thrown here into one line and exit 1.
import path from 'node:path';
import type { BenchmarkDefinition } from '../benchmarks/benchmark.ts';
import { routeClauses } from '../core/gates.ts';
import { requireCacheFile, requireOutputFolder } from '../models/outputCheck.ts';
import { splitModelList } from '../core/modelList.ts';
import { resolveSettingsTree, sharedSettings, type SettingsTree, type SharedSettings } from '../core/settings.ts';
import { DEFAULT_CACHE_FILE } from '../models/cache.ts';
import { specRow } from '../models/providers.ts';
import { requireSeparateOutputs } from './runFiles.ts';

/** The run's shared settings, once every check passed; throws the first mistake found. */
export function checkRunStart(registry: readonly BenchmarkDefinition[], settings: SettingsTree | undefined, root: string, env: Readonly<Record<string, string | undefined>> = process.env): SharedSettings {
  const tree = resolveSettingsTree(registry.map((b) => b.settings), settings, { cwd: root, env });
  const shared = sharedSettings(tree);
  // The gates' grammar too (their scopes need the data, which the suites load).
  const names = registry.map((b) => b.name);
  const routed = routeClauses(tree.thresholds, names, names[0]!);
  for (const b of registry) for (const clause of routed.get(b.name) ?? []) b.checkClause?.(clause);
  requireOutputFolder(path.resolve(root, shared.output));
  requireSeparateOutputs(tree, registry, root, env);
  if (!splitModelList(shared.model ?? '').every((m) => specRow(m)?.answersFromFile)) requireCacheFile(shared.cacheFile ?? DEFAULT_CACHE_FILE, shared.cache ?? 'readwrite');
  return shared;
}
