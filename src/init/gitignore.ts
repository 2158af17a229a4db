// The .gitignore lines `lokal init` adds: what a run writes (results, the response cache, Vitest's blob reports of a
// sharded run) and the datasets `lokal data fetch` downloads, which their authors keep out of public repositories.
// A user's own lines are kept as they are and in their order; a folder the file already has a rule for (`results`,
// `/results/`, `data/*` with `!data/README.md`) gets no line, so a user's finer rules are never overridden.

/** The lines for a project; with the CI workflow also the folder its model weights are cached in. */
export function gitignoreLines(options: { modelCache?: string } = {}): string[] {
  return ['results/', '.lokal-cache/', '.vitest-reports/', 'data/', ...(options.modelCache ? [`${options.modelCache}/`] : [])];
}

/** A line's pattern without a negation, a leading `/`, a trailing `/` or surrounding blanks. */
const normalised = (line: string) => line.trim().replace(/^!/u, '').replace(/^\//u, '').replace(/\/$/u, '');

/**
 * The .gitignore text with `lines` added after the user's own, or undefined when every one is there already.
 * `existing` is the file's text (undefined: no file).
 */
export function extendGitignore(existing: string | undefined, lines: readonly string[]): string | undefined {
  const rules = (existing ?? '').split(/\r?\n/u).filter((line) => !line.trimStart().startsWith('#')).map(normalised);
  const covered = (folder: string) => rules.some((rule) => rule === folder || rule.startsWith(`${folder}/`));
  const missing = lines.filter((line) => !covered(normalised(line)));
  if (missing.length === 0) return undefined;
  if (existing === undefined || existing === '') return `# vitest-lokal: run outputs and downloaded datasets (lokal init)\n${missing.join('\n')}\n`;
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  const separated = existing.endsWith('\n') ? existing : `${existing}${eol}`;
  return `${separated}${eol}# vitest-lokal: run outputs and downloaded datasets (lokal init)${eol}${missing.join(eol)}${eol}`;
}
