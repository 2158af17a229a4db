// Small text helpers every provider needs: stop strings, boolean environment flags, one-line error causes.

/** Text before the first occurrence of any (non-empty) stop string. */
export function cutAtStop(text: string, stops: readonly string[]): string {
  let end = text.length;
  for (const s of stops) {
    const at = s === '' ? -1 : text.indexOf(s);
    if (at >= 0 && at < end) end = at;
  }
  return text.slice(0, end);
}

/** 1/true/yes/on (any case) is on; anything else, or unset, is off. */
export function envFlag(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

/** The first line of an error's message, trimmed and capped: causes go into one-line provider errors. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.trim().slice(0, 300);
}
