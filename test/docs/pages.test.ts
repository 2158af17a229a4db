// The README and the docs/ pages as a newcomer reads them: a short README that links every page, pages
// short enough to read at once, and links that lead somewhere — each relative link to a file of the repository, each
// #anchor to a heading of its page (GitHub's rule: lower case, punctuation dropped, spaces as hyphens).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../support/installedPackage.ts';
import { documentationPages } from './markdown.ts';

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');
const withoutCode = (markdown: string) => markdown.replace(/^ *```[\s\S]*?^ *```/gmu, '').replace(/`[^`\n]*`/gu, (code) => code.replace(/[[\]()]/gu, ' '));
const lineCount = (text: string) => text.trimEnd().split('\n').length;

/** GitHub's anchor of a heading: lower case, everything but letters, digits, spaces, hyphens and underscores dropped. */
export function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/gu, '-');
}

function anchors(file: string): string[] {
  const text = read(file).replace(/^ *```[\s\S]*?^ *```/gmu, '');
  return [...text.matchAll(/^#{1,6} (.+)$/gmu)].map((m) => headingAnchor(m[1]!));
}

describe('README.md and docs/', () => {
  test('the README is at most 150 lines, and links every docs page', () => {
    const readme = read('README.md');
    expect(lineCount(readme)).toBeLessThanOrEqual(150);
    const pages = documentationPages().filter((f) => f.startsWith('docs/'));
    expect(pages.length).toBeGreaterThanOrEqual(10);
    expect(pages.filter((page) => !readme.includes(`](${page})`) && !readme.includes(`](${page}#`))).toEqual([]);
  });

  test('each docs page is at most 200 lines and starts with its title', () => {
    for (const page of documentationPages().filter((f) => f.startsWith('docs/'))) {
      const text = read(page);
      expect(lineCount(text), page).toBeLessThanOrEqual(200);
      expect(text, page).toMatch(/^# \S/u);
    }
  });

  test('every relative link names a file of the repository, and every #anchor a heading of its page', () => {
    const broken: string[] = [];
    for (const page of documentationPages()) {
      for (const [, target] of withoutCode(read(page)).matchAll(/\]\(([^)\s]+)\)/gu)) {
        if (/^[a-z]+:/u.test(target!)) continue;
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const linked = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), file)) : page;
        if (!existsSync(path.join(REPO_ROOT, linked))) broken.push(`${page} → ${target} (no file ${linked})`);
        else if (anchor !== undefined && !anchors(linked).includes(anchor)) broken.push(`${page} → ${target} (no heading #${anchor} in ${linked})`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('the anchor rule on headings of these pages', () => {
    expect(headingAnchor('`lokal init`')).toBe('lokal-init');
    expect(headingAnchor('Intervals, the baseline gate and comparable runs')).toBe('intervals-the-baseline-gate-and-comparable-runs');
    expect(headingAnchor('What `lokalEvals()` sets')).toBe('what-lokalevals-sets');
  });
});
