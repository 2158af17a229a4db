// A results file's JSON text in pieces, one per top-level key: JSON.stringify(value, null, indent) + '\n' once joined.
// A piece without a character above U+00FF stays a one-byte string, so one two-byte piece of a MultiLoKo results file
// (28 MB; the summary names groups with '→', the items hold non-Latin answers) does not make all of it two-byte.

/**
 * The pieces of `${JSON.stringify(value, null, indent)}\n` for a plain object: `{\n`, then each key's member as the
 * whole text indents it (a key whose value JSON leaves out, such as undefined, gives none), `,\n` between members, and
 * `\n}\n`; `{}\n` for an object without members. Keys come in JSON.stringify's order (Object.keys).
 */
export function jsonPieces(value: Readonly<Record<string, unknown>>, indent: number): string[] {
  const members: string[] = [];
  for (const key of Object.keys(value)) {
    // `{\n<indent>"key": …\n}`: the member as it stands at depth 1 of the whole text, between the braces' lines.
    const one = JSON.stringify({ [key]: value[key] }, null, indent);
    if (one !== '{}') members.push(one.slice(2, -2));
  }
  if (members.length === 0) return ['{}\n'];
  const pieces = ['{\n'];
  for (let i = 0; i < members.length; i++) {
    if (i > 0) pieces.push(',\n');
    pieces.push(members[i]!);
  }
  pieces.push('\n}\n');
  return pieces;
}
