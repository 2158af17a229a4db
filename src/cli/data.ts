// `lokal data fetch`: the official data into data/ (the download itself is src/data/fetch.ts).
import { parseArgs } from 'node:util';
import { fetchData } from '../benchmarks/fetchData.ts';
import { UsageError } from './usageError.ts';

export async function dataCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'fetch') throw new UsageError(`lokal data: unknown subcommand ${JSON.stringify(sub ?? '')} (expected "fetch")`);
  const { values } = parseArgs({ args: rest, options: { dir: { type: 'string' }, only: { type: 'string' } } });
  if (values.only && values.only !== 'multiloko' && values.only !== 'kalahi') {
    throw new UsageError(`lokal data fetch: --only must be "multiloko" or "kalahi"`);
  }
  await fetchData({
    dir: values.dir ?? 'data',
    only: values.only as 'multiloko' | 'kalahi' | undefined,
    log: (line: string) => process.stderr.write(line + '\n'),
  });
  return 0;
}
