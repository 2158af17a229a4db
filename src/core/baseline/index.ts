// The baseline gate every benchmark shares: paired tests of its figures against an earlier run, Holm across them.
export { pairedTest, DEFAULT_TEST_SETTINGS, type PairedScore, type PairedFigure, type PairedTest, type PairedTestName, type TestSettings } from './pairedTest.ts';
export {
  judgeBaselineFamily,
  baselineOutcome,
  decide,
  testMde,
  fewestSignificantFlips,
  significanceGateName,
  formatP,
  type BaselineTest,
  type BaselineVerdict,
  type SignificanceSettings,
} from './judgeFamily.ts';
export { baselineFileFor } from './baselineFile.ts';
export { pairedFigure, subsetFamily, type ItemScore, type SubsetFigure } from './pairing.ts';
