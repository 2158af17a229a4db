// Errors raised where the reference raises (empty target lists, division by zero in the means, bad argument types).

/** A metric could not be computed; `field` names the offending argument or key, as the reference would fail there. */
export class MetricsError extends Error {
  readonly field?: string;
  constructor(message: string, field?: string) {
    super(message);
    this.name = 'MetricsError';
    this.field = field;
  }
}
