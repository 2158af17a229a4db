// `lokal kalahi score`: Kalahi's generation metrics on replies someone already has.
import { parseArgs } from 'node:util';
import { scoreKalahiFiles } from '../benchmarks/kalahi/results/score.ts';
import { terminalLines } from '../data/terminalText.ts';
import { checkOutputPath, writeOutput } from './output.ts';
import { UsageError } from './usageError.ts';

export async function kalahiCommand(argv: string[]): Promise<number> {
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
  await checkOutputPath('lokal kalahi score', values.output, [
    { path: values.input, role: 'the Kalahi CSV (-i)' },
    { path: values.responses, role: 'the responses file (-r)' },
  ]);
  const output = await scoreKalahiFiles(values.input, values.responses, { chrfPlusPlus: values.chrfpp });
  const text = JSON.stringify(output, null, 4);
  if (values.output) {
    writeOutput(values.output, text + '\n');
    // The file holds the JSON; the terminal gets the table (stdout is free for it).
    const { kalahiScoreTableLines } = await import('../benchmarks/kalahi/results/scoreTable.ts');
    process.stdout.write(`${terminalLines(kalahiScoreTableLines(output, values.output).join('\n'))}\n`);
    process.stderr.write(`lokal kalahi score: wrote ${values.output}\n`);
  } else {
    process.stdout.write(text + '\n');
  }
  return 0;
}
