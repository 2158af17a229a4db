// Reporter for the in-run generation bench: writes each item test's start time and duration (Vitest's own
// diagnostic) to the JSON file BENCH_ITEM_TIMES names, so the bench measures the item tests' time, not start-up, with
// the item's id (the test name's start, itemTestName in src/benchmarks/multiloko/run/names.ts) and the model's answer.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase } from 'vitest/node';

// SUMMARY_TEST_NAME of src/vitest/summaryTest.ts (not imported: that module loads Vitest's test API, worker-side only)
const SUMMARY_TEST_NAME = 'summary';
// the threshold gate test's name (src/vitest/benchmarkSuite.ts)
const GATE_TEST_NAME = 'gate';

export default class ItemTimesReporter implements Reporter {
  private readonly items: Array<{ name: string; id: string; answer?: string; state: string; startTime: number; duration: number }> = [];

  onTestCaseResult(testCase: TestCase): void {
    const diagnostic = testCase.diagnostic();
    if (testCase.name === SUMMARY_TEST_NAME || testCase.name === GATE_TEST_NAME || !diagnostic) return;
    // the item record's answer as the provider returned it (src/vitest/benchmarkSuite.ts stores it as meta.lokalItem)
    const answer = (testCase.meta() as { lokalItem?: { rawPrediction?: unknown } }).lokalItem?.rawPrediction;
    this.items.push({
      name: testCase.fullName,
      id: testCase.name.split(' · ')[0]!,
      ...(typeof answer === 'string' ? { answer } : {}),
      state: testCase.result().state,
      startTime: diagnostic.startTime,
      duration: diagnostic.duration,
    });
  }

  onTestRunEnd(): void {
    const file = process.env.BENCH_ITEM_TIMES;
    if (file) writeFileSync(file, JSON.stringify(this.items));
  }
}
