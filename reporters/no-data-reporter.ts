// Fails a benchmark run in which every benchmark was skipped for want of data: a green run that measured nothing
// would let a CI gate pass silently.
import type { Reporter, TestModule } from 'vitest/node';
import { NO_DATA_SUITE_SUFFIX } from '../src/vitest/noData.ts';

export default class NoDataReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const evalModules = testModules.filter((m) => m.moduleId.endsWith('.eval.ts'));
    if (evalModules.length === 0) return;
    let skippedForData = 0;
    let others = 0;
    for (const module of evalModules) {
      for (const test of module.children.allTests()) {
        if (test.parent.type === 'suite' && test.parent.name.endsWith(NO_DATA_SUITE_SUFFIX)) skippedForData++;
        else others++;
      }
    }
    if (skippedForData > 0 && others === 0) {
      process.stderr.write('lokal: no benchmark ran — no data was found for any of them (see the "skipping" lines above)\n');
      process.exitCode = 1;
    }
  }
}
