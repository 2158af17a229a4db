// `lokal init`, in process against temporary projects: the files of the README's setup and lokal.config.json (no
// data paths), the .gitignore written or extended, never an overwrite (skips listed), the ES-module check, the line
// naming the model's missing packages, and --ci github's workflow validated by GitHub's own workflow parser
// (@actions/workflow-parser) and parsed as YAML with its jobs and steps checked — the optional vLLM step too, once
// uncommented, and the time limits worked out by hand. test/cli/initRun.test.ts runs what it writes.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parse } from 'yaml';
import { KALAHI_SETTINGS } from '../../src/benchmarks/kalahi/settings.ts';
import { MULTILOKO_SETTINGS } from '../../src/benchmarks/multiloko/settings.ts';
import { initCommand } from '../../src/cli/init.ts';
import { kalahi as KALAHI, multiloko as MULTILOKO } from '../../src/benchmarks/index.ts';
import { resolveSettingsTree, sectionSettings } from '../../src/core/settings.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import { subsetLanguage } from '../../src/benchmarks/multiloko/run/names.ts';
import { shardTimeout, VLLM_STEP_MARKER } from '../../src/init/githubWorkflow.ts';
import { evalItemCounts, partSize } from '../../src/init/itemCounts.ts';
import { projectFiles } from '../../src/init/projectFiles.ts';
import { assignParts } from '../../src/benchmarks/parts.ts';
import { createHash } from 'node:crypto';
import { hasMkfifo, makeFifo } from '../support/fifo.ts';
import { captureCliOutput } from '../support/cliOutput.ts';
import { multilokoFixturePartSizes } from '../support/multilokoFixtureParts.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(manifest: object | string | null = { name: 'p', type: 'module' }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lokal-init-'));
  dirs.push(dir);
  if (manifest !== null) writeFileSync(path.join(dir, 'package.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  return dir;
}

const cli = captureCliOutput();

/** The repository's MultiLoKo fixture and a three-prompt Kalahi CSV at their default places in the project. */
function withFixtureData(dir: string): void {
  cpSync(fileURLToPath(new URL('../../data/fixtures/multiloko', import.meta.url)), path.join(dir, 'data', 'benchmark_data'), { recursive: true });
  mkdirSync(path.join(dir, 'data', 'kalahi'));
  const header = 'prompt_variation_id,prompt_id,category,topic,prompt,best_answer,relevant_answers,irrelevant_answers';
  writeFileSync(path.join(dir, 'data', 'kalahi', 'filipino.csv'), `${header}\n1,1,e,t,P,A,A,C\n2,1,e,t,Q,A,A,C\n3,2,e,t,R,A,A,C\n`);
}

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');

describe('lokal init', () => {
  test.skipIf(!hasMkfifo)('a FIFO as package.json is refused at once, naming it; nothing is written', { timeout: 10_000 }, async () => {
    const dir = project(null);
    const manifest = makeFifo(path.join(dir, 'package.json'));
    expect(await initCommand([], dir)).toBe(1);
    expect(cli.err).toBe(`lokal init: ${manifest}: cannot read package.json: it is a FIFO (named pipe); only regular files are read\n`);
    expect(existsSync(path.join(dir, 'vitest.config.ts'))).toBe(false);
  });

  test('writes the README\'s config and eval files and a lokal.config.json the settings reader accepts', async () => {
    const dir = project();
    expect(await initCommand([], dir)).toBe(0);
    expect(read(dir, 'vitest.config.ts')).toBe("import { defineConfig } from 'vitest/config';\nimport { lokalEvals } from 'vitest-lokal/config';\nexport default defineConfig({ test: lokalEvals() });\n");
    expect(read(dir, 'evals/multiloko.eval.ts')).toBe("import { benchmarkSuite } from 'vitest-lokal/vitest';\nimport { multiloko } from 'vitest-lokal/benchmarks';\nawait benchmarkSuite(multiloko);\n");
    expect(read(dir, 'evals/kalahi.eval.ts')).toBe("import { benchmarkSuite } from 'vitest-lokal/vitest';\nimport { kalahi } from 'vitest-lokal/benchmarks';\nawait benchmarkSuite(kalahi);\n");
    // The model and data settings, read back by the settings reader as a run reads them.
    const tree = resolveSettingsTree([MULTILOKO_SETTINGS, KALAHI_SETTINGS], {}, { cwd: dir, env: {} });
    expect(tree).toMatchObject({ model: 'transformers:onnx-community/Qwen2.5-0.5B-Instruct' });
    // No data paths: absent data at the default folders is skipped with a line, where a configured path would fail.
    expect(JSON.parse(read(dir, 'lokal.config.json'))).toEqual({ model: 'transformers:onnx-community/Qwen2.5-0.5B-Instruct' });
    expect(MULTILOKO.dataConfigured(sectionSettings(tree, MULTILOKO_SETTINGS))).toBe(false);
    expect(KALAHI.dataConfigured(sectionSettings(tree, KALAHI_SETTINGS))).toBe(false);
    expect(existsSync(path.join(dir, '.github'))).toBe(false);
    // docs/setup.md shows the file as written.
    const documented = /## `lokal init`[\s\S]*?```json\n([\s\S]*?)```/u.exec(readFileSync(new URL('../../docs/setup.md', import.meta.url), 'utf8'))![1]!;
    expect(JSON.parse(read(dir, 'lokal.config.json'))).toEqual(JSON.parse(documented));
    expect(cli.out.split('\n').filter((l) => l.startsWith('lokal init: wrote'))).toEqual([
      ...['vitest.config.ts', 'evals/multiloko.eval.ts', 'evals/kalahi.eval.ts', 'lokal.config.json'].map((f) => `lokal init: wrote ${f}`),
      'lokal init: wrote .gitignore: results/ .lokal-cache/ .vitest-reports/ data/',
    ]);
  });

  test('never overwrites: existing files are kept byte for byte and listed as skipped; the rest is written', async () => {
    const dir = project();
    mkdirSync(path.join(dir, 'evals'));
    writeFileSync(path.join(dir, 'evals', 'part-02-of-02.eval.ts'), '// mine\n');
    writeFileSync(path.join(dir, 'lokal.config.json'), '{ "limit": 3 }\n');
    expect(await initCommand(['--ci', 'github'], dir)).toBe(0);
    expect(read(dir, 'evals/part-02-of-02.eval.ts')).toBe('// mine\n');
    expect(read(dir, 'lokal.config.json')).toBe('{ "limit": 3 }\n');
    expect(cli.out).toContain('lokal init: skipped evals/part-02-of-02.eval.ts (it exists; not overwritten)\nlokal init: skipped lokal.config.json (it exists; not overwritten)\n');
    expect(cli.out).toContain('lokal init: wrote .github/workflows/evals.yml\n');
    // A second init skips everything and changes nothing.
    const before = read(dir, '.github/workflows/evals.yml');
    cli.out = '';
    expect(await initCommand(['--ci', 'github'], dir)).toBe(0);
    expect(cli.out.match(/skipped/gu)).toHaveLength(5);
    expect(cli.out).not.toContain('wrote');
    expect(read(dir, '.github/workflows/evals.yml')).toBe(before);
  });

  test.each([
    ['no package.json', null, /no package\.json in .*: run `npm init -y && npm pkg set type=module` first/u],
    ['"type": "commonjs"', { name: 'p', type: 'commonjs' }, /package\.json has "type": "commonjs"; .*run `npm pkg set type=module`, then lokal init again/u],
    ['no "type"', { name: 'p' }, /package\.json has no "type"; .*top-level await/u],
    ['package.json that is not JSON', '{ nope', /package\.json is not valid JSON/u],
  ])('a project that is not an ES module (%s): exit 1 with the fix, nothing written', async (_, manifest, message) => {
    const dir = project(manifest);
    expect(await initCommand(['--ci', 'github'], dir)).toBe(1);
    expect(cli.err).toMatch(message);
    expect(existsSync(path.join(dir, 'vitest.config.ts'))).toBe(false);
    expect(existsSync(path.join(dir, '.github'))).toBe(false);
  });

  test('bad options are usage errors naming the option', async () => {
    const dir = project();
    await expect(initCommand(['--ci', 'gitlab'], dir)).rejects.toThrow('--ci must be "github" (got "gitlab")');
    await expect(initCommand(['--ci', 'github', '--shards', '0'], dir)).rejects.toThrow('--shards must be an integer from 1 to 64 (got "0")');
    await expect(initCommand(['--ci', 'github', '--shards', '2.5'], dir)).rejects.toThrow('--shards must be an integer');
    await expect(initCommand(['--ci', 'github', '--shards', '65'], dir)).rejects.toThrow('--shards must be an integer from 1 to 64 (got "65")');
    await expect(initCommand(['--ci', 'github', '--shards=-1'], dir)).rejects.toThrow('--shards must be an integer from 1 to 64 (got "-1")');
    await expect(initCommand(['--shards', '3'], dir)).rejects.toThrow('--shards applies to the CI workflow');
    for (const rate of ['0', '-1', 'fast', '1e3', ''])
      await expect(initCommand(['--ci', 'github', `--items-per-second=${rate}`], dir)).rejects.toThrow(`--items-per-second must be a number above 0 (got ${JSON.stringify(rate)})`);
    await expect(initCommand(['--items-per-second', '2'], dir)).rejects.toThrow('--items-per-second applies to the CI workflow');
    await expect(initCommand(['evals'], dir)).rejects.toThrow('unexpected argument "evals"');
    expect(existsSync(path.join(dir, 'vitest.config.ts'))).toBe(false);
  });
});

describe('lokal init: .gitignore', () => {
  const LINES = ['results/', '.lokal-cache/', '.vitest-reports/', 'data/'];
  const rules = (text: string) => text.split(/\r?\n/u).filter((l) => l && !l.startsWith('#'));

  test('a project without one gets the run outputs and the data; with --ci github also the model weights folder', async () => {
    const dir = project();
    expect(await initCommand([], dir)).toBe(0);
    expect(rules(read(dir, '.gitignore'))).toEqual(LINES);
    const ci = project();
    expect(await initCommand(['--ci', 'github'], ci)).toBe(0);
    expect(rules(read(ci, '.gitignore'))).toEqual([...LINES, '.lokal-models/']);
    // The folder the workflow caches the weights in is the one it names as the model cache.
    expect((parse(read(ci, '.github/workflows/evals.yml')) as Workflow).env.LOKAL_MODEL_CACHE).toBe('.lokal-models');
  });

  test('a user\'s .gitignore keeps every line in its order; lines already there in any spelling are not added again', async () => {
    const dir = project();
    const mine = 'node_modules/\n# my outputs\n/results\n*.log\n';
    writeFileSync(path.join(dir, '.gitignore'), mine);
    expect(await initCommand([], dir)).toBe(0);
    const text = read(dir, '.gitignore');
    expect(text.startsWith(mine)).toBe(true);
    expect(rules(text)).toEqual(['node_modules/', '/results', '*.log', '.lokal-cache/', '.vitest-reports/', 'data/']);
    expect(cli.out).toContain('lokal init: added to .gitignore: .lokal-cache/ .vitest-reports/ data/\n');
    // Again: nothing added, nothing said; --ci github then adds only its own folder.
    cli.out = '';
    expect(await initCommand([], dir)).toBe(0);
    expect(read(dir, '.gitignore')).toBe(text);
    expect(cli.out).not.toContain('.gitignore');
    expect(await initCommand(['--ci', 'github'], dir)).toBe(0);
    expect(rules(read(dir, '.gitignore'))).toEqual([...rules(text), '.lokal-models/']);
    expect(read(dir, '.gitignore').startsWith(text)).toBe(true);
  });

  test('a user\'s finer rules for a folder are left alone (no `data/` over `data/*` and `!data/README.md`); CRLF and no final newline kept', async () => {
    const dir = project();
    writeFileSync(path.join(dir, '.gitignore'), '/data/*\r\n!/data/README.md\r\n.vitest-reports/\r\nresults/');
    expect(await initCommand([], dir)).toBe(0);
    expect(read(dir, '.gitignore')).toBe('/data/*\r\n!/data/README.md\r\n.vitest-reports/\r\nresults/\r\n\r\n# vitest-lokal: run outputs and downloaded datasets (lokal init)\r\n.lokal-cache/\r\n');
  });

  test.skipIf(!hasMkfifo)('a FIFO as .gitignore is not read (a read would wait forever): the lines to add are named instead', { timeout: 10_000 }, async () => {
    const dir = project();
    const fifo = makeFifo(path.join(dir, '.gitignore'));
    expect(await initCommand([], dir)).toBe(0);
    expect(cli.out).toContain(`lokal init: ${fifo}: cannot read .gitignore: it is a FIFO (named pipe); only regular files are read; add these lines to it yourself: results/ .lokal-cache/ .vitest-reports/ data/\n`);
  });

  test('every line there already: the file is not touched', async () => {
    const dir = project();
    const all = 'results\n.lokal-cache\n.vitest-reports\ndata\n';
    writeFileSync(path.join(dir, '.gitignore'), all);
    expect(await initCommand([], dir)).toBe(0);
    expect(read(dir, '.gitignore')).toBe(all);
  });
});

describe('lokal init: the configured model\'s packages', () => {
  const install = 'ONNXRUNTIME_NODE_INSTALL=skip npm install --save-dev @huggingface/transformers@4.3.1 onnxruntime-node@1.30.0';
  const fakePackage = (dir: string, name: string) => {
    mkdirSync(path.join(dir, 'node_modules', name), { recursive: true });
    writeFileSync(path.join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name }));
  };
  const lines = () => cli.out.split('\n').filter((l) => l.includes(' needs '));

  test('the default model without @huggingface/transformers and onnxruntime-node: one line with the install command and the models that need neither', async () => {
    const dir = project();
    expect(await initCommand([], dir)).toBe(0);
    expect(lines()).toEqual([
      'lokal init: the model transformers:onnx-community/Qwen2.5-0.5B-Instruct needs @huggingface/transformers and onnxruntime-node ' +
        `(@huggingface/transformers, onnxruntime-node not installed here): \`${install}\`; or set "model" in lokal.config.json to a model ` +
        'that needs no package: replay:<predictions.jsonl> (answers from a file) or openai:<model> with OPENAI_BASE_URL (a server) — docs/models.md',
    ]);
  });

  test('one of the two missing: named; both installed (here or in a parent folder, as npm workspaces put them): nothing said', async () => {
    const parent = project();
    const dir = path.join(parent, 'packages', 'app');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', type: 'module' }));
    fakePackage(parent, '@huggingface/transformers');
    expect(await initCommand([], dir)).toBe(0);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toContain('(onnxruntime-node not installed here)');
    cli.out = '';
    fakePackage(dir, 'onnxruntime-node');
    expect(await initCommand([], dir)).toBe(0);
    expect(lines()).toEqual([]);
  });

  test('the model of an existing lokal.config.json is the one checked: replay: and openai: need nothing, llama: node-llama-cpp', async () => {
    for (const [model, expected] of [
      ['replay:predictions.jsonl', []],
      ['openai:gpt-4o-mini', []],
      ['llama:model.gguf', ['lokal init: the model llama:model.gguf needs node-llama-cpp (node-llama-cpp not installed here): `NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install --save-dev node-llama-cpp@3.21.1`']],
    ] as const) {
      cli.out = '';
      const dir = project();
      writeFileSync(path.join(dir, 'lokal.config.json'), JSON.stringify({ model }));
      expect(await initCommand([], dir)).toBe(0);
      expect(lines().map((l) => l.replace(/; or set .*/u, ''))).toEqual(expected);
    }
    // A benchmark's own model is checked too.
    cli.out = '';
    const dir = project();
    writeFileSync(path.join(dir, 'lokal.config.json'), JSON.stringify({ model: 'replay:p.jsonl', kalahi: { model: 'transformers:some/model' } }));
    expect(await initCommand([], dir)).toBe(0);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatch(/^lokal init: the model transformers:some\/model needs /u);
  });
});

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  env: Record<string, string>;
  jobs: Record<string, { needs?: string; if?: string; 'timeout-minutes': number; strategy?: { 'fail-fast': boolean; matrix: { shard: number[] } }; steps: Step[] }>;
}

