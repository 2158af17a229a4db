// The roll-up walk: every group suite in the reported modules, by benchmark. Aggregates come from suite meta (written
// by the lokal runner); a group split over several suites (the same key in two files) is re-aggregated from its items.
import type { TestModule, TestSuite } from 'vitest/node';
import type { BenchmarkDefinition, GroupInfo, ItemView } from '../benchmarks/benchmark.ts';
import type { CollectedBenchmark, CollectedRun } from '../run/collected.ts';
import { combineStatus, groupStatus, type GroupStatus } from './completeness.ts';
import './meta.ts';
import { groupTests } from './views.ts';

interface Entry {
  info: GroupInfo;
  gate: Parameters<BenchmarkDefinition['aggregate']>[2];
  suites: TestSuite[];
  items: Array<ItemView<unknown>>;
  status: GroupStatus;
}

/** Item tests skipped, and the keys of the groups that have any, over a benchmark's entries. */
function skipped(mine: readonly Entry[]): Pick<CollectedBenchmark, 'skippedItems' | 'items' | 'cutGroups'> {
  const cut = mine.filter((e) => e.items.some((i) => i.state === 'skipped')).sort((a, b) => a.info.order - b.info.order);
  return {
    skippedItems: mine.reduce((n, e) => n + e.items.filter((i) => i.state === 'skipped').length, 0),
    items: mine.reduce((n, e) => n + e.items.length, 0),
    cutGroups: [...new Set(cut.map((e) => e.info.key))],
  };
}

/** One benchmark's (one model's) groups rolled up, and the keys of those that did not finish. */
function rollUp(definition: BenchmarkDefinition, mine: readonly Entry[]): Pick<CollectedBenchmark, 'groups' | 'missing'> {
  const groups = mine
    .map((e) => {
      const fromRunner = e.suites.length === 1 ? (e.suites[0]!.meta().lokalAggregate as GroupInfo | undefined) : undefined;
      const aggregate = fromRunner ?? (definition.aggregate(e.info, e.items, e.gate) as GroupInfo);
      const records = definition.uniqueRecords(e.items.flatMap((i) => (i.record === undefined ? [] : [i.record])));
      return { aggregate, records };
    })
    .sort((a, b) => a.aggregate.order - b.aggregate.order || (a.aggregate.key < b.aggregate.key ? -1 : a.aggregate.key > b.aggregate.key ? 1 : 0));
  const missing = mine
    .filter((e) => e.status === 'unfinished')
    .sort((a, b) => a.info.order - b.info.order)
    .map((e) => e.info.key);
  return { groups, missing };
}

/**
 * Groups of the run, by benchmark in registry order; groups of unregistered benchmarks are named in a warning. Groups
 * a filter skipped entirely (`-t`) are left out, so a benchmark the filter skipped is not rolled up at all;
 * `interrupted` names the signal that cancelled the run, which skips every test not finished.
 */
export function collectGroups(modules: ReadonlyArray<TestModule>, registry: readonly BenchmarkDefinition[], interrupted?: string): CollectedRun {
  const entries = new Map<string, Entry>();
  const unknown = new Set<string>();
  let withoutRunner = 0;
  for (const module of modules) {
    for (const suite of module.children.allSuites()) {
      const parts = groupTests([...suite.children.tests()], (t) => t.meta());
      if (!parts) continue;
      if (!registry.some((d) => d.name === parts.info.benchmark)) {
        unknown.add(parts.info.benchmark);
        continue;
      }
      const key = `${parts.info.benchmark}\u0000${parts.info.model ?? ''}\u0000${parts.info.key}`;
      const status = groupStatus(suite);
      const known = entries.get(key);
      const entry = known ?? { info: parts.info, gate: parts.gate, suites: [], items: [], status };
      if (known) entry.status = combineStatus(known.status, status);
      entry.suites.push(suite);
      for (const test of suite.children.allTests()) {
        const meta = test.meta();
        if (!meta.lokalGroup) entry.items.push({ record: meta.lokalItem, state: test.result().state });
      }
      entries.set(key, entry);
    }
  }
  // A finished suite without aggregates means no lokal runner; an unfinished one never reached the runner's hook.
  for (const entry of entries.values()) {
    if (entry.status === 'finished') withoutRunner += entry.suites.filter((s) => !s.meta().lokalAggregate).length;
  }
  const warnings: string[] = [];
  if (withoutRunner > 0) {
    warnings.push(`${withoutRunner} group suites carry no aggregates: configure the lokal runner (runner: 'vitest-lokal/runner', as lokalEvals() does) in the evals project; computed here instead`);
  }
  for (const name of unknown) warnings.push(`results of benchmark "${name}" are not rolled up: it is not registered with the reporter (lokalEvals({ benchmarks: [...] }))`);
  const benchmarks: CollectedBenchmark[] = [];
  for (const definition of registry) {
    const all = [...entries.values()].filter((e) => e.info.benchmark === definition.name);
    const ofBenchmark = all.filter((e) => e.status !== 'filtered');
    for (const model of new Set(ofBenchmark.map((e) => e.info.model))) {
      const rolled = rollUp(definition, ofBenchmark.filter((e) => e.info.model === model));
      if (rolled.groups.length > 0) benchmarks.push({ definition, ...rolled, model, ...skipped(all.filter((e) => e.info.model === model)) });
    }
    if (ofBenchmark.length > 0) continue;
    if ([...entries.values()].some((e) => e.info.benchmark === definition.name)) {
      const why = interrupted ? `the run was interrupted (${interrupted}) before any of its items finished` : 'every test was skipped (a -t filter or .skip)';
      warnings.push(`${definition.name}: ${why}; its results file is left as it was`);
    }
  }
  const thresholds = [...entries.values()].find((e) => e.info.thresholds !== undefined)?.info.thresholds;
  return { benchmarks, thresholds, warnings };
}
