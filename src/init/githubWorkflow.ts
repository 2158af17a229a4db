// `lokal init --ci github`: .github/workflows/evals.yml. The eval files run as a job matrix of Vitest shards (Vitest
// splits by file), each saving a blob report; one merge job rolls the blobs up as a single run would (the lokal runner
// keeps each group's figures in suite meta), which applies the gates, writes the step summary and the results, and
// uploads results/. Vitest's sharding recipe: vitest.dev/guide/improving-performance (--shard, --reporter=blob,
// --merge-reports). Written as text, not built from objects, so its comments (the optional vLLM server) survive.

/** The marker on the first line of the commented-out server step (tests uncomment it by this). */
export const VLLM_STEP_MARKER = '# Optional: an OpenAI-compatible server in this job';

export function githubWorkflow(shards: number): string {
  if (!Number.isInteger(shards) || shards < 1 || shards > 64) throw new Error(`shards must be an integer from 1 to 64 (got ${shards})`);
  const matrix = Array.from({ length: shards }, (_, i) => i + 1).join(', ');
  return `# The benchmarks in CI, written by \`npx lokal init --ci github\` (vitest-lokal): the eval files run in ${shards} shards
# (Vitest splits them by file), and one merge job rolls the shards up as one run would: it applies the gates, writes
# the step summary and uploads results/. Settings: lokal.config.json, overridden by the env below (docs/settings.md).
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

jobs:
  evals:
    name: evals \${{ matrix.shard }}/${shards}
    runs-on: ubuntu-latest
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
      - run: npm ci
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
      ${VLLM_STEP_MARKER} (vLLM's container; needs a GPU runner). Uncomment, and
      # set LOKAL_MODEL: openai:Qwen/Qwen2.5-0.5B-Instruct and OPENAI_BASE_URL: http://localhost:8000/v1 in env above.
      # - name: OpenAI-compatible server (vLLM)
      #   run: |
      #     docker run -d --name vllm --gpus all -p 8000:8000 vllm/vllm-openai:latest --model Qwen/Qwen2.5-0.5B-Instruct
      #     timeout 900 sh -c 'until curl -sf http://localhost:8000/v1/models; do sleep 5; done'
      - name: Evals, shard \${{ matrix.shard }} of ${shards}
        run: npx vitest run --shard=\${{ matrix.shard }}/${shards} --reporter=blob
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
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
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
