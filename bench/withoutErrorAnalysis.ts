// A copy of a build with the error categories and f1_words taken out, as the baseline of what they add to whole runs
// (`lokal score`, the full replay): errorCategory, f1Words and wordSegmenter return constants, so no item is
// categorised or segmented and no segmenter is built, while every other line runs as in the build (the records
// still carry the two fields, and the roll-ups still count them).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A function's first line in the compiled code, and what its body returns instead. */
interface Stub {
  name: string;
  returns: string;
}

const STUBS: Stub[] = [
  { name: 'errorCategory', returns: "'wrong'" },
  { name: 'f1Words', returns: '0' },
  { name: 'wordSegmenter', returns: "{ segmenter: undefined, tag: undefined, locale: 'und' }" },
];

/** The files of a build (paths inside dist/) holding each function: the bundled score command and the modules. */
const FILES: Record<string, string[]> = {
  'cli/score.js': ['errorCategory', 'f1Words', 'wordSegmenter'],
  'src/metrics/errorCategory.js': ['errorCategory'],
  'src/benchmarks/multiloko/metrics/f1Words.js': ['f1Words'],
  'src/benchmarks/multiloko/metrics/wordSegmenter.js': ['wordSegmenter'],
};

/** Makes an early return the first statement of the function `name` in `code`; throws unless it is declared exactly once. */
export function stubFunction(code: string, stub: Stub, file: string): string {
  const declaration = new RegExp(`^((?:export )?function ${stub.name}\\([^)]*\\) \\{)$`, 'gm');
  const found = code.match(declaration)?.length ?? 0;
  if (found !== 1) throw new Error(`${file}: expected one declaration of ${stub.name}, found ${found} (has the build changed?)`);
  return code.replace(declaration, `$1 return ${stub.returns};`);
}

/** Copies the build `dist` to `out` with the three functions stubbed. */
export function withoutErrorAnalysis(dist: string, out: string): void {
  cpSync(dist, out, { recursive: true });
  for (const [file, names] of Object.entries(FILES)) {
    const target = path.join(out, file);
    let code = readFileSync(target, 'utf8');
    for (const name of names) code = stubFunction(code, STUBS.find((s) => s.name === name)!, file);
    writeFileSync(target, code);
  }
}
