// The MultiLoKo fixtures' part sizes by the cut's definition (docs/setup.md, parts cut by weight), worked out without
// the package's cut: what `lokal plan` and `lokal init` must both report for the repository's fixture data.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import type { MultiLoKoQuestion } from '../../src/benchmarks/multiloko/data/schema.ts';
import { renderMultilokoPrompt } from '../../src/benchmarks/multiloko/prompts/renderMultilokoPrompt.ts';
import { chooseFewshot } from '../../src/benchmarks/multiloko/run/promptChoice.ts';
import { REPO_ROOT } from './installedPackage.ts';

/**
 * MultiLoKo's part sizes by the rule's definition, worked out here: ids `<subset key>\0<id>` in SHA-256 order, cut into
 * n runs of equal weight, an item's weight the UTF-8 bytes of its whole base prompt (the dataset's five demonstrations
 * of its language, the default), an item in the part its weight's midpoint falls in.
 */
export async function multilokoFixturePartSizes(n: number): Promise<number[]> {
  const dataset = await loadMultiLoKo(path.join(REPO_ROOT, 'data/fixtures/multiloko'), 'dev');
  const basePrompt = (item: MultiLoKoQuestion, language: string) =>
    (renderMultilokoPrompt({ language, item, mode: 'base', fewshot: chooseFewshot(dataset, language, 'dataset'), numShot: 5 }) as { prompt: string }).prompt;
  const items = dataset.subsets
    .flatMap((s) => s.items.map((item) => ({ order: createHash('sha256').update(`${s.key}\u0000${item.id}`).digest('hex'), weight: Buffer.byteLength(basePrompt(item, s.questionLanguage), 'utf8') })))
    .sort((a, b) => (a.order < b.order ? -1 : 1));
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  const sizes = new Array<number>(n).fill(0);
  let before = 0;
  for (const { weight } of items) {
    sizes[Math.min(n - 1, Math.floor(((before + weight / 2) * n) / total))]!++;
    before += weight;
  }
  return sizes;
}

