// A command line that cannot be run as given: main() prints the message and the usage text, and exits 2.

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** By name, not instanceof: each bundled command of dist/cli/ holds its own copy of this class. */
export function isUsageError(error: unknown): boolean {
  return error instanceof Error && error.name === 'UsageError';
}
