// `lokal score`: MultiLoKo's eval.py as a command (same arguments, same JSON), with problems reported, not raised.
import { fingerprintLine, scoreFingerprint } from '../benchmarks/multiloko/fingerprint.ts';
import { fileSha256 } from '../core/sha256.ts';
import { parseArgs } from 'node:util';
// The loader's own module, not the data barrel (which would also load the downloader and Kalahi's CSV reader).
import { loadMultiLoKo } from '../benchmarks/multiloko/data/multiloko.ts';
import { readPredictions } from '../benchmarks/multiloko/data/predictions.ts';
import { describeProblems, scoreMultiLoKoPredictions, scoreOutputJson, writeScoreOutputJson } from '../benchmarks/multiloko/score.ts';
import { checkOutputPath, say, writeOutput } from './output.ts';
import { UsageError } from './usageError.ts';

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
  await checkOutputPath('lokal score', values.output, [
    { path: values.predictions!, role: 'the predictions file (-p)' },
    { path: values.dataset_location!, role: 'a file of the dataset (-d)', folder: /\.(?:jsonl|enc|xz|tar)$/iu },
  ]);
  const dataset = await loadMultiLoKo(values.dataset_location, values.subset);
  const rows = await readPredictions(values.predictions!);
  const output = scoreMultiLoKoPredictions(dataset, rows, {
    missing: values.missing as 'empty' | 'skip' | undefined,
    stringifyIds: values['stringify-ids'],
    sum: values.sum as 'fold' | 'neumaier' | undefined,
  });
  const { problems } = output;
  for (const line of describeProblems(problems, dataset)) say(`lokal score: ${line}\n`);
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
