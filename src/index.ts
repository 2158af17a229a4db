// vitest-lokal's public API: suites for eval files, and the building blocks (data, metrics, prompts, models).
export * from './vitest/index.ts';
export * as data from './data/index.ts';
export * as metrics from './metrics/index.ts';
export * as prompts from './benchmarks/multiloko/prompts/index.ts';
export * as models from './models/index.ts';
export { scoreMultiLoKoPredictions, scoreOutputJson, describeProblems, type ScoreOptions, type ScoreOutput } from './benchmarks/multiloko/score.ts';
export { readPredictions, type PredictionRow } from './benchmarks/multiloko/data/predictions.ts';
