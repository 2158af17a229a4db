// A long-lived process that runs `vitest run …` command lines one after another, as Vitest's CLI runs one: parseCLI,
// then startVitest, then close. Each run gets its own environment and working folder; its output goes to this
// process's stdout and stderr, followed by a marker line, and its exit code comes back over IPC. A run that ends this
// process (process.exit, as the lokal reporter does on a bad setting) ends it as it would end a CLI process.
// Plain JavaScript run by node: a loader such as tsx would change how Vitest loads the config and its modules.
import { parseCLI, startVitest } from 'vitest/node';

process.on('message', async (message) => {
  // `end`: written to stdout and stderr (on a line of its own, with the run's id) once the run is over.
  const { id, args, env, cwd, end } = message;
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
  process.chdir(cwd);
  process.exitCode = undefined;
  try {
    // What the CLI's `run` command does (vitest/dist/chunks/cac.*.js), without its process exit at the end.
    const { filter, options } = parseCLI(['vitest', ...args]);
    const vitest = await startVitest('test', filter, options);
    await vitest.close();
  } catch (error) {
    console.error('\n Startup Error \n');
    console.error(error);
    if (process.exitCode == null) process.exitCode = 1;
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  // stdout and stderr are pipes, written synchronously on Linux: the markers follow everything the run wrote.
  process.stdout.write(`\n${end}${id}\n`);
  process.stderr.write(`\n${end}${id}\n`);
  process.send({ id, code });
});
// Ends with the test worker that started it.
process.on('disconnect', () => process.exit(0));
