// The `lokal` command: `score` (drop-in for MultiLoKo's eval.py), `data fetch`, `kalahi score`, `compare`. Only the usage text
// and argument parsing load up front; each command imports what it needs, so `lokal --help` answers at once.
import { parseArgs } from 'node:util';

type Command = (argv: string[]) => Promise<number>;

const USAGE = `usage: lokal <command> [options]

commands:
  score -d <dataset dir|.enc archive> -s <split> -p <predictions .jsonl|.csv> [-o <out.json>]
        Score predictions like MultiLoKo's eval.py (same JSON layout). Long forms:
        --dataset_location --subset --predictions --output.
        --missing empty|skip   a dataset item without a prediction: scored as '' and flagged (default),
                               or left out as eval.py does
        --stringify-ids        match CSV string ids to numeric dataset ids (eval.py raises KeyError)
        --sum fold|neumaier    cross-language sums as Python 3.11 (default) or 3.12+ computes them
        --strict               exit 1 when any prediction row did not line up with the dataset
  data fetch [--dir data] [--only multiloko|kalahi]
        Download the official MultiLoKo archive and the Kalahi CSVs into data/ (resumable, checksummed).
  kalahi score -i <kalahi csv> -r <responses.jsonl> [-o <out.json>] [--chrfpp]
        Score existing Kalahi replies ({prompt_variation_id, response} rows) with the generation metrics
        (--chrfpp: chrF++ as the paper names it, instead of the chrF the reference code computes).
  compare <run> <run>... [-o compare.html] [--no-html]
        2 to 10 results files or folders side by side, each paired with the first (McNemar / paired t, Holm).
`;

class UsageError extends Error {}

/**
 * A message line on stderr, written straight to the descriptor: process.stderr would first load Node's stream stack
 * (some twenty modules) for one line. Falls back to process.stderr where a direct write fails (EAGAIN on a
 * non-blocking pipe) or Node has no getBuiltinModule.
 */
function say(text: string): void {
  // getBuiltinModule (Node >= 20.16), not an import of node:fs, whose ES module facade loads the streams as well.
  const fs = process.getBuiltinModule?.('node:fs') as typeof import('node:fs') | undefined;
  try {
    if (fs) return void fs.writeSync(2, text);
  } catch {
    // fall through to the stream
  }
  process.stderr.write(text);
}

/** `-o` checked before any work: a folder (or a path under a file) fails now, not after the scoring. */
async function checkOutputPath(command: string, output: string | undefined): Promise<void> {
  if (!output) return;
  const { stat } = await import('node:fs/promises');
  const stats = await stat(output).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : error));
  if (stats instanceof Error) throw new Error(`${command}: --output ${output}: cannot be written (${stats.code ?? stats.message})`);
  if (stats?.isDirectory()) throw new Error(`${command}: --output ${output}: is a folder (EISDIR); give a file name`);
}

/** Writes the output file; a failure names the file and the errno code (ENOSPC, EACCES, EISDIR, …). */
async function writeOutput(output: string, text: string): Promise<void> {
  const { writeFileAtomic } = await import('../core/io.ts');
  try {
    await writeFileAtomic(output, text);
  } catch (error) {
    const { ioError } = await import('../data/files.ts');
    throw ioError(output, 'cannot write the output file', error);
  }
}

async function scoreCommand(argv: string[]): Promise<number> {
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
  await checkOutputPath('lokal score', values.output);
  // The loader's own module, not the data barrel (which would also load the downloader and Kalahi's CSV reader).
  const { loadMultiLoKo } = await import('../benchmarks/multiloko/data/multiloko.ts');
  const { readPredictions } = await import('../benchmarks/multiloko/data/predictions.ts');
  const { scoreMultiLoKoPredictions, describeProblems, scoreOutputJson } = await import('../benchmarks/multiloko/score.ts');
  const dataset = await loadMultiLoKo(values.dataset_location, values.subset);
  const rows = await readPredictions(values.predictions!);
  const output = scoreMultiLoKoPredictions(dataset, rows, {
    missing: values.missing as 'empty' | 'skip' | undefined,
    stringifyIds: values['stringify-ids'],
    sum: values.sum as 'fold' | 'neumaier' | undefined,
  });
  const { problems } = output;
  for (const line of describeProblems(problems, dataset)) say(`lokal score: ${line}\n`);
  const text = scoreOutputJson(output);
  if (values.output) {
    await writeOutput(values.output, text + '\n');
    say(`lokal score: wrote ${values.output}\n`);
  } else {
    process.stdout.write(text + '\n');
  }
  const lineProblems = problems.unknownIds.length + problems.unknownLanguages.length + problems.duplicates.length;
  return values.strict && (lineProblems > 0 || problems.missing.length > 0) ? 1 : 0;
}

async function dataCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'fetch') throw new UsageError(`lokal data: unknown subcommand ${JSON.stringify(sub ?? '')} (expected "fetch")`);
  const { values } = parseArgs({ args: rest, options: { dir: { type: 'string' }, only: { type: 'string' } } });
  if (values.only && values.only !== 'multiloko' && values.only !== 'kalahi') {
    throw new UsageError(`lokal data fetch: --only must be "multiloko" or "kalahi"`);
  }
  const { fetchData } = await import('./fetch.ts');
  await fetchData({
    dir: values.dir ?? 'data',
    only: values.only as 'multiloko' | 'kalahi' | undefined,
    log: (line: string) => process.stderr.write(line + '\n'),
  });
  return 0;
}

async function kalahiCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'score') throw new UsageError(`lokal kalahi: unknown subcommand ${JSON.stringify(sub ?? '')} (expected "score")`);
  const { values } = parseArgs({
    args: rest,
    options: {
      input: { type: 'string', short: 'i' },
      responses: { type: 'string', short: 'r' },
      output: { type: 'string', short: 'o' },
      chrfpp: { type: 'boolean' },
    },
  });
  if (!values.input) throw new UsageError('lokal kalahi score: -i <kalahi csv> is required');
  if (!values.responses) throw new UsageError('lokal kalahi score: -r <responses.jsonl> is required');
  await checkOutputPath('lokal kalahi score', values.output);
  const { scoreKalahiFiles } = await import('../benchmarks/kalahi/score.ts');
  const output = await scoreKalahiFiles(values.input, values.responses, { chrfPlusPlus: values.chrfpp });
  const text = JSON.stringify(output, null, 4);
  if (values.output) {
    await writeOutput(values.output, text + '\n');
    process.stderr.write(`lokal kalahi score: wrote ${values.output}\n`);
  } else {
    process.stdout.write(text + '\n');
  }
  return 0;
}

const COMMANDS: Record<string, Command> = { score: scoreCommand, data: dataCommand, kalahi: kalahiCommand, compare: async (argv) => (await import('./compare.ts')).compareCommand(argv) };

/** Runs the CLI; returns the exit code (0 ok, 1 a check failed, 2 usage or input error). */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`lokal: unknown command ${JSON.stringify(name)}\n\n${USAGE}`);
    return 2;
  }
  try {
    return await command(rest);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`lokal ${name}: ${message.replace(/^lokal [a-z ]+: /, '')}\n`);
    if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`\n${USAGE}`);
    }
    if (process.env.LOKAL_DEBUG) console.error(error);
    return 2;
  }
}
