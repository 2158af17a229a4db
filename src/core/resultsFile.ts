// A results file checked against its benchmark's zod schema: the error names the file and the field (zod's issue path).
import { z } from 'zod';

/** `summary.gates[0].pass`, `italian["004 x"].em`: a field path as a reader of the file would write it. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/u.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out === '' ? '(the top level)' : out;
}

/** The issue deepest in the value: of a union's options, the one that got furthest (an item record, not "a number"). */
function deepest(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): { path: PropertyKey[]; message: string } | undefined {
  let best: { path: PropertyKey[]; message: string } | undefined;
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    const candidates = issue.code === 'invalid_union' ? issue.errors.map((e) => deepest(e, path)) : [{ path, message: issue.message }];
    for (const c of candidates) if (c && (!best || c.path.length > best.path.length)) best = c;
  }
  return best;
}

/** A results file that does not match its schema; `field` is the issue's path. */
export class ResultsFileError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${file}: ${field}: ${detail}`);
    this.name = 'ResultsFileError';
  }

  /** The ResultsFileError `run` throws, or undefined when it returns (other errors propagate). */
  static check(run: () => unknown): ResultsFileError | undefined {
    try {
      run();
      return undefined;
    } catch (error) {
      if (error instanceof ResultsFileError) return error;
      throw error;
    }
  }
}

/**
 * The value itself once the schema accepts it (the schemas only check, they transform nothing, and zod's copy would
 * put declared keys first: a report lists a file's languages in the file's order), or a ResultsFileError naming `file`
 * and the first wrong field.
 */
export function parseResultsFile<S extends z.ZodType>(schema: S, value: unknown, file: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return value as z.infer<S>;
  const issue = deepest(parsed.error.issues)!;
  throw new ResultsFileError(file, fieldPath(issue.path), issue.message);
}

/** One gate outcome as MultiLoKo's and Kalahi's files list them (core/gates.ts's GateOutcome). */
export const GateOutcomeJsonSchema = z.looseObject({
  gate: z.string().optional(),
  figure: z.string().optional(),
  value: z.number().nullable().optional(),
  op: z.string().optional(),
  bound: z.number().nullable().optional(),
  pass: z.boolean().optional(),
  message: z.string().optional(),
});
export type GateOutcomeJson = z.infer<typeof GateOutcomeJsonSchema>;