/** What GitHub's own workflow parser (the one behind the Actions extension of VS Code) finds wrong in a workflow. */
function workflowErrors(content: string): string[] {
  const parsed = parseWorkflow({ name: 'evals.yml', content }, new NoOperationTraceWriter());
  return parsed.context.errors.getErrors().map((e) => e.message);
}

describe('lokal init --ci github: .github/workflows/evals.yml', () => {
  async function workflow(args: string[]): Promise<{ text: string; yaml: Workflow }> {
    const dir = project();
    expect(await initCommand(['--ci', 'github', ...args], dir)).toBe(0);
    const text = read(dir, '.github/workflows/evals.yml');
    return { text, yaml: parse(text) as Workflow };
  }

  test('a matrix of blob-reporting shards, a merge job that rolls up, gates and uploads results/; a response cache per model and data', async () => {
    const { yaml } = await workflow(['--shards', '3']);
    expect(Object.keys(yaml.jobs)).toEqual(['evals', 'merge']);
    expect(yaml.permissions).toEqual({ contents: 'read' });
    expect(yaml.env.LOKAL_REDACT).toBe('auto');
    const shards = yaml.jobs.evals!;
    expect(shards.strategy).toEqual({ 'fail-fast': false, matrix: { shard: [1, 2, 3] } });
    const runs = (steps: Step[]) => steps.filter((s) => s.run && s.id !== 'model').map((s) => s.run!.trim());
    expect(runs(shards.steps)).toEqual(['npm ci', 'npx lokal data fetch', 'npx vitest run --shard=${{ matrix.shard }}/3 --reporter=blob --passWithNoTests']);
    // npm 10 runs install scripts whatever allowScripts says: onnxruntime-node's download of GPU files is skipped.
    for (const job of [shards, yaml.jobs.merge!]) expect(job.steps.find((s) => s.run === 'npm ci')!.env).toEqual({ ONNXRUNTIME_NODE_INSTALL: 'skip' });
    // The model's weights: transformers.js's download cache in the project, cached per model id, before the evals.
    expect(yaml.env.LOKAL_MODEL_CACHE).toBe('.lokal-models');
    const weights = shards.steps.find((s) => s.with?.path === '.lokal-models')!;
    expect(weights.uses).toMatch(/^actions\/cache@v\d+$/u);
    expect(weights.with?.key).toBe('lokal-models-${{ steps.model.outputs.id }}-${{ matrix.shard }}');
    expect(String(weights.with?.['restore-keys']).trim()).toBe('lokal-models-${{ steps.model.outputs.id }}-');
    expect(shards.steps.findIndex((s) => s.id === 'model')).toBeLessThan(shards.steps.indexOf(weights));
    expect(shards.steps.indexOf(weights)).toBeLessThan(shards.steps.findIndex((s) => s.run?.includes('--shard')));
    // The data is cached, and fetched only on a miss.
    const data = shards.steps.find((s) => s.id === 'data')!;
    expect(data.uses).toMatch(/^actions\/cache@v\d+$/u);
    expect(data.with?.path).toBe('data');
    expect(shards.steps.find((s) => s.run === 'npx lokal data fetch')!.if).toBe("steps.data.outputs.cache-hit != 'true'");
    // The response cache: keyed by the settings file (model, data folders), the data's files and LOKAL_MODEL.
    const responses = shards.steps.find((s) => s.with?.path === '.lokal-cache')!;
    expect(responses.uses).toMatch(/^actions\/cache@v\d+$/u);
    expect(responses.with?.key).toMatch(/^lokal-responses-\$\{\{ hashFiles\('lokal\.config\.json', 'data\/\*\*'\) \}\}-\$\{\{ env\.LOKAL_MODEL \}\}-\$\{\{ matrix\.shard \}\}-\$\{\{ github\.run_id \}\}$/u);
    expect(String(responses.with?.['restore-keys']).trim()).toBe(String(responses.with?.key).replace('${{ github.run_id }}', ''));
    expect(yaml.env.LOKAL_CACHE_FILE).toBe('.lokal-cache/responses.jsonl');
    // Each shard's blob report is uploaded, even when its tests failed.
    const blob = shards.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(blob).toMatchObject({ if: '${{ !cancelled() }}', with: { name: 'blob-${{ matrix.shard }}', path: '.vitest-reports/*', 'include-hidden-files': true } });
    // The order: checkout, node, install, data, cache, run, upload.
    expect(shards.steps.findIndex((s) => s.with?.path === '.lokal-cache')).toBeLessThan(shards.steps.findIndex((s) => s.run?.includes('--shard')));

    const merge = yaml.jobs.merge!;
    expect(merge.needs).toBe('evals');
    expect(merge.if).toBe('${{ !cancelled() }}');
    expect(runs(merge.steps)).toEqual(['npm ci', 'npx vitest run --merge-reports']);
    const download = merge.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    expect(download.with).toEqual({ pattern: 'blob-*', path: '.vitest-reports', 'merge-multiple': true });
    const upload = merge.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload).toMatchObject({ if: '${{ !cancelled() }}', with: { name: 'lokal-results', path: 'results/' } });
    expect(merge.steps.indexOf(download)).toBeLessThan(merge.steps.findIndex((s) => s.run?.includes('--merge-reports')));
    expect(merge.steps.findIndex((s) => s.run?.includes('--merge-reports'))).toBeLessThan(merge.steps.indexOf(upload));
    // Every action is pinned to a major version.
    for (const step of [...shards.steps, ...merge.steps]) if (step.uses) expect(step.uses).toMatch(/^actions\/[a-z-]+@v\d+$/u);
  });

  test('GitHub\'s workflow parser finds nothing wrong, whatever the options; and it does find a mistake', async () => {
    for (const args of [[], ['--shards', '1'], ['--shards', '64'], ['--items-per-second', '2'], ['--items-per-second', '0.001']]) {
      const { text } = await workflow(args);
      expect(workflowErrors(text), args.join(' ')).toEqual([]);
    }
    // The validator is not blind: a context the job key cannot use, and an unknown step key.
    const { text } = await workflow([]);
    expect(workflowErrors(text.replace('timeout-minutes: 15', 'timeout-minutes: ${{ steps.model.outputs.id }}'))).toEqual(expect.arrayContaining([expect.stringMatching(/Unrecognized named-value: 'steps'/u)]));
    expect(workflowErrors(text.replace('      - run: npm ci\n', '      - run: npm ci\n        sudo: true\n'))).toEqual(expect.arrayContaining([expect.stringMatching(/Unexpected value 'sudo'/u)]));
  });

  test('the "Model id" step prints the run\'s model for the weights\' cache key: LOKAL_MODEL, else the config\'s, else the default', async () => {
    const { yaml } = await workflow([]);
    const script = yaml.jobs.evals!.steps.find((s) => s.id === 'model')!.run!;
    const id = (files: Record<string, string>, env: Record<string, string> = {}) => {
      const dir = project();
      for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
      const output = path.join(dir, 'github-output');
      const { LOKAL_MODEL: _model, LOKAL_CONFIG: _config, ...rest } = process.env;
      execFileSync('bash', ['-e', '-c', script], { cwd: dir, env: { ...rest, ...env, GITHUB_OUTPUT: output } });
      return readFileSync(output, 'utf8');
    };
    expect(id({})).toBe('id=transformers:onnx-community/Qwen2.5-0.5B-Instruct\n');
    expect(id({ 'lokal.config.json': '{ "model": "openai:gpt-4o-mini" }' })).toBe('id=openai:gpt-4o-mini\n');
    expect(id({ 'lokal.config.json': '{ "model": "openai:gpt-4o-mini" }' }, { LOKAL_MODEL: 'transformers:a/b,openai:c' })).toBe('id=transformers:a/b openai:c\n');
    expect(id({ 'other.json': '{ "model": "llama:m.gguf" }' }, { LOKAL_CONFIG: 'other.json' })).toBe('id=llama:m.gguf\n');
    expect(id({ 'lokal.config.json': '{ nope' })).toBe('id=transformers:onnx-community/Qwen2.5-0.5B-Instruct\n');
  });

  test('time limits worked out by hand: 15 min of setup plus the largest shard\'s items at the assumed speed, capped at 360', async () => {
    // No data: the full sizes, MultiLoKo's 37,750 dev items and Kalahi's 150 prompts.
    const full = (await workflow(['--items-per-second', '2'])).yaml;
    // 2 shards, one part file each: 37,750 / 2 + 150 / 2 = 18,950 items / 2 = 9,475 s = 157.9 min → 158, + 15 = 173.
    expect(full.jobs.evals!['timeout-minutes']).toBe(173);
    expect(full.jobs.merge!['timeout-minutes']).toBe(15);
    // 1 shard: both files; 37,900 / 2 = 18,950 s = 315.8 min → 316, + 15 = 331.
    expect((await workflow(['--shards', '1', '--items-per-second', '2'])).yaml.jobs.evals!['timeout-minutes']).toBe(331);
    // The default 0.25 items/s: 18,950 / 0.25 = 75,800 s = 1,263.3 min → 1,264 + 15 = 1,279, over a hosted job's 360.
    const { text, yaml } = await workflow([]);
    expect(yaml.jobs.evals!['timeout-minutes']).toBe(360);
    const comment = text.split('\n').filter((l) => /^ {4}# /u.test(l)).map((l) => l.slice(6)).join(' ');
    expect(comment).toContain('at an assumed 0.25 items/s');
    expect(comment).toContain('--items-per-second <n>');
    expect(comment).toContain('The largest shard runs at most 18,950 items (evals/part-01-of-02.eval.ts: 18,950 items, its full size, as no data was there): 1279 min, capped at 360');
    expect(cli.out).toContain('lokal init: the workflow\'s largest shard (18,950 items at 0.25 items/s) needs about 1279 min, more than a GitHub-hosted job\'s 360');
    // The limit that fits: (360 − 15) × 60 × 0.25 = 5,175 items a part, which holds half of the 151 + 1 groups' items
    // (76 groups' worth): 68 each (151 × 68 / 2 + 68 / 2 = 5,168 items: 20,672 s = 344.5 min → 345, + 15 = 360).
    expect(comment).toContain('LOKAL_LIMIT: 68 (items per group) in env fits it.');
    expect(cli.out).toContain('LOKAL_LIMIT: 68 (items per group) in its env fits it');
    expect(shardTimeout((151 * 68) / 2 + 68 / 2, 0.25)).toEqual({ minutes: 360, needed: 360, capped: false });
    // Without data, a limit in the settings caps the full sizes' groups alike: 151 × 34 and 34 of Kalahi's 150.
    const limited = project();
    writeFileSync(path.join(limited, 'lokal.config.json'), JSON.stringify({ limit: 34 }));
    expect((await evalItemCounts(limited, {})).map((c) => [c.items, c.groups, c.source])).toEqual([[5134, 151, 'full size'], [34, 1, 'full size']]);
    expect(await initCommand(['--ci', 'github'], limited)).toBe(0);
    // 2 part files of 5,134 / 2 + 34 / 2 = 2,584 items: 10,336 s = 172.3 min → 173, + 15 = 188.
    expect((parse(read(limited, '.github/workflows/evals.yml')) as Workflow).jobs.evals!['timeout-minutes']).toBe(188);
  });

  test('with the data in the project, its items are counted with the project\'s settings', async () => {
    const dir = project();
    withFixtureData(dir);
    const multilokoItems = (await loadMultiLoKo(path.join(dir, 'data', 'benchmark_data'), 'dev')).subsets.reduce((sum, s) => sum + s.items.length, 0);
    expect(await evalItemCounts(dir, {})).toEqual([
      { benchmark: 'multiloko', file: 'evals/multiloko.eval.ts', items: multilokoItems, groups: (await loadMultiLoKo(path.join(dir, 'data', 'benchmark_data'), 'dev')).subsets.length, source: 'data' },
      { benchmark: 'kalahi', file: 'evals/kalahi.eval.ts', items: 3, groups: 1, source: 'data' },
    ]);
    // The settings choose the items: a limit per group, a language.
    writeFileSync(path.join(dir, 'lokal.config.json'), JSON.stringify({ limit: 2, multiloko: { languages: ['italian'] } }));
    const italian = (await loadMultiLoKo(path.join(dir, 'data', 'benchmark_data'), 'dev')).subsets.filter((s) => subsetLanguage(s) === 'italian');
    const counted = await evalItemCounts(dir, {});
    expect(counted.map((c) => c.items)).toEqual([italian.reduce((sum, s) => sum + Math.min(2, s.items.length), 0), 2]);
    // By hand: at 0.01 items/s, 1 shard holds both files.
    const items = counted[0]!.items + 2;
    expect(await initCommand(['--ci', 'github', '--shards', '1', '--items-per-second', '0.01'], dir)).toBe(0);
    expect((parse(read(dir, '.github/workflows/evals.yml')) as Workflow).jobs.evals!['timeout-minutes']).toBe(15 + Math.ceil(items / 0.01 / 60));
    expect(read(dir, '.github/workflows/evals.yml')).toContain('counted in the data');
    expect(shardTimeout(items, 0.01)).toEqual({ minutes: 15 + Math.ceil((items * 100) / 60), needed: 15 + Math.ceil((items * 100) / 60), capped: false });
  });

  test('with the data in the project, the workflow counts each part file as the run cuts it (by prompt length), not a cut by count', async () => {
    const dir = project();
    withFixtureData(dir);
    // Each shard's items by the cut's definition: MultiLoKo's fixtures by base prompt length (worked out in
    // test/support), and the 3 Kalahi prompts by count, rank r in part ⌊(r + ½) × 3 / 3⌋ = r: one a part.
    const multiloko = await multilokoFixturePartSizes(3);
    const perPart = multiloko.map((items) => items + 1);
    // A benchmark finds its default data folder from the working directory, as `lokal init` runs in the project;
    // restored at the end: the tests after this one read their own projects from the real working directory.
    const cwd = vi.spyOn(process, 'cwd').mockReturnValue(dir);
    try {
      expect(await initCommand(['--ci', 'github', '--shards', '3', '--items-per-second', '0.01'], dir)).toBe(0);
      const workflow = read(dir, '.github/workflows/evals.yml');
      const largest = Math.max(...perPart);
      expect(workflow).toContain(`The largest shard runs at most ${largest.toLocaleString('en-US')} item`);
      expect((parse(workflow) as Workflow).jobs.evals!['timeout-minutes']).toBe(15 + Math.ceil(largest / 0.01 / 60));
      expect(perPart.reduce((a, b) => a + b, 0)).toBe((await evalItemCounts(dir, {})).reduce((sum, c) => sum + c.items, 0));
    } finally {
      cwd.mockRestore();
    }
  });

  test('--shards n writes n part files, each a part of every benchmark; Vitest\'s --shard gives each shard exactly one, for n from 1 to 64', async () => {
    const dir = project();
    expect(await initCommand(['--ci', 'github', '--shards', '3'], dir)).toBe(0);
    expect(existsSync(path.join(dir, 'evals', 'multiloko.eval.ts'))).toBe(false);
    const second = read(dir, 'evals/part-02-of-03.eval.ts').split('\n');
    expect(second.filter((l) => !l.startsWith('//'))).toEqual([
      "import { benchmarkSuite } from 'vitest-lokal/vitest';",
      "import { multiloko, kalahi } from 'vitest-lokal/benchmarks';",
      'await benchmarkSuite(multiloko, { part: [2, 3] });',
      'await benchmarkSuite(kalahi, { part: [2, 3] });',
      '',
    ]);
    for (const n of [1, 2, 3, 4, 16, 64]) {
      const files = Object.keys(projectFiles(n)).filter((f) => f.startsWith('evals/'));
      expect(files).toHaveLength(n === 1 ? 2 : n);
      // Vitest 4's BaseSequencer.shard: files sorted by the SHA-1 of their root-relative path, cut into runs of
      // ⌊files / shards⌋ and, for the first files % shards shards, one more: n files over n shards are one each.
      const sorted = files.map((f) => createHash('sha1').update(`/${f}`).digest('hex')).sort();
      const base = Math.floor(files.length / n);
      const sizes = Array.from({ length: n }, (_, i) => base + (i < files.length % n ? 1 : 0));
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(sorted.length);
      if (n > 1) expect(new Set(sizes)).toEqual(new Set([1]));
    }
  });

  test('part sizes worked out two ways: by the count formula and by cutting that many ids', () => {
    for (const [items, n] of [[37_750, 64], [150, 64], [21, 64], [10, 4], [7, 3], [0, 4]] as const) {
      const parts = assignParts(Array.from({ length: items }, (_, i) => `i${i}`), n);
      for (let k = 1; k <= n; k++) expect(partSize(items, k, n), `${items} in ${n}, part ${k}`).toBe(parts.filter((p) => p === k - 1).length);
    }
    // By hand: 150 prompts in 64 parts, 22 of 3 and 42 of 2; 10 in 4: 2, 3, 2, 3.
    expect(Array.from({ length: 4 }, (_, i) => partSize(10, i + 1, 4))).toEqual([2, 3, 2, 3]);
    const kalahi = Array.from({ length: 64 }, (_, i) => partSize(150, i + 1, 64));
    expect([kalahi.filter((s) => s === 3).length, kalahi.filter((s) => s === 2).length]).toEqual([22, 42]);
  });

  test('an eval file of a benchmark beside the part files is named: it would run its benchmark whole in one shard', async () => {
    const dir = project();
    mkdirSync(path.join(dir, 'evals'));
    writeFileSync(path.join(dir, 'evals', 'multiloko.eval.ts'), '// an earlier init\n');
    expect(await initCommand(['--ci', 'github', '--shards', '4'], dir)).toBe(0);
    expect(cli.out).toContain('lokal init: evals/multiloko.eval.ts runs its benchmark whole in one shard, besides the part files: delete it to run each item once\n');
    cli.out = '';
    expect(await initCommand(['--ci', 'github', '--shards', '1'], project())).toBe(0);
    expect(cli.out).not.toContain('whole in one shard');
  });

  test('the default is 2 shards', async () => {
    const { yaml } = await workflow([]);
    expect(yaml.jobs.evals!.strategy!.matrix.shard).toEqual([1, 2]);
    expect(yaml.jobs.evals!.steps.some((s) => s.run === 'npx vitest run --shard=${{ matrix.shard }}/2 --reporter=blob --passWithNoTests')).toBe(true);
  });

  test('the OpenAI-compatible server step is commented out, and uncommented it is a step running vLLM\'s container before the evals', async () => {
    const { text, yaml } = await workflow([]);
    expect(JSON.stringify(yaml)).not.toContain('vllm');
    const lines = text.split('\n');
    const start = lines.findIndex((l) => l.includes(VLLM_STEP_MARKER));
    expect(start).toBeGreaterThan(0);
    // The commented step: the lines after the two explanatory ones, up to the next uncommented line.
    let end = start + 2;
    while (lines[end]!.trimStart().startsWith('#')) end++;
    const uncommented = [...lines.slice(0, start), ...lines.slice(start + 2, end).map((l) => l.replace(/^(\s*)# /u, '$1')), ...lines.slice(end)].join('\n');
    const steps = (parse(uncommented) as Workflow).jobs.evals!.steps;
    const server = steps.findIndex((s) => s.run?.includes('vllm/vllm-openai'));
    expect(server).toBeGreaterThan(0);
    expect(steps[server]!.run).toMatch(/docker run -d .*-p 8000:8000 vllm\/vllm-openai:\S+ --model \S+/u);
    expect(steps[server]!.run).toContain('http://localhost:8000/v1/models');
    expect(server).toBeLessThan(steps.findIndex((s) => s.run?.includes('--shard')));
    expect(text).toContain('OPENAI_BASE_URL: http://localhost:8000/v1');
  });
});
