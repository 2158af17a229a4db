// Argument handling shared by the model-generating scripts: one output folder plus integer spec flags.
import path from 'node:path';
import { parseArgs } from 'node:util';

export class UsageError extends Error {}

/**
 * Parses `<dir> [--flag N ...] [--text value ...] [--switch ...]`: `integers` maps flags to spec keys, `strings` names
 * free-text flags, `switches` names value-less flags (true when given). Throws UsageError with the usage line on any
 * mistake; returns null for --help (after printing usage).
 */
export function parseSpecArgs<K extends string>(
  argv: string[],
  usage: string,
  integers: Record<string, K>,
  strings: readonly string[] = [],
  switches: readonly string[] = [],
): { dir: string; spec: Partial<Record<K, number>>; text: Record<string, string | undefined>; switches: Record<string, boolean> } | null {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const flag of [...Object.keys(integers), ...strings]) options[flag] = { type: 'string' };
  for (const flag of switches) options[flag] = { type: 'boolean' };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
  if (parsed.values.help) {
    console.log(usage);
    return null;
  }
  if (parsed.positionals.length !== 1) throw new UsageError(`expected exactly one output folder\n${usage}`);
  const spec: Partial<Record<K, number>> = {};
  for (const [flag, key] of Object.entries(integers)) {
    const raw = parsed.values[flag];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (typeof raw !== 'string' || raw.trim() === '' || !Number.isInteger(value)) {
      throw new UsageError(`--${flag} must be an integer, got "${String(raw)}"\n${usage}`);
    }
    spec[key] = value;
  }
  const text = Object.fromEntries(strings.map((flag) => [flag, parsed.values[flag] as string | undefined]));
  const on = Object.fromEntries(switches.map((flag) => [flag, parsed.values[flag] === true]));
  return { dir: path.resolve(parsed.positionals[0]!), spec, text, switches: on };
}

/** Runs a script's body, mapping UsageError to exit code 2 and any other failure to 1 with its message. */
export function runScript(body: () => void): number {
  try {
    body();
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return error instanceof UsageError ? 2 : 1;
  }
}
