// `lokal score`: MultiLoKo's eval.py as a command (same arguments, same JSON), with problems reported, not raised.
import { wordSegmenterFallbackLine } from '../benchmarks/multiloko/metrics/wordSegmenter.ts';
import { contentLanguage } from '../benchmarks/multiloko/data/subsetKey.ts';
import { fingerprintLine, scoreFingerprint } from '../benchmarks/multiloko/metrics/scoreFingerprint.ts';
import { fileSha256 } from '../core/sha256.ts';
import { parseArgs } from 'node:util';
// The loader's own module, not the data barrel (which would also load the downloader and Kalahi's CSV reader).
import { loadMultiLoKo, type MultiLoKoDataset } from '../benchmarks/multiloko/data/multiloko.ts';
import { readPredictions } from '../models/predictions.ts';
import { describeProblems, scoreMultiLoKoPredictions, scoreMultiLoKoPredictionsOnThreads, scoreOutputJson, writeScoreOutputJson, type ScoreOptions, type ScoreOutput } from '../benchmarks/multiloko/metrics/score.ts';
import { ScoreThreads } from '../benchmarks/multiloko/metrics/scoreThreads.ts';
import { checkOutputPath, say, writeOutput } from './output.ts';
import { UsageError } from './usageError.ts';

// The worker's module beside this one: src/cli/scoreWorker.ts in a checkout, dist/cli/scoreWorker.js as built.
const SCORE_WORKER = new URL(`./scoreWorker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
const MAX_THREADS = 64;
export async function scoreCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset_location: { type: 'string', short: 'd' },
      subset: { type: 'string', short: 's' },
      predictions: { type: 'string', short: 'p' },
      output: { type: 'string', short: 'o' },
      missing: { type: 'string' },
      'stringify-ids': { type: 'boolean' },
      sum: { type: 'string' },
      strict: { type: 'boolean' },
      threads: { type: 'string' },
    },
  });
  for (const name of ['dataset_location', 'subset', 'predictions'] as const) {
    if (!values[name]) throw new UsageError(`lokal score: --${name} is required`);
  }
  if (values.missing && values.missing !== 'empty' && values.missing !== 'skip') {
    throw new UsageError(`lokal score: --missing must be "empty" or "skip", not ${JSON.stringify(values.missing)}`);
  }
  if (values.sum && values.sum !== 'fold' && values.sum !== 'neumaier') {
    throw new UsageError(`lokal score: --sum must be "fold" or "neumaier", not ${JSON.stringify(values.sum)}`);
  }
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= MAX_THREADS)) {
    throw new UsageError(`lokal score: --threads must be a whole number from 1 to ${MAX_THREADS}, not ${JSON.stringify(values.threads)}`);
  }
  await checkOutputPath('lokal score', values.output, [
    { path: values.predictions!, role: 'the predictions file (-p)' },
    { path: values.dataset_location!, role: 'a file of the dataset (-d)', folder: /\.(?:jsonl|enc|xz|tar)$/iu },
  ]);
  // One thread unless --threads asks for more: on 2 idle cores workers cost more than they saved at 7,500 rows (0.68 s
  // on 2 threads, 0.54 s on one) and at 37,750 (1.39 s, 1.15 s); npm run bench -- score.
  const count = threads ?? 1;
  // The workers start now, so that their start-up overlaps the reading of the files.
  const pool = count > 1 ? new ScoreThreads(SCORE_WORKER, count - 1) : undefined;
  let output: ScoreOutput;
  let dataset: MultiLoKoDataset;
  try {
    dataset = await loadMultiLoKo(values.dataset_location, values.subset);
    const rows = await readPredictions(values.predictions!);
    const options: ScoreOptions = {
      missing: values.missing as 'empty' | 'skip' | undefined,
      stringifyIds: values['stringify-ids'],
      sum: values.sum as 'fold' | 'neumaier' | undefined,
      predictionsFile: values.predictions!,
    };
    output = pool ? await scoreMultiLoKoPredictionsOnThreads(dataset, rows, pool, options) : scoreMultiLoKoPredictions(dataset, rows, options);
  } finally {
    pool?.close();
  }
  const { problems } = output;
  for (const line of describeProblems(problems, dataset)) say(`lokal score: ${line}\n`);
  const wordRules = wordSegmenterFallbackLine(output.languages.map((l) => contentLanguage(l.key)));
  if (wordRules) say(`lokal score: ${wordRules}\n`);
  // What makes this file comparable (the baseline gate and lokal compare check it): the subsets scored, the scorer, the predictions.
  const scored = new Set(output.languages.map((l) => l.key));
  const fingerprint = scoreFingerprint(dataset.subsets.filter((s) => scored.has(s.key)), { file: values.predictions!, sha256: await fileSha256(values.predictions!) });
  if (values.output) {
    // Printed beside the file it is written to; on stdout the JSON carries it (and stderr stays quiet for pipes).
    say(`lokal score: ${fingerprintLine(fingerprint)}\n`);
    // Written piece by piece: the whole text (and its UTF-8 copy) is never held at once.
    writeOutput(values.output, (write) => {
      writeScoreOutputJson(output, write, [], { fingerprint });
      write('\n');
    });
    say(`lokal score: wrote ${values.output}\n`);
  } else {
    process.stdout.write(scoreOutputJson(output, [], { fingerprint }) + '\n');
  }
  const lineProblems = problems.unknownIds.length + problems.unknownLanguages.length + problems.duplicates.length;
  return values.strict && (lineProblems > 0 || problems.missing.length > 0) ? 1 : 0;
}
