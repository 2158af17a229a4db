// A toy third benchmark, defined the way a user defines their own: capitals by continent, exact match on the
// model's reply. It exists to show that defineBenchmark plus one registration gives describes, item tests, gate
// tests, a roll-up table, gates and a results file without touching any other file.
import { z } from 'zod';
// The modules themselves, not src/index.ts: the configs that register this benchmark bundle what it imports, and Vitest
// hashes every file of that bundle into each module's cache key (about 0.6 s of CPU a child run for the whole API).
import { defineBenchmark, type GroupInfo } from '../../src/benchmarks/benchmark.ts';
import { judge, type GateOutcome, type ParsedClause } from '../../src/core/gates.ts';
import { alignedColumns } from '../../src/core/textTable.ts';

export interface CapitalItem {
  id: number;
  country: string;
  capital: string;
}

export const CAPITALS: Record<string, CapitalItem[]> = {
  europe: [
    { id: 1, country: 'Italy', capital: 'Rome' },
    { id: 2, country: 'France', capital: 'Paris' },
    { id: 3, country: 'Spain', capital: 'Madrid' },
  ],
  asia: [
    { id: 4, country: 'Japan', capital: 'Tokyo' },
    { id: 5, country: 'Nepal', capital: 'Kathmandu' },
  ],
};

interface CapitalRecord {
  id: number;
  reply: string;
  correct: boolean;
}

interface ContinentAggregate extends GroupInfo {
  scored: number;
  /** Share of correct replies; null when nothing was scored. */
  accuracy: number | null;
}

/** `toy.accuracy>=0.5` (all continents) or `toy.<continent>.accuracy>=0.5`. */
function gatesOf(clauses: readonly ParsedClause[]) {
  return clauses.map((c) => {
    if (c.figure !== 'accuracy' || c.scopes.length > 1) throw new Error(`toy gate ${c.clause}: expected toy.[<continent>.]accuracy<op><number>`);
    return { ...c, continent: c.scopes[0] };
  });
}

function judgeAll(clauses: readonly ParsedClause[], groups: readonly ContinentAggregate[]): GateOutcome[] {
  const outcomes: GateOutcome[] = [];
  for (const gate of gatesOf(clauses)) {
    const chosen = groups.filter((g) => gate.continent === undefined || g.key === gate.continent);
    const records = chosen.reduce((n, g) => n + g.scored, 0);
    const correct = chosen.reduce((n, g) => n + (g.accuracy ?? 0) * g.scored, 0);
    if (chosen.length > 0) outcomes.push(judge(gate.clause, `toy ${gate.continent ?? 'all'} accuracy`, correct / records, gate.op, gate.bound));
  }
  return outcomes;
}

export const capitals = defineBenchmark<{ limit?: number; model?: string; thresholds?: string }, CapitalItem, GroupInfo, CapitalRecord, ContinentAggregate>({
  name: 'toy',
  title: 'Capitals (toy)',
  settings: { key: 'toy', shape: { greeting: z.string().optional() }, env: {}, defaults: {} },
  resultsFile: 'toy.json',
  dataHint: 'the items are built in',
  dataConfigured: () => true,
  async prepare(settings, clauses) {
    const gates = clauses;
    gatesOf(gates);
    const groups = Object.entries(CAPITALS).map(([continent, items], order) => {
      const selected = settings.limit === undefined ? items : items.slice(0, settings.limit);
      const info: GroupInfo = { benchmark: 'toy', key: continent, name: `toy · ${continent}`, order, selected: selected.length, total: items.length, model: settings.model, thresholds: settings.thresholds };
      return { info, items: selected };
    });
    return {
      groups,
      testName: (item) => `${item.id} · capital of ${item.country}`,
      async runItem(item, _info, context) {
        const model = await context.model();
        const [answer] = await model.provider.generate([{ prompt: `The capital of ${item.country} is`, itemKey: `toy/${item.id}` }]);
        const reply = answer!.text.trim();
        const correct = reply.toLowerCase() === item.capital.toLowerCase();
        await context.annotate(`${correct ? '✓' : '✗'} said ${JSON.stringify(reply)}`, correct ? 'correct' : 'wrong');
        return { record: { id: item.id, reply, correct } };
      },
      judgeGroup: (aggregate) => ({
        summary: `accuracy ${aggregate.accuracy} over ${aggregate.scored} items`,
        outcomes: judgeAll(gates.filter((g) => g.scopes[0] === aggregate.key), [aggregate]),
      }),
    };
  },
  aggregate(info, items) {
    const records = items.flatMap((i) => (i.record ? [i.record] : []));
    return { ...info, scored: records.length, accuracy: records.length === 0 ? null : records.filter((r) => r.correct).length / records.length };
  },
  uniqueRecords: (records) => [...new Map(records.map((r) => [r.id, r])).values()].sort((a, b) => a.id - b.id),
  report(groups, { clauses }) {
    const outcomes = judgeAll(clauses, groups.map((g) => g.aggregate));
    const rows = [['continent', 'items', 'accuracy'], ...groups.map((g) => [g.aggregate.key, String(g.aggregate.scored), String(g.aggregate.accuracy)])];
    const passed = outcomes.every((o) => o.pass);
    const results = { benchmark: 'toy', continents: Object.fromEntries(groups.map((g) => [g.aggregate.key, { accuracy: g.aggregate.accuracy, records: g.records }])), gates: outcomes, gates_passed: passed };
    return {
      lines: ['', 'Capitals (toy)', ...alignedColumns(rows, (c) => c > 0), ...outcomes.map((o) => `  ${o.pass ? '✓' : '✗'} ${o.message}`)],
      resultsText: `${JSON.stringify(results, null, 2)}\n`,
      passed,
    };
  },
});
