// An argument error prints its one line and then that command's usage only, never the whole `lokal` usage; a
// mistyped command gets a did-you-mean, and no usage at all.
import { expect, test } from 'vitest';
import { COMMAND_USAGE, main } from '../../src/cli/index.ts';
import { captureCliOutput } from '../support/cliOutput.ts';

const cli = captureCliOutput();

test('lokal init --shards abc: the line, then init\'s usage alone', async () => {
  expect(await main(['init', '--ci', 'github', '--shards', 'abc'])).toBe(2);
  expect(cli.err).toBe(`lokal init: --shards must be an integer from 1 to 64 (got "abc")\n\nusage: lokal ${COMMAND_USAGE.init}`);
  expect(cli.out).toBe('');
});

test('an unknown option of a command with a subcommand: that subcommand\'s usage alone', async () => {
  expect(await main(['kalahi', 'score', '--nope'])).toBe(2);
  expect(cli.err).toMatch(/^lokal kalahi: Unknown option '--nope'/u);
  expect(cli.err.endsWith(`\n\nusage: lokal ${COMMAND_USAGE['kalahi score']}`)).toBe(true);
  expect(cli.err).not.toContain('commands:');
});

test('a mistyped command: did you mean, and no usage text', async () => {
  expect(await main(['scor'])).toBe(2);
  expect(cli.err).toBe('lokal: unknown command "scor"; did you mean "score"? (lokal --help lists the commands)\n');
  cli.err = '';
  expect(await main(['frobnicate'])).toBe(2);
  expect(cli.err).toBe('lokal: unknown command "frobnicate" (lokal --help lists the commands)\n');
});

test('main() run again and again listens for a closed pipe once (no MaxListenersExceededWarning in the output)', async () => {
  const before = [process.stdout.listenerCount('error'), process.stderr.listenerCount('error')];
  for (let i = 0; i < 12; i++) expect(await main(['kalahi', 'score', '--nope'])).toBe(2);
  const added = [process.stdout.listenerCount('error') - before[0]!, process.stderr.listenerCount('error') - before[1]!];
  expect(added.every((n) => n <= 1), `listeners added: ${added}`).toBe(true);
});
