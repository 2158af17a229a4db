// The modules a Kalahi prompt test runs, loaded together on first use (metrics, learned scorers, model calls).
export { measureKalahiMC, measureKalahiLetter } from './mcTask.ts';
export { measureKalahiGeneration } from './generation.ts';
export { learnedScorers, closeLearnedScorers } from './learned.ts';
