// `lokal init --ci github`: .github/workflows/evals.yml. The eval files run as a job matrix of Vitest shards (Vitest
// splits by file), each saving a blob report; one merge job rolls the blobs up as a single run would (the lokal runner
// keeps each group's figures in suite meta), which applies the gates, writes the step summary and the results, and
// uploads results/. Vitest's sharding recipe: vitest.dev/guide/improving-performance (--shard, --reporter=blob,
// --merge-reports). Written as text, not built from objects, so its comments (the optional vLLM server, the timeout's
// assumption) survive.
import { DEFAULT_MODEL } from '../models/defaults.ts';
import type { FileCount } from './itemCounts.ts';

/** The marker on the first line of the commented-out server step (tests uncomment it by this). */
export const VLLM_STEP_MARKER = '# Optional: an OpenAI-compatible server in this job';

/**
 * Items per second assumed for a shard's time limit: the default model (q8, one prompt at a time, so that batching
 * never changes an answer) on a GitHub-hosted runner's CPU; docs/performance-models.md has measured figures.
 */
export const DEFAULT_ITEMS_PER_SECOND = 0.25;
/** Minutes a shard spends before its first item: npm ci, the datasets, the model's download and load. */
export const SETUP_MINUTES = 15;
/** The longest a job may run on a GitHub-hosted runner (docs.github.com: usage limits of GitHub Actions). */
export const MAX_JOB_MINUTES = 360;
/** The merge job reads blob reports and writes results: no model, no data. */
const MERGE_MINUTES = 15;
/** Folder of the model weights in CI (LOKAL_MODEL_CACHE), cached between runs per model id. */
export const MODEL_CACHE_DIR = '.lokal-models';

/** The items of the largest shard, at most: Vitest gives a shard at most ceil(files / shards) files; the largest here. */
export function largestShard(counts: readonly FileCount[], shards: number): { items: number; files: FileCount[] } {
  const perShard = Math.ceil(counts.length / shards);
  const files = [...counts].sort((a, b) => b.items - a.items).slice(0, perShard);
  return { items: files.reduce((sum, c) => sum + c.items, 0), files };
}

/** A shard's time limit: the setup, then its items at the assumed speed, in whole minutes, at most a job's limit. */
export function shardTimeout(items: number, itemsPerSecond: number): { minutes: number; needed: number; capped: boolean } {
  const needed = SETUP_MINUTES + Math.ceil(items / itemsPerSecond / 60);
  return { minutes: Math.min(needed, MAX_JOB_MINUTES), needed, capped: needed > MAX_JOB_MINUTES };
}

/**
 * The largest LOKAL_LIMIT (items per group) under which every shard fits a job's limit at the assumed speed: the
 * items a job has time for, shared among the groups of the shard with the most.
 */
export function fittingLimit(counts: readonly FileCount[], shards: number, itemsPerSecond: number): number {
  const perShard = Math.ceil(counts.length / shards);
  const groups = [...counts].sort((a, b) => b.groups - a.groups).slice(0, perShard).reduce((sum, c) => sum + c.groups, 0);
  return Math.floor(((MAX_JOB_MINUTES - SETUP_MINUTES) * 60 * itemsPerSecond) / Math.max(groups, 1));
}

interface WorkflowOptions {
  shards: number;
  /** Each eval file's item tests (src/init/itemCounts.ts's evalFileCounts: a part file per shard when shards > 1). */
  counts: readonly FileCount[];
  itemsPerSecond?: number;
}

/**
 * The model of the run, for the weights' cache key: LOKAL_MODEL, else lokal.config.json's (or LOKAL_CONFIG's), else
 * the default; commas (a model list), which a cache key may not hold, as spaces.
 */
const MODEL_ID_SCRIPT = [
  "node -e '",
  'const { LOKAL_MODEL, LOKAL_CONFIG } = process.env;',
  'let model;',
  'try { model = JSON.parse(require("fs").readFileSync(LOKAL_CONFIG || "lokal.config.json", "utf8")).model; } catch {}',
  `console.log("id=" + (LOKAL_MODEL || model || "transformers:${DEFAULT_MODEL}").replace(/,/g, " "));' >> "$GITHUB_OUTPUT"`,
]
  .map((line) => `          ${line}`)
  .join('\n');

/** `text` as YAML comment lines of at most 120 characters, indented by `indent`. */
function commentLines(text: string, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent.length + 2 + line.length + 1 + word.length > 120) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${indent}# ${l}`).join('\n');
}

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

