// The `lokal` command: `score` (drop-in for MultiLoKo's eval.py), `data fetch`, `kalahi score`, `compare`, `init`, `plan`. Only the usage text
// loads up front; each command is its own module (its own file in the bundled dist/cli/), so `lokal --help` answers at once.
import { isUsageError } from './usageError.ts';

type Command = (argv: string[]) => Promise<number>;

/** Each command's lines of the usage text, by the words that name it (every command needs one: its --help). */
export const COMMAND_USAGE: Record<string, string> = {
  score: `score -d <dataset dir|.enc archive> -s <split> -p <predictions .jsonl|.csv> [-o <out.json>]
        Score predictions like MultiLoKo's eval.py (same JSON layout). Long forms:
        --dataset_location --subset --predictions --output.
        --missing empty|skip   a dataset item without a prediction: scored as '' and flagged (default),
                               or left out as eval.py does
        --stringify-ids        match CSV string ids to numeric dataset ids (eval.py raises KeyError)
        --sum fold|neumaier    cross-language sums as Python 3.11 (default) or 3.12+ computes them
        --strict               exit 1 when any prediction row did not line up with the dataset
        --threads <n>          threads scoring the examples, this one included (default 1); same scores
`,
  'data fetch': `data fetch [--dir data] [--only multiloko|kalahi]
        Download the official MultiLoKo archive and the Kalahi CSVs into data/ (resumable, checksummed).
`,
  'kalahi score': `kalahi score -i <kalahi csv> -r <responses.jsonl> [-o <out.json>] [--chrfpp]
        Score existing Kalahi replies ({prompt_variation_id, response} rows) with the generation metrics
        (--chrfpp: chrF++ as the paper names it, instead of the chrF the reference code computes).
`,
  doctor: `doctor [--model <provider string>]
        What the configured (or given) model supports and which benchmark tasks and settings will work with it.
`,
  compare: `compare [name=]<run> [name=]<run>... [-o compare.html] [--no-html]
        2 to 10 results files or folders side by side, each paired with the first (the baseline gate's paired tests, Holm);
        name= labels a run (else the model its results name).
`,
  init: `init [--ci github] [--shards <n>] [--items-per-second <r>]
        Set up this project: vitest.config.ts, evals/*.eval.ts, lokal.config.json, .gitignore lines; with --ci github
        a sharded GitHub Actions workflow (.github/workflows/evals.yml; shards 1 to 64, each timed at <r> items/s).
        Never overwrites a file; says what to install when the model's packages are missing.
`,
  plan: `plan [--shards <n>] [--items-per-second <r>] [--tokenizer <folder>]
        Without calling a model: each benchmark's items in this project, in <n> parts (1 to 64) as init's part files
        run them, and each shard's time at <r> items/s: size --shards from it. Prompt tokens per part are counted
        with the model's tokenizer when its files are on disk, or with <folder>'s tokenizer.json (nothing downloaded).
`,
};

const USAGE = `usage: lokal <command> [options]   (lokal <command> --help for one command)

commands:
${Object.values(COMMAND_USAGE).map((text) => `  ${text}`).join('')}`;

/** The usage text of command `name` alone (`usage: lokal init …`): what an argument error of that command prints. */
function usageOf(name: string): string {
  const key = Object.keys(COMMAND_USAGE).find((k) => k.split(' ')[0] === name);
  return key === undefined ? '(lokal --help lists the commands)\n' : `usage: lokal ${COMMAND_USAGE[key]}`;
}

/** A command name within 2 edits of a mistyped one (`scor` → `score`), or undefined when none is that close. */
async function nearestCommand(name: string): Promise<string | undefined> {
  const { distance } = await import('fastest-levenshtein');
  let best: { name: string; edits: number } | undefined;
  for (const known of Object.keys(COMMANDS)) {
    const edits = distance(name.toLowerCase(), known);
    if (edits <= 2 && edits < name.length && (best === undefined || edits < best.edits)) best = { name: known, edits };
  }
  return best?.name;
}

/** The usage of `lokal <words>` (a command, or a command and its subcommand) when `--help`/`-h` is among its arguments. */
function commandHelp(name: string, rest: readonly string[]): string | undefined {
  const end = rest.indexOf('--');
  const args = end < 0 ? rest : rest.slice(0, end);
  if (!args.includes('--help') && !args.includes('-h')) return undefined;
  const words = [name, ...args.filter((a) => !a.startsWith('-')).slice(0, 1)];
  const key = Object.keys(COMMAND_USAGE).find((k) => k === words.join(' ')) ?? Object.keys(COMMAND_USAGE).find((k) => k.split(' ')[0] === name);
  return key === undefined ? undefined : `usage: lokal ${COMMAND_USAGE[key]}`;
}

/**
 * A reader that stops early (`lokal score … | head -1`) closes the pipe: the rest of the output has nowhere to go,
 * which is no error of ours, so the process ends quietly instead of printing an EPIPE stack.
 */
let endsQuietly = false;
function endQuietlyOnClosedPipe(): void {
  // Once per process: main() called again (tests, a host program) must not pile up listeners.
  if (endsQuietly) return;
  endsQuietly = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(process.exitCode ?? 0);
    });
  }
}

const COMMANDS: Record<string, Command> = {
  score: async (argv) => (await import('./score.ts')).scoreCommand(argv),
  data: async (argv) => (await import('./data.ts')).dataCommand(argv),
  kalahi: async (argv) => (await import('./kalahi.ts')).kalahiCommand(argv),
  compare: async (argv) => (await import('./compare.ts')).compareCommand(argv),
  doctor: async (argv) => (await import('./doctor.ts')).doctorCommand(argv),
  init: async (argv) => (await import('./init.ts')).initCommand(argv),
  plan: async (argv) => (await import('./plan.ts')).planCommand(argv),
};

/** The commands `lokal` knows. */
export const COMMAND_NAMES = Object.keys(COMMANDS);

/** Runs the CLI; returns the exit code (0 ok, 1 a check failed, 2 usage or input error). */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    const guess = await nearestCommand(name);
    process.stderr.write(`lokal: unknown command ${JSON.stringify(name)}${guess ? `; did you mean "${guess}"?` : ''} (lokal --help lists the commands)\n`);
    return 2;
  }
  // compare has its own, longer help.
  const help = name === 'compare' ? undefined : commandHelp(name, rest);
  if (help) {
    process.stdout.write(help);
    return 0;
  }
  endQuietlyOnClosedPipe();
  try {
    return await command(rest);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`lokal ${name}: ${message.replace(/^lokal [a-z ]+: /, '')}\n`);
    // The command's own usage, not every command's: the line above is what matters.
    if (isUsageError(error) || String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) {
      process.stderr.write(`\n${usageOf(name)}`);
    }
    if (process.env.LOKAL_DEBUG) console.error(error);
    return 2;
  }
}
