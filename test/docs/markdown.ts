// The documentation pages and their fenced code blocks, for the tests of test/docs/.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../support/installedPackage.ts';

export interface CodeBlock {
  /** Path relative to the repository, e.g. `docs/report.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string: `sh`, `ts`, `json`, or '' for output. */
  lang: string;
  text: string;
  /** The last non-empty line before the fence (where a file name for the block is given). */
  intro: string;
}

/** The documentation pages: README.md, then docs/*.md in name order. */
export function documentationPages(): string[] {
  return ['README.md', ...readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/** The fenced blocks of one Markdown file (fences may be indented, inside a list item). */
export function codeBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)```(\S*)\s*$/u.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^ *```\s*$/u.test(lines[j]!)) body.push(lines[j++]!.slice(indent));
    if (j === lines.length) throw new Error(`${file}:${i + 1}: a code fence that is never closed`);
    const intro = lines.slice(0, i).reverse().find((l) => l.trim() !== '') ?? '';
    blocks.push({ file, line: i + 1, lang: open[2]!, text: body.join('\n'), intro: intro.trim() });
    i = j;
  }
  return blocks;
}
