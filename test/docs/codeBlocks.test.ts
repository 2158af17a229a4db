// Every fenced code block of README.md and docs/*.md is run or checked, in a user's project with the
// built package installed (test/support/installedPackage.ts) and the shared MultiLoKo data: TypeScript blocks are
// written to the file their introducing line names (else typecheck/) and type-checked against the package's
// declarations, JSON blocks are read as lokal.config.json, each line of a shell block is run by `sh` in the project
// and judged by the one COMMANDS entry that matches it, and output blocks are compared with what those commands
// printed. A block that cannot run here is listed in ALLOWANCES with the reason; any other block fails the test.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KALAHI_SETTINGS } from '../../src/benchmarks/kalahi/settings.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import { subsetLanguage } from '../../src/benchmarks/multiloko/run/names.ts';
import { MULTILOKO_SETTINGS } from '../../src/benchmarks/multiloko/settings.ts';
import { resolveSettingsTree } from '../../src/core/settings.ts';
import { installedProject, REPO_ROOT, shellInProject, type ShellRun } from '../support/installedPackage.ts';
import { codeBlocks, documentationPages, type CodeBlock } from './markdown.ts';
import { qwenTokenizerDir } from '../support/tinyModel.ts';

/** Blocks that cannot run in this test, each with the reason; matched by file and the block's first line. */
const ALLOWANCES: Array<{ file: string; firstLine: string; reason: string; checkedBy?: { test: string; holds: string } }> = [
  {
    file: 'README.md',
    firstLine: 'npm init -y && npm pkg set type=module',
    reason: 'installs from the npm registry; test/package/pack.test.ts runs exactly these lines with the packed tarball',
    checkedBy: { test: 'test/package/pack.test.ts', holds: "readme.indexOf('## Install')" },
  },
  {
    file: 'README.md',
    firstLine: 'npm pkg set allowScripts.onnxruntime-node=false allowScripts.protobufjs=false --json',
    reason: 'installs the ONNX runtime from the npm registry; test/package/pack.test.ts runs exactly these lines',
    checkedBy: { test: 'test/package/pack.test.ts', holds: 'const [, runtimeBlock] = readmeInstallBlocks();' },
  },
  {
    file: 'README.md',
    firstLine: 'npm ci && npx vitest run evals    # install, then run the benchmarks against your model',
    reason: "this repository's own install and whole test suite (the default model needs a download); CI runs them",
  },
  {
    file: 'docs/benchmarks.md',
    firstLine: 'cp -r node_modules/vitest-lokal/examples/capitals .',
    reason: 'copies and runs the example shipped in the tarball; test/package/pack.test.ts runs exactly these lines in its installed project',
    checkedBy: { test: 'test/package/pack.test.ts', holds: "expect(copyAndRun).toEqual(['cp -r node_modules/vitest-lokal/examples/capitals .'" },
  },
  {
    file: 'docs/benchmarks.md',
    firstLine: `printf '%s\\n' '{"language": "capitals", "id": 1, "prediction": "Rome"}' '{"language": "capitals", "id": 2, "prediction": "Paris"}' > my-answers.jsonl`,
    reason: 'a replay file for the shipped example; test/package/pack.test.ts runs it and reads the rows back',
    checkedBy: { test: 'test/package/pack.test.ts', holds: "readFileSync(path.join(project, 'my-answers.jsonl'), 'utf8')" },
  },
  {
    file: 'docs/baseline.md',
    firstLine: '✗ italian · local EM vs baseline: Δ −0.100 (95% CI [−0.145, −0.055]), 0.576 → 0.476 over 250 paired items',
    reason: 'output of the two replay runs of test/vitest/baseline-e2e.test.ts, which asserts both lines',
    checkedBy: { test: 'test/vitest/baseline-e2e.test.ts', holds: 'no significant change, but too few items to tell' },
  },
  {
    file: 'README.md',
    firstLine: 'MultiLoKo · error categories (items)',
    reason: "output of a vitest run of the generated 2-layer test model over the shared Italian dev set (250 items, random weights: the answers are that model's); test/vitest/errorCategories.test.ts asserts the header and column order of errorTableLines, not these counts",
    checkedBy: { test: 'test/vitest/errorCategories.test.ts', holds: "'  language               items  correct  empty  verbose  truncated  near  wrong_script  wrong'," },
  },
  {
    file: 'docs/performance-models.md',
    firstLine: 'python3 -m venv ../hf-peer && ../hf-peer/bin/pip install torch transformers onnx',
    reason: 'installs torch and transformers from the Python package index (no network in CI) and runs the opt-in generation bench (minutes to hours on a 494M model)',
  },
  {
    file: 'docs/performance-quantised.md',
    firstLine: 'npm run make:tiny-model -- ../qwen-494m --shape qwen2.5-0.5b-instruct --tokenizer qwen2.5 --dtypes fp32,q8,q4 --gguf-type f32,q8_0,q4_0',
    reason: 'writes a 494M-parameter model in five formats (gigabytes) and runs the opt-in generation bench (an hour on a quiet machine)',
  },
  {
    file: 'docs/performance-quantised.md',
    firstLine: 'BENCH_GENERATION_SHAPE=tiny BENCH_GENERATION_ITEMS=2 BENCH_GENERATION_NEW_TOKENS=8 BENCH_GENERATION_ROUNDS=1 BENCH_LOAD=0 \\',
    reason: 'the opt-in bench, five processes on both cores (minutes): a smoke run for a developer, not a check CI can afford',
  },
  {
    file: 'docs/performance-trials.md',
    firstLine: 'BENCH_TRIALS_SHAPE=tiny BENCH_TRIALS_ROUNDS=1 BENCH_TRIALS_NEW_TOKENS=8 npm run bench -- trials',
    reason: 'the opt-in trials bench on a 2-layer model, 9 providers loaded a round (minutes on a busy machine): a smoke run for a developer, not a check CI can afford',
  },
  {
    file: 'docs/performance-trials.md',
    firstLine: 'npm run make:tiny-model -- ../qwen-494m-fp32 --shape qwen2.5-0.5b-instruct --tokenizer qwen2.5 --dtypes fp32',
    reason: 'writes a 494M-parameter model (2 GB) and runs the opt-in trials bench on it (an hour or more): the measurement itself, opt-in',
  },
  {
    file: 'docs/development.md',
    firstLine: 'npm run lint:layers',
    reason: "this repository's own layer check (its script, config and sources are not in the installed package); test/core/layers.test.ts runs the same cruise with the same config",
    checkedBy: { test: 'test/core/layers.test.ts', holds: "const CONFIG = path.join(REPO_ROOT, '.dependency-cruiser.cjs');" },
  },
  {
    file: 'docs/report.md',
    firstLine: '           #1 model-a  #2 model-b               Δ vs #1 (p)  #3 model-c             Δ vs #1 (p)',
    reason: 'output of lokal compare on the three hand-made runs of test/report/compareCli.test.ts, which asserts these rows',
    checkedBy: { test: 'test/report/compareCli.test.ts', holds: "['italian', '50.00', '16.67', `-33.33 (p" },
  },
];

