// The engine of `lokal kalahi score -i <csv> -r <responses.jsonl>`: existing replies scored with Kalahi's generation
// metrics exactly as an evals run scores the model's replies (same per-reply scoring, same summaries), no model asked.
import { DataError, previewText, summariseList } from '../../../data/errors.ts';
import { loadKalahi, readKalahiResponses, type KalahiResponseRow } from '../data/kalahi.ts';
import { pythonStrip } from '../../../core/python/pythonWhitespace.ts';
import { DEFAULT_BERTSCORE_MODEL, DEFAULT_BLEURT_MODEL } from '../../../models/defaults.ts';
import { summariseKalahi } from './aggregate.ts';
import { isLearnedMetricOff } from '../run/config.ts';
import { closeLearnedScorers, learnedScorers } from '../run/learned.ts';
import type { KalahiPromptRecord } from '../run/records.ts';
import { scoreKalahiReply } from '../run/reply.ts';
import { learnedStatus, publishedRow } from './results.ts';
import { kalahiItemKey } from '../run/names.ts';

export interface KalahiScoreFilesOptions {
  /** chrF++ (word order 2, what the paper names) instead of chrF (what the reference code computes). */
  chrfPlusPlus?: boolean;
  /** BERTScore / BLEURT model (folder or Hub id, or `off`); default LOKAL_BERTSCORE_MODEL / LOKAL_BLEURT_MODEL, else the reference's. */
  bertscoreModel?: string;
  bleurtModel?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Largest Kalahi CSV read, in bytes (default 256 MiB). */
  maxFileBytes?: number;
  /** Largest responses file, read line by line, in bytes (default 2 GiB). */
  maxStreamBytes?: number;
}

function learnedModel(given: string | undefined, fromEnv: string | undefined, fallback: string): string {
  const spec = given ?? (fromEnv?.trim() ? fromEnv : undefined) ?? fallback;
  return isLearnedMetricOff(spec) ? 'off' : spec;
}

/**
 * Scores `{prompt_variation_id, response}` rows against a Kalahi CSV (a file, or a folder holding the published files:
 * then the full variant). Replies are stripped as the reference strips decoded replies; a repeated id: the last reply
 * wins. Returns the JSON `lokal kalahi score` prints: the published generation table (acc), the summaries overall and
 * per category, every reply's per-reference scores, and the problems found (missing, unknown and repeated ids).
 */
export async function scoreKalahiFiles(csvPath: string, responsesPath: string, options: KalahiScoreFilesOptions = {}) {
  const env = options.env ?? process.env;
  const dataset = await loadKalahi(csvPath, undefined, { maxFileBytes: options.maxFileBytes });
  const replies = await readKalahiResponses(responsesPath, { maxStreamBytes: options.maxStreamBytes });
  const known = new Set(dataset.rows.map((r) => r.promptVariationId));
  const byId = new Map<string, KalahiResponseRow>();
  const lines = new Map<string, number[]>();
  const unknown: Array<{ prompt_variation_id: string; line: number }> = [];
  for (const reply of replies) {
    if (!known.has(reply.prompt_variation_id)) {
      unknown.push({ prompt_variation_id: reply.prompt_variation_id, line: reply.line });
      continue;
    }
    byId.set(reply.prompt_variation_id, reply);
    let seen = lines.get(reply.prompt_variation_id);
    if (!seen) lines.set(reply.prompt_variation_id, (seen = []));
    seen.push(reply.line);
  }
  if (byId.size === 0) {
    // Nothing to score is an error, as in `lokal score`: a table of zero prompts would read as a result.
    throw new DataError(
      responsesPath,
      `none of its ${replies.length} responses matches a prompt of ${dataset.file} (${dataset.rows.length} prompts); unknown prompt_variation_id: ` +
        `${summariseList(unknown, (u) => `${previewText(u.prompt_variation_id, 40)} (line ${u.line})`)}`,
      { code: 'invalid-record' },
    );
  }

  const chrf = options.chrfPlusPlus ? 'chrf++' : 'chrf';
  const learnedModels = {
    bleurt: learnedModel(options.bleurtModel, env.LOKAL_BLEURT_MODEL, DEFAULT_BLEURT_MODEL),
    bertscore: learnedModel(options.bertscoreModel, env.LOKAL_BERTSCORE_MODEL, DEFAULT_BERTSCORE_MODEL),
  };
  const records: KalahiPromptRecord[] = [];
  try {
    const learned = await learnedScorers(learnedModels);
    for (const row of dataset.rows) {
      const reply = byId.get(row.promptVariationId);
      if (!reply) continue;
      const response = pythonStrip(reply.response);
      const scored = await scoreKalahiReply(row, response, { chrf, learned });
      records.push({
        suite: dataset.variant,
        promptVariationId: row.promptVariationId,
        promptId: row.promptId,
        category: row.category,
        topic: row.topic,
        prompt: row.prompt,
        row: row.row,
        itemKey: kalahiItemKey(row.promptVariationId),
        generation: { response, ...scored, latencyMs: 0, cached: false, missing: false },
      });
    }
  } finally {
    await closeLearnedScorers();
  }

  const categories = [...new Set(dataset.rows.map((r) => r.category))];
  const { overall, byCategory, notComputed } = summariseKalahi(records, categories);
  const labels = { chrf: chrf === 'chrf++' ? 'chrF++' : 'chrF', rougeL: 'rougeLsum' };
  return {
    benchmark: 'kalahi' as const,
    task: 'generation' as const,
    file: dataset.file,
    variant: dataset.variant,
    responses: responsesPath,
    settings: { ...labels, learned: learnedStatus({ learnedModels, notComputed, tasks: ['generation'] }) },
    table: publishedRow(overall).generation ?? null,
    generation: overall.generation ?? null,
    by_category: Object.fromEntries(
      Object.entries(byCategory).map(([category, group]) => [category, { prompts: group.prompts, table: publishedRow(group).generation, generation: group.generation }]),
    ),
    records: records.map((r) => {
      const { latencyMs: _latency, cached: _cached, missing: _missing, ...generation } = r.generation!;
      return { prompt_variation_id: r.promptVariationId, category: r.category, topic: r.topic, ...generation };
    }),
    problems: {
      missing: dataset.rows.filter((r) => !byId.has(r.promptVariationId)).map((r) => r.promptVariationId),
      unknown_ids: unknown,
      duplicates: [...lines].filter(([, l]) => l.length > 1).map(([prompt_variation_id, l]) => ({ prompt_variation_id, lines: l })),
    },
  };
}
