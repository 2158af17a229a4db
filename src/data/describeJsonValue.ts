// How a JSON value is named in messages about bad input rows; zod-free, so the plain loaders use it without zod.

/** A JSON text cut to 40 code points (an ellipsis marks the cut). */
export function previewJson(text: string): string {
  const chars = Array.from(text);
  return chars.length <= 40 ? text : `${chars.slice(0, 39).join('')}…`;
}

/** What a JSON value is, in words, with a short preview: `a number (3)`, `a plain string ("Roma")`. */
export function describeJsonValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list []' : `a list of ${value.length}`;
  if (typeof value === 'string') return `a string (${previewJson(JSON.stringify(value))})`;
  if (typeof value === 'number' || typeof value === 'boolean') return `a ${typeof value} (${String(value)})`;
  return 'an object';
}
