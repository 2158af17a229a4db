// Statistics for figures and regressions: intervals, paired tests, corrections, bootstrap.
export { normalCdf, normalQuantile, studentTCdf, studentTQuantile } from './distributions.ts';
export { wilsonInterval, meanInterval, sampleSd, type Interval } from './intervals.ts';
export { pairedDifference, mcnemarExact, holm, minimumDetectableEffect, type PairedDifference } from './paired.ts';
export { clusterBootstrap, seededUniform, quantileSorted, type BootstrapOptions, type BootstrapResult } from './bootstrap.ts';
export { logGamma, incompleteBeta, incompleteGamma } from './special.ts';
export { stratifiedBootstrap, type StratifiedBootstrapOptions, type FigureInterval } from './stratifiedBootstrap.ts';
export { itemMeanInterval, type ItemMeanInterval, type IntervalMethod } from './figureInterval.ts';
export { boundedMeanInterval } from './boundedMean.ts';
export { passAtK, passHatK } from './passAtK.ts';
export { summariseTrials, type Trial, type TrialSummary } from './trialSummary.ts';
export { varianceComponents, type VarianceComponents } from './varianceComponents.ts';
export { subsetTrialFigures, type SubsetTrialFigures, type TrialFigure, type TrialFigureOptions } from './trialFigures.ts';