const MULTILOKO = process.env.LOKAL_MULTILOKO ?? path.resolve(REPO_ROOT, '../shared/data/multiloko/benchmark_data.tar.xz.enc');
const ARCHIVE = existsSync(MULTILOKO) && !existsSync(path.join(MULTILOKO, 'italian')) && MULTILOKO.endsWith('.enc') ? MULTILOKO : undefined;

type Run = ShellRun;

/** A documented command, as a user types it in the project (LOKAL_REDACT off: the checks read answers). */
const sh = (command: string, cwd: string) => shellInProject(command, cwd, { LOKAL_REDACT: 'off' });

const show = (command: string, r: Run) => `${command}\nexit ${r.code}\n--- stdout\n${r.stdout.slice(-5000)}\n--- stderr\n${r.stderr.slice(-3000)}`;

type Results = Record<string, { em?: number }> & { summary: { items: { scored: number } } };
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

interface Fixture {
  project: string;
  /** eval.py keys of the Italian side's subsets, which lokal.config.json selects. */
  italianKeys: string[];
  /** Items per key in the Italian side. */
  italianItems: Record<string, number>;
  /** Every key of the dataset (lokal score scores them all). */
  allKeys: string[];
  /** What each command printed, for the output blocks. */
  printed: string[];
}

/** What each documented command must do in the fixture project. Every command run matches exactly one entry. */
const COMMANDS: Array<{ match: RegExp; prepare?: (f: Fixture) => void; check: (r: Run, f: Fixture, command: string) => void }> = [
  {
    // README, Run: the benchmarks over the whole Italian side; every prediction is a target, so every EM is 1.
    match: /^LOKAL_MODEL=replay:predictions\.jsonl npx vitest run$/u,
    prepare: (f) => rmSync(path.join(f.project, 'results'), { recursive: true, force: true }),
    check: (r, f, command) => {
      expect(r.code, show(command, r)).toBe(0);
      const results = readJson<Results>(path.join(f.project, 'results', 'multiloko.json'));
      expect(Object.fromEntries(f.italianKeys.map((k) => [k, results[k]?.em]))).toEqual(Object.fromEntries(f.italianKeys.map((k) => [k, 1])));
      expect(results.summary.items.scored).toBe(Object.values(f.italianItems).reduce((a, b) => a + b, 0));
      expect(existsSync(path.join(f.project, 'results', 'report.html'))).toBe(true);
    },
  },
  {
    // README, Run: the smoke run, 5 items a subset, gated.
    match: /^LOKAL_MODEL=replay:predictions\.jsonl LOKAL_LIMIT=5 LOKAL_THRESHOLDS="em>=0\.3" npx vitest run$/u,
    check: (r, f, command) => {
      expect(r.code, show(command, r)).toBe(0);
      const results = readJson<Results>(path.join(f.project, 'results', 'multiloko.json'));
      expect(results.summary.items.scored).toBe(5 * f.italianKeys.length);
      expect(r.stdout + r.stderr, show(command, r)).toMatch(/✓ .*em>=0\.3/u);
    },
  },
  {
    // README and docs/scoring.md: eval.py's drop-in over the archive; the Italian side is answered right.
    match: /^npx lokal score -d data\/benchmark_data\.tar\.xz\.enc -s dev -p predictions\.jsonl -o scores\.json$/u,
    prepare: (f) => rmSync(path.join(f.project, 'scores.json'), { force: true }),
    check: (r, f, command) => {
      expect(r.code, show(command, r)).toBe(0);
      const scores = readJson<Record<string, { em?: number }>>(path.join(f.project, 'scores.json'));
      // Items without a prediction score as empty answers (EM 0), and are reported on stderr.
      for (const key of f.allKeys) expect(scores[key]?.em, key).toBe(f.italianKeys.includes(key) ? 1 : 0);
      if (f.allKeys.some((k) => !f.italianKeys.includes(k))) expect(r.stderr).toMatch(/dataset items have no prediction/u);
    },
  },
  {
    // docs/report.md: three runs side by side (two results files and a results folder).
    match: /^npx lokal compare a\.json b\.json run-c\/ -o compare\.html$/u,
    prepare: (f) => {
      const results = path.join(f.project, 'results', 'multiloko.json');
      cpSync(results, path.join(f.project, 'a.json'));
      cpSync(results, path.join(f.project, 'b.json'));
      mkdirSync(path.join(f.project, 'run-c'), { recursive: true });
      cpSync(results, path.join(f.project, 'run-c', 'multiloko.json'));
    },
    check: (r, f, command) => {
      expect(r.code, show(command, r)).toBe(0);
      expect(r.stdout).toMatch(/#1 .*#2 .*Δ vs #1 \(p\) .*#3 /u);
      expect(r.stdout).toMatch(/\n *italian +100\.00 +100\.00 /u);
      expect(readFileSync(path.join(f.project, 'compare.html'), 'utf8')).toMatch(/^<!doctype html>/iu);
    },
  },
  {
    // docs/setup.md: init in the project the README set up: its files are kept, the workflow and 2 part files added,
    // and the README's whole eval files named (they would run their benchmarks besides the parts).
    match: /^npx lokal init --ci github$/u,
    check: (r, f, command) => {
      expect(r.code, show(command, r)).toBe(0);
      for (const file of ['vitest.config.ts', 'lokal.config.json']) {
        expect(r.stdout, show(command, r)).toContain(`lokal init: skipped ${file} (it exists; not overwritten)`);
      }
      expect(r.stdout).toContain('lokal init: wrote evals/part-01-of-02.eval.ts\nlokal init: wrote evals/part-02-of-02.eval.ts\n');
      expect(r.stdout).toContain('lokal init: evals/multiloko.eval.ts and evals/kalahi.eval.ts run their benchmarks whole in one shard, besides the part files');
      expect(r.stdout).toContain('lokal init: wrote .github/workflows/evals.yml');
      expect(readFileSync(path.join(f.project, '.github', 'workflows', 'evals.yml'), 'utf8')).toContain('npx vitest run --shard=${{ matrix.shard }}/2 --reporter=blob');
      expect(readFileSync(path.join(f.project, 'evals', 'part-02-of-02.eval.ts'), 'utf8')).toContain('await benchmarkSuite(multiloko, { part: [2, 2] });');
      expect(readJson(path.join(f.project, 'lokal.config.json'))).toEqual({ multiloko: { languages: ['italian'] } });
      // The README's eval files stay the project's for the commands after this one.
      for (const part of ['part-01-of-02', 'part-02-of-02']) rmSync(path.join(f.project, 'evals', `${part}.eval.ts`));
    },
  },
  {
    // docs/setup.md: the plan of the project the README set up (the Italian side; no Kalahi data there), in 4 parts.
    match: /^npx lokal plan --shards 4 --items-per-second 2$/u,
    check: (r, f, command) => {
      expect(r.code, show(command, r)).toBe(0);
      const total = Object.values(f.italianItems).reduce((a, b) => a + b, 0);
      const parts = /^multiloko: ([\d,]+) items in 4 parts: ([\d, ]+)$/mu.exec(r.stdout);
      expect(parts, show(command, r)).not.toBeNull();
      expect(Number(parts![1]!.replaceAll(',', ''))).toBe(total);
      const sizes = parts![2]!.split(', ').map((s) => Number(s.replaceAll(',', '')));
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(total);
      // Cut by base prompt length, not count (test/cli/plan.test.ts has the exact sizes): every part holds items.
      expect(Math.min(...sizes)).toBeGreaterThan(0);
      expect(r.stdout).toMatch(/^kalahi: no data \(a run skips it\): /mu);
      expect(r.stdout).toMatch(/^prompt tokens: /mu);
      // Each shard's time at 2 items/s, rounded up to the minute (and its prompt tokens when the model's tokenizer is on disk).
      sizes.forEach((items, i) => expect(r.stdout).toMatch(new RegExp(`^  shard ${i + 1}/4 \\(evals/part-0${i + 1}-of-04\\.eval\\.ts\\): ${items.toLocaleString('en-US')} items, ${Math.ceil(items / 2 / 60)} min(, [\\d,]+ prompt tokens)?$`, 'mu')));
    },
  },
  {
    // docs/setup.md: the same plan with prompt tokens, counted with Qwen2.5's tokenizer files put at models/qwen2.5.
    match: /^npx lokal plan --shards 4 --tokenizer models\/qwen2\.5$/u,
    prepare: (f) => {
      const to = path.join(f.project, 'models', 'qwen2.5');
      mkdirSync(to, { recursive: true });
      for (const file of ['tokenizer.json', 'tokenizer_config.json']) cpSync(path.join(qwenTokenizerDir(), file), path.join(to, file));
    },
    check: (r, f, command) => {
      expect(r.code, show(command, r)).toBe(0);
      const tokens = /^multiloko: [\d,]+ items in 4 parts: [\d, ]+\n {2}prompt tokens: ([\d,]+) \([\d.]+ per item\); in 4 parts: (.+)$/mu.exec(r.stdout);
      expect(tokens, show(command, r)).not.toBeNull();
      const number = (text: string) => Number(text.replaceAll(',', ''));
      const parts = [...tokens![2]!.matchAll(/([\d,]+) \([\d.]+\)/gu)].map((m) => number(m[1]!));
      expect(parts).toHaveLength(4);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(number(tokens![1]!));
      expect(r.stdout).toContain(`prompt tokens: counted with the tokenizer in ${path.join(f.project, 'models', 'qwen2.5')}, each prompt rendered as a run renders it\n`);
    },
  },
];

const blocks = documentationPages().flatMap((file) => codeBlocks(file, readFileSync(path.join(REPO_ROOT, file), 'utf8')));
const allowed = (b: CodeBlock) => ALLOWANCES.find((a) => a.file === b.file && b.text.split('\n')[0] === a.firstLine);
const where = (b: CodeBlock) => `${b.file}:${b.line}`;

describe('the code blocks of README.md and docs/', () => {
  test('every block has a kind this test runs, or an allowance; every allowance names a block, and its checking test', () => {
    const unknown = blocks.filter((b) => !allowed(b) && !['sh', 'ts', 'json', ''].includes(b.lang)).map(where);
    expect(unknown).toEqual([]);
    for (const a of ALLOWANCES) {
      expect(blocks.filter((b) => b.file === a.file && b.text.split('\n')[0] === a.firstLine).map(where), `allowance ${a.file}: ${a.firstLine}`).toHaveLength(1);
      if (!a.checkedBy) continue;
      // In the test's code, not in a comment (an assertion commented out no longer checks the block).
      const code = readFileSync(path.join(REPO_ROOT, a.checkedBy.test), 'utf8').split('\n').filter((line) => !/^\s*(\/\/|\*|\/\*)/u.test(line)).join('\n');
      expect(code, `${a.checkedBy.test} still checks it`).toContain(a.checkedBy.holds);
    }
    // The README's own blocks and the pages' are all found (a fence this parser missed would escape the test).
    const fences = documentationPages().reduce((n, file) => n + (readFileSync(path.join(REPO_ROOT, file), 'utf8').match(/^ *```/gmu)?.length ?? 0), 0);
    expect(blocks.length * 2).toBe(fences);
  });

  test('a JSON block is a valid lokal.config.json: its settings resolve to what it says', () => {
    const json = blocks.filter((b) => b.lang === 'json' && !allowed(b));
    expect(json.length).toBeGreaterThan(0);
    for (const block of json) {
      const dir = mkdtempSync(path.join(tmpdir(), 'lokal-docs-json-'));
      try {
        writeFileSync(path.join(dir, 'lokal.config.json'), block.text);
        const tree = resolveSettingsTree([MULTILOKO_SETTINGS, KALAHI_SETTINGS], {}, { cwd: dir, env: {} });
        expect(tree, where(block)).toMatchObject(JSON.parse(block.text) as object);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  describe.skipIf(!ARCHIVE)(ARCHIVE ? 'in a project with the built package and the shared data' : `(skipped: no MultiLoKo archive at ${MULTILOKO})`, () => {
    const work = mkdtempSync(path.join(tmpdir(), 'lokal-docs-'));
    const fixture: Fixture = { project: path.join(work, 'project'), italianKeys: [], italianItems: {}, allKeys: [], printed: [] };
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    beforeAll(async () => {
      await installedProject(fixture.project);
      mkdirSync(path.join(fixture.project, 'data'));
      symlinkSync(ARCHIVE!, path.join(fixture.project, 'data', 'benchmark_data.tar.xz.enc'));
      // The Italian side only, to keep the runs short; every prediction is the item's first target.
      writeFileSync(path.join(fixture.project, 'lokal.config.json'), JSON.stringify({ multiloko: { languages: ['italian'] } }));
      const dataset = await loadMultiLoKo(ARCHIVE!, 'dev');
      fixture.allKeys = dataset.subsets.map((s) => s.key);
      const rows: string[] = [];
      for (const subset of dataset.subsets.filter((s) => subsetLanguage(s) === 'italian')) {
        fixture.italianKeys.push(subset.key);
        fixture.italianItems[subset.key] = subset.items.length;
        for (const item of subset.items) rows.push(JSON.stringify({ language: subset.key, id: item.id, prediction: item.targets[0] }));
      }
      writeFileSync(path.join(fixture.project, 'predictions.jsonl'), `${rows.join('\n')}\n`);
    }, 900_000);

    test('TypeScript blocks type-check against the installed package (tsc, strict, NodeNext)', async () => {
      const ts = blocks.filter((b) => b.lang === 'ts' && !allowed(b));
      expect(ts.length).toBeGreaterThan(0);
      const written: string[] = [];
      for (const [i, block] of ts.entries()) {
        // "`evals/multiloko.eval.ts` (and the same with `kalahi` …)": the block is that file.
        const named = /^`([\w./-]+\.ts)`/u.exec(block.intro)?.[1] ?? `typecheck/block-${i}.ts`;
        mkdirSync(path.dirname(path.join(fixture.project, named)), { recursive: true });
        writeFileSync(path.join(fixture.project, named), `${block.text}\n`);
        written.push(named);
        // The README's "(and the same with `kalahi` in `evals/kalahi.eval.ts`)".
        const same = /and the same with `(\w+)` in `([\w./-]+\.ts)`/u.exec(block.intro);
        if (same) {
          writeFileSync(path.join(fixture.project, same[2]!), `${block.text.replaceAll('multiloko', same[1]!)}\n`);
          written.push(same[2]!);
        }
      }
      expect(written).toEqual(expect.arrayContaining(['vitest.config.ts', 'evals/multiloko.eval.ts', 'evals/kalahi.eval.ts']));
      writeFileSync(path.join(fixture.project, 'tsconfig.json'), JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
        include: written,
      }));
      const tsc = await sh(`node ${path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc')} -p tsconfig.json`, fixture.project);
      expect(tsc.code, show('tsc', tsc)).toBe(0);
    }, 300_000);

    test('every shell command runs in the project and does what its COMMANDS entry checks; output blocks match', async () => {
      // The files the TypeScript test writes are what the commands run.
      expect(existsSync(path.join(fixture.project, 'vitest.config.ts')), 'the README\'s vitest.config.ts (written by the TypeScript test)').toBe(true);
      const shell = blocks.filter((b) => b.lang === 'sh' && !allowed(b));
      const commands = shell.flatMap((b) => b.text.split('\n').map((l) => l.replace(/\s+#.*$/u, '').trim()).filter(Boolean).map((command) => ({ block: b, command })));
      expect(commands.length).toBeGreaterThanOrEqual(4);
      for (const { block, command } of commands) {
        const entries = COMMANDS.filter((c) => c.match.test(command));
        expect(entries.length, `${where(block)}: \`${command}\` needs exactly one COMMANDS entry saying what it must do`).toBe(1);
        entries[0]!.prepare?.(fixture);
        const run = await sh(command, fixture.project);
        fixture.printed.push(run.stdout, run.stderr);
        entries[0]!.check(run, fixture, command);
      }
      // Every entry is used: a command removed from the docs takes its check along.
      expect(COMMANDS.filter((c) => !commands.some(({ command }) => c.match.test(command))).map((c) => String(c.match))).toEqual([]);
      // Output blocks: each line is a whole line some command printed (runs of spaces, a table's padding, as one).
      const squeeze = (line: string) => line.trim().replace(/\s+/gu, ' ');
      const printed = new Set(fixture.printed.join('\n').split('\n').map(squeeze));
      for (const block of blocks.filter((b) => b.lang === '' && !allowed(b))) {
        for (const line of block.text.split('\n')) expect(printed.has(squeeze(line)), `${where(block)}: "${line}" was not printed as a line`).toBe(true);
      }
    }, 900_000);
  });
});