export function githubWorkflow({ shards, counts, itemsPerSecond = DEFAULT_ITEMS_PER_SECOND }: WorkflowOptions): string {
  if (!Number.isInteger(shards) || shards < 1 || shards > 64) throw new Error(`shards must be an integer from 1 to 64 (got ${shards})`);
  if (!(itemsPerSecond > 0) || !Number.isFinite(itemsPerSecond)) throw new Error(`items per second must be a positive number (got ${itemsPerSecond})`);
  const matrix = Array.from({ length: shards }, (_, i) => i + 1).join(', ');
  const largest = largestShard(counts, shards);
  const timeout = shardTimeout(largest.items, itemsPerSecond);
  const from = largest.files.map((c) => `${c.file}: ${plural(c.items, 'item')}, ${c.source === 'data' ? 'counted in the data' : 'its full size, as no data was there'}`).join('; ');
  const timeoutComment = commentLines(
    `Each shard's time limit: ${SETUP_MINUTES} min of setup (install, data, model) plus the largest shard's items at an ` +
      `assumed ${itemsPerSecond} items/s (to change it, edit the number, or delete this file and run ` +
      `\`npx lokal init --ci github --items-per-second <n>\`). The largest shard runs at most ${plural(largest.items, 'item')} ` +
      `(${from}): ${timeout.needed} min` +
      (timeout.capped
        ? `, capped at ${MAX_JOB_MINUTES}, a GitHub-hosted job's limit: LOKAL_LIMIT: ${fittingLimit(counts, shards, itemsPerSecond)} (items per group) in env fits it.`
        : '.'),
    '    ',
  );
  return `# The benchmarks in CI, written by \`npx lokal init --ci github\` (vitest-lokal): the eval files run in ${shards} shards
# (Vitest splits them by file${shards > 1 ? `; evals/part-*-of-${String(shards).padStart(2, '0')}.eval.ts hold a part of every benchmark each, one file a shard` : ''}),
# and one merge job rolls the shards up as one run would: it applies the gates, writes the step summary and uploads
# results/. Settings: lokal.config.json, overridden by the env below (docs/settings.md).
name: evals

on:
  pull_request:
  push:
    branches: [main]
  workflow_dispatch:

permissions:
  contents: read

env:
  # Gates, judged at the merge: a missed one fails the workflow.
  # LOKAL_THRESHOLDS: "em>=0.30,kalahi.mc1>=0.40"
  # LOKAL_MODEL overrides lokal.config.json's model, e.g. openai:<model> with the vLLM step below.
  # auto: in a public repository, question, prompt, target and answer texts are hashed in every output (the
  # MultiLoKo authors keep their data out of web crawls); on or off to choose.
  LOKAL_REDACT: auto
  LOKAL_CACHE_FILE: .lokal-cache/responses.jsonl
  # transformers.js's download cache in the project, so that the step "Model weights" below can keep it.
  LOKAL_MODEL_CACHE: ${MODEL_CACHE_DIR}

jobs:
  evals:
    name: evals \${{ matrix.shard }}/${shards}
    runs-on: ubuntu-latest
${timeoutComment}
    timeout-minutes: ${timeout.minutes}
    strategy:
      fail-fast: false
      matrix:
        shard: [${matrix}]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      # npm 10 (Node 20) ignores package.json's allowScripts: this stops onnxruntime-node's download of GPU files.
      - run: npm ci
        env:
          ONNXRUNTIME_NODE_INSTALL: skip
      - name: Datasets (cached; fetched on a miss)
        id: data
        uses: actions/cache@v4
        with:
          path: data
          key: lokal-data-\${{ hashFiles('package-lock.json') }}
      - if: steps.data.outputs.cache-hit != 'true'
        run: npx lokal data fetch
      # Answers already received are not asked for again: the response cache, per model and data.
      - name: Model responses (cached per model and data)
        uses: actions/cache@v4
        with:
          path: .lokal-cache
          key: lokal-responses-\${{ hashFiles('lokal.config.json', 'data/**') }}-\${{ env.LOKAL_MODEL }}-\${{ matrix.shard }}-\${{ github.run_id }}
          restore-keys: |
            lokal-responses-\${{ hashFiles('lokal.config.json', 'data/**') }}-\${{ env.LOKAL_MODEL }}-\${{ matrix.shard }}-
      # The model's weights (the default model's are ~0.5 GB) downloaded once per model, not by every shard of every run;
      # per shard too: Vitest gives a shard the same files each run, and Kalahi's part loads its metrics' models.
      - name: Model id
        id: model
        run: |
${MODEL_ID_SCRIPT}
      - name: Model weights (cached per model id)
        uses: actions/cache@v4
        with:
          path: ${MODEL_CACHE_DIR}
          key: lokal-models-\${{ steps.model.outputs.id }}-\${{ matrix.shard }}
          restore-keys: |
            lokal-models-\${{ steps.model.outputs.id }}-
      ${VLLM_STEP_MARKER} (vLLM's container; needs a GPU runner). Uncomment, and
      # set LOKAL_MODEL: openai:Qwen/Qwen2.5-0.5B-Instruct and OPENAI_BASE_URL: http://localhost:8000/v1 in env above.
      # - name: OpenAI-compatible server (vLLM)
      #   run: |
      #     docker run -d --name vllm --gpus all -p 8000:8000 vllm/vllm-openai:latest --model Qwen/Qwen2.5-0.5B-Instruct
      #     timeout 900 sh -c 'until curl -sf http://localhost:8000/v1/models; do sleep 5; done'
      - name: Evals, shard \${{ matrix.shard }} of ${shards}
        # --passWithNoTests: with more shards than eval files Vitest gives the last shards none, which is a success.
        run: npx vitest run --shard=\${{ matrix.shard }}/${shards} --reporter=blob --passWithNoTests
      - name: Blob report
        if: \${{ !cancelled() }}
        uses: actions/upload-artifact@v4
        with:
          name: blob-\${{ matrix.shard }}
          path: .vitest-reports/*
          include-hidden-files: true
          retention-days: 1

  merge:
    needs: evals
    if: \${{ !cancelled() }}
    runs-on: ubuntu-latest
    # No model and no data here: the blob reports are rolled up in a minute or two.
    timeout-minutes: ${MERGE_MINUTES}
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
        env:
          ONNXRUNTIME_NODE_INSTALL: skip
      - uses: actions/download-artifact@v4
        with:
          pattern: blob-*
          path: .vitest-reports
          merge-multiple: true
      - name: Roll-up, gates and step summary
        run: npx vitest run --merge-reports
      - name: Results
        if: \${{ !cancelled() }}
        uses: actions/upload-artifact@v4
        with:
          name: lokal-results
          path: results/
`;
}
