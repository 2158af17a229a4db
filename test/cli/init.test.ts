// `lokal init`, in process against temporary projects: the files of the README's setup and
// lokal.config.json, never an overwrite (skips listed), the ES-module check, and --ci github's workflow parsed as YAML
// with its jobs and steps checked — the optional vLLM step too, once uncommented. test/cli/initRun.test.ts runs what
// it writes.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { parse } from 'yaml';
import { KALAHI_SETTINGS } from '../../src/benchmarks/kalahi/settings.ts';
import { MULTILOKO_SETTINGS } from '../../src/benchmarks/multiloko/settings.ts';
import { initCommand } from '../../src/cli/init.ts';
import { resolveSettingsTree } from '../../src/core/settings.ts';
import { VLLM_STEP_MARKER } from '../../src/init/githubWorkflow.ts';
import { hasMkfifo, makeFifo } from '../support/fifo.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(manifest: object | string | null = { name: 'p', type: 'module' }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lokal-init-'));
  dirs.push(dir);
  if (manifest !== null) writeFileSync(path.join(dir, 'package.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  return dir;
}

let out: string;
let err: string;
beforeEach(() => {
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
});
afterEach(() => vi.restoreAllMocks());

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');

describe('lokal init', () => {
  test.skipIf(!hasMkfifo)('a FIFO as package.json is refused at once, naming it; nothing is written', { timeout: 10_000 }, async () => {
    const dir = project(null);
    const manifest = makeFifo(path.join(dir, 'package.json'));
    expect(await initCommand([], dir)).toBe(1);
    expect(err).toBe(`lokal init: ${manifest}: cannot read package.json: it is a FIFO (named pipe); only regular files are read\n`);
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
    expect(tree).toMatchObject({ model: 'transformers:onnx-community/Qwen2.5-0.5B-Instruct', multiloko: { data: 'data' }, kalahi: { data: 'data/kalahi' } });
    expect(existsSync(path.join(dir, '.github'))).toBe(false);
    // docs/setup.md shows the file as written.
    const documented = /## `lokal init`[\s\S]*?```json\n([\s\S]*?)```/u.exec(readFileSync(new URL('../../docs/setup.md', import.meta.url), 'utf8'))![1]!;
    expect(JSON.parse(read(dir, 'lokal.config.json'))).toEqual(JSON.parse(documented));
    expect(out.split('\n').filter((l) => l.startsWith('lokal init: wrote'))).toEqual(['vitest.config.ts', 'evals/multiloko.eval.ts', 'evals/kalahi.eval.ts', 'lokal.config.json'].map((f) => `lokal init: wrote ${f}`));
  });

  test('never overwrites: existing files are kept byte for byte and listed as skipped; the rest is written', async () => {
    const dir = project();
    mkdirSync(path.join(dir, 'evals'));
    writeFileSync(path.join(dir, 'evals', 'kalahi.eval.ts'), '// mine\n');
    writeFileSync(path.join(dir, 'lokal.config.json'), '{ "limit": 3 }\n');
    expect(await initCommand(['--ci', 'github'], dir)).toBe(0);
    expect(read(dir, 'evals/kalahi.eval.ts')).toBe('// mine\n');
    expect(read(dir, 'lokal.config.json')).toBe('{ "limit": 3 }\n');
    expect(out).toContain('lokal init: skipped evals/kalahi.eval.ts (it exists; not overwritten)\nlokal init: skipped lokal.config.json (it exists; not overwritten)\n');
    expect(out).toContain('lokal init: wrote .github/workflows/evals.yml\n');
    // A second init skips everything and changes nothing.
    const before = read(dir, '.github/workflows/evals.yml');
    out = '';
    expect(await initCommand(['--ci', 'github'], dir)).toBe(0);
    expect(out.match(/skipped/gu)).toHaveLength(5);
    expect(out).not.toContain('wrote');
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
    expect(err).toMatch(message);
    expect(existsSync(path.join(dir, 'vitest.config.ts'))).toBe(false);
    expect(existsSync(path.join(dir, '.github'))).toBe(false);
  });

  test('bad options are usage errors naming the option', async () => {
    const dir = project();
    await expect(initCommand(['--ci', 'gitlab'], dir)).rejects.toThrow('--ci must be "github" (got "gitlab")');
    await expect(initCommand(['--ci', 'github', '--shards', '0'], dir)).rejects.toThrow('--shards must be an integer from 1 to 64 (got "0")');
    await expect(initCommand(['--ci', 'github', '--shards', '2.5'], dir)).rejects.toThrow('--shards must be an integer');
    await expect(initCommand(['--shards', '3'], dir)).rejects.toThrow('--shards applies to the CI workflow');
    await expect(initCommand(['evals'], dir)).rejects.toThrow('unexpected argument "evals"');
    expect(existsSync(path.join(dir, 'vitest.config.ts'))).toBe(false);
  });
});

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  env: Record<string, string>;
  jobs: Record<string, { needs?: string; if?: string; strategy?: { 'fail-fast': boolean; matrix: { shard: number[] } }; steps: Step[] }>;
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
    const runs = (steps: Step[]) => steps.filter((s) => s.run).map((s) => s.run!.trim());
    expect(runs(shards.steps)).toEqual(['npm ci', 'npx lokal data fetch', 'npx vitest run --shard=${{ matrix.shard }}/3 --reporter=blob']);
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

  test('the default is 2 shards', async () => {
    const { yaml } = await workflow([]);
    expect(yaml.jobs.evals!.strategy!.matrix.shard).toEqual([1, 2]);
    expect(yaml.jobs.evals!.steps.some((s) => s.run === 'npx vitest run --shard=${{ matrix.shard }}/2 --reporter=blob')).toBe(true);
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
