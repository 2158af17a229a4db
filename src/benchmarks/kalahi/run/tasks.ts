// The modules a Kalahi prompt test runs, loaded together on first use (metrics, learned scorers, model calls), and the
// prompts they send (for `lokal plan`'s token count).
export { measureKalahiMC, measureKalahiLetter, kalahiMessages } from './mcTask.ts';
export { letterMessages, letterOptions } from '../prompts/letterChoice.ts';
export { measureKalahiGeneration } from './generation.ts';
export { learnedScorers, closeLearnedScorers } from './learned.ts';
export { measureKalahiLetterTrials, measureKalahiGenerationTrials, kalahiLetterTrialsVerdict, kalahiGenerationTrialsVerdict } from './itemTrials.ts';
