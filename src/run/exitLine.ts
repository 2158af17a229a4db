// The run's last line when lokal makes it exit 1: Vitest's summary lists failed tests, but a missed run-wide or
// baseline gate, an incomplete benchmark or a benchmark that measured nothing fails no test, so its exit code would
// be left unexplained (`lokal: exit 1: 2 gates missed: MultiLoKo average EM (3 local languages) = 0.4200 (gate em>=0.5), …`).
import type { MissedGate } from '../benchmarks/benchmark.ts';
import { formatFigure } from '../core/gates.ts';
import { summariseList } from '../data/errors.ts';

/** What made lokal fail the run, gathered while it rolls up. */
export class ExitReasons {
  readonly #gates: string[] = [];
  readonly #others: string[] = [];

  /** A benchmark's missed gates, each named by its figure (prefixed with the benchmark's title unless it starts so). */
  missed(title: string, gates: readonly MissedGate[]): void {
    for (const g of gates) {
      const value = g.value === null || Number.isNaN(g.value) ? '' : ` = ${formatFigure(g.value)}`;
      const figure = g.figure.toLowerCase().startsWith(title.toLowerCase()) ? g.figure : `${title} ${g.figure}`;
      this.#gates.push(`${figure}${value} (gate ${g.gate})`);
    }
  }

  /** Any other reason, e.g. `kalahi: incomplete run`. */
  add(reason: string): void {
    this.#others.push(reason);
  }

  get empty(): boolean {
    return this.#gates.length === 0 && this.#others.length === 0;
  }

  /** `lokal: exit 1: 2 gates missed: …; kalahi: incomplete run`; undefined when lokal failed nothing. */
  line(): string | undefined {
    if (this.empty) return undefined;
    const parts = [...(this.#gates.length ? [`${this.#gates.length} gate${this.#gates.length === 1 ? '' : 's'} missed: ${summariseList(this.#gates, String, 4)}`] : []), ...this.#others];
    return `lokal: exit 1: ${parts.join('; ')}`;
  }
}
