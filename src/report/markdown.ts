// A run's roll-up as GitHub-flavoured Markdown (for GITHUB_STEP_SUMMARY): each benchmark's part in the order of the
// sections given (ReportSection.markdown: the leaderboard, its figures, the gates and, against a baseline, the changes
// its paired tests call significant), then the benchmarks in the groups layout.
import type { ReportSection } from './section.ts';
import type { ReportInput } from './types.ts';
import { groupsMarkdown } from './groupsMarkdown.ts';
import { markdownCell } from './markdownCell.ts';

/** The step summary of one run (with its baseline when given); `alpha` is the significance level of the changes shown. */
export function stepSummaryMarkdown(input: ReportInput, sections: readonly ReportSection[], alpha = 0.05): string {
  const confidence = input.confidence ?? 0.95;
  const parts: string[] = [`## ${markdownCell(input.title ?? 'vitest-lokal results')}`, ''];
  for (const section of sections) {
    const results = input.benchmarks?.[section.name];
    if (results === undefined) continue;
    parts.push(...section.markdown(results, input.baseline?.benchmarks?.[section.name], { confidence, alpha, modelLabel: input.modelLabel }), '');
  }
  for (const results of input.others ?? []) parts.push(...groupsMarkdown(results), '');
  return `${parts.join('\n')}\n`;
}
