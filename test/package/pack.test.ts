// The package as a user gets it. A copy of this checkout is packed with `npm pack` (its prepack script builds dist/;
// test/support/installedPackage.ts packs once for every test that needs the built package), and a fresh project is
// set up with the README's own commands ("Install": npm init, the light install of the tarball beside vitest and
// @vitest/ui). Without the optional ONNX runtime there: the tarball's file
// list, the export map's targets, plain-Node imports, the bin without tsx, `tsc --noEmit` over the user's files, a
// replay run whose exact-match score is known by construction, an OpenAI-compatible run against the fake server,
// a `transformers:` model refused with the install command, and `lokal init` naming that command. Then the README's
// runtime install, and a run on a generated tiny model (MultiLoKo and Kalahi from ../shared/data); then
// node-llama-cpp as the README installs it, and the same model as model.gguf through llama: (results, response
// cache, fingerprint, lokal compare).
// Needs the npm registry (skipped, saying so, when npm cannot reach it); takes a few minutes.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadKalahi } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { scoreKalahiFiles } from '../../src/benchmarks/kalahi/results/score.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import { readPredictions } from '../../src/models/predictions.ts';
import { scoreMultiLoKoPredictions, scoreOutputJson } from '../../src/benchmarks/multiloko/metrics/score.ts';
import { scoreFingerprint } from '../../src/benchmarks/multiloko/run/fingerprint.ts';
import { extractAnswer, renderMultilokoPrompt, type RenderedMultilokoChatPrompt } from '../../src/benchmarks/multiloko/prompts/index.ts';
import { scoreExample } from '../../src/metrics/scoreExample.ts';
import { startFakeOpenAIServer, toyAnswer, toyRenderChat } from '../support/fakeOpenAIServer.ts';
import { writeTinyModel } from '../support/tinyModel.ts';
import { writeTinyModelGguf } from '../support/tinyModelGguf.ts';
import { packedPackage, userEnvironment } from '../support/installedPackage.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MULTILOKO = path.resolve(REPO_ROOT, '../shared/data/multiloko/benchmark_data.tar.xz.enc');
const KALAHI = path.resolve(REPO_ROOT, '../shared/data/kalahi');
const haveData = existsSync(MULTILOKO) && existsSync(path.join(KALAHI, 'filipino.csv'));

interface RepoPackage {
  name: string;
  files: string[];
  exports: Record<string, { source: string; types: string; default: string }>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
}
const repoPackage = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as RepoPackage;
const VITEST = repoPackage.peerDependencies.vitest!;
const VITEST_UI = repoPackage.peerDependencies['@vitest/ui']!;
// The ONNX runtime's install command, as a missing-runtime message must give it (package.json's peer versions).
const RUNTIME_INSTALL = `ONNXRUNTIME_NODE_INSTALL=skip npm install --save-dev @huggingface/transformers@${repoPackage.peerDependencies['@huggingface/transformers']} onnxruntime-node@${repoPackage.peerDependencies['onnxruntime-node']}`;

// The user's whole setup, as in the README.
const USER_FILES: Record<string, string> = {
  'vitest.config.ts': [
    "import { defineConfig } from 'vitest/config';",
    "import { lokalEvals } from 'vitest-lokal/config';",
    'export default defineConfig({ test: lokalEvals() });',
  ].join('\n'),
  'evals/multiloko.eval.ts': [
    "import { benchmarkSuite } from 'vitest-lokal/vitest';",
    "import { multiloko } from 'vitest-lokal/benchmarks';",
    'await benchmarkSuite(multiloko);',
  ].join('\n'),
  'evals/kalahi.eval.ts': [
    "import { benchmarkSuite } from 'vitest-lokal/vitest';",
    "import { kalahi } from 'vitest-lokal/benchmarks';",
    'await benchmarkSuite(kalahi);',
  ].join('\n'),
};

/** The shell commands of the README's "Install" code blocks: [light install, runtime install]. */
function readmeInstallBlocks(): string[][] {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Install');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/gu)].map((m) => m[1]!.split('\n').flatMap((line) => line.split(' && ')).map((c) => c.trim()).filter(Boolean));
  return blocks.slice(0, 2);
}

/** The code blocks of docs/benchmarks.md and docs/define-benchmark.md in a language (`sh`: each block's lines). */
function docsBlocks(language: string): string[] {
  const text = ['benchmarks.md', 'define-benchmark.md'].map((page) => readFileSync(path.join(REPO_ROOT, 'docs', page), 'utf8')).join('\n');
  return [...text.matchAll(new RegExp(`\`\`\`${language}\n([\\s\\S]*?)\`\`\``, 'gu'))].map((m) => m[1]!);
}
const docsShellBlocks = () => docsBlocks('sh').map((block) => block.split('\n').filter((line) => line.trim() !== ''));
const docsTypeScriptBlocks = () => docsBlocks('ts');

/** A README command as [env, program, args]: leading NAME=value words are its environment. */
function parseCommand(command: string): { env: Record<string, string>; program: string; args: string[] } {
  const words = command.split(/\s+/u);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/u.test(words[0]!)) {
    const [name, value] = words.shift()!.split('=') as [string, string];
    env[name] = value;
  }
  return { env, program: words[0]!, args: words.slice(1) };
}

// A tsconfig a user would start from (strict, Node ESM resolution), library declarations checked too.
const USER_TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
  include: ['vitest.config.ts', 'evals', 'typecheck'],
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The environment for child npm, node and vitest processes: a user's (userEnvironment), non-interactive. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...userEnvironment(), CI: '1', NO_COLOR: '1', LOKAL_REDACT: 'off', ONNXRUNTIME_NODE_INSTALL: 'skip', ...extra };
}

function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}, timeoutMs = 300_000): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started) });
    });
  });
}

const show = (r: Run) => `exit ${r.code} after ${r.ms} ms\n--- stdout\n${r.stdout.slice(-6000)}\n--- stderr\n${r.stderr.slice(-4000)}`;

/** Why npm cannot reach its registry, or undefined when it can. */
function registryProblem(): string | undefined {
  const ping = spawnSync('npm', ['ping'], { encoding: 'utf8', timeout: 30_000, env: childEnv() });
  if (ping.status === 0) return undefined;
  const said = `${ping.stderr ?? ''}${ping.stdout ?? ''}`.trim().split('\n').filter((l) => !/Unknown (project|user) config/.test(l)).pop();
  return `npm cannot reach its registry (npm ping: ${ping.error?.message ?? said ?? `exit ${ping.status}`})`;
}

const problem = registryProblem();
const work = mkdtempSync(path.join(tmpdir(), 'lokal-pack-'));
const project = path.join(work, 'project');
const installed = path.join(project, 'node_modules', repoPackage.name);
let packed: { filename: string; files: Array<{ path: string }> } | undefined;
const timings: Record<string, number> = {};

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  if (Object.keys(timings).length) console.log(`pack test timings (ms): ${JSON.stringify(timings)}`);
});

/** The shipped dataset example copied into the project as its header says (`cp -r node_modules/vitest-lokal/examples/capitals .`). */
function copyExample(): void {
  if (!existsSync(path.join(project, 'capitals'))) cpSync(path.join(installed, 'examples', 'capitals'), path.join(project, 'capitals'), { recursive: true });
}

function setUp(): { filename: string; files: Array<{ path: string }> } {
  if (!packed) throw new Error('packing or installing failed (see the error of beforeAll)');
  return packed;
}

describe.skipIf(problem !== undefined)(problem ? `the packed package (skipped: ${problem})` : 'the packed package in a fresh project', () => {
  beforeAll(async () => {
    // A packed copy, so this checkout's own dist/ is never rebuilt under other tests' feet (shared with them).
    const pack = await packedPackage();
    if (pack.packMs !== undefined) timings.pack = pack.packMs;
    const tarball = pack.tarball;
    expect(existsSync(tarball), `${tarball} after npm pack`).toBe(true);

    // The README's light install, as written, with this tarball for `vitest-lokal` (and this test's own tsc).
    mkdirSync(project);
    const [light] = readmeInstallBlocks();
    expect(light, 'the README\'s install commands').toEqual([
      'npm init -y',
      'npm pkg set type=module',
      `npm install --save-dev vitest-lokal vitest@${VITEST} @vitest/ui@${VITEST_UI}`,
    ]);
    for (const command of light!) {
      const { env, program, args } = parseCommand(command);
      const install = args[0] === 'install';
      const extra = install ? [`typescript@${repoPackage.devDependencies.typescript}`, `@types/node@${repoPackage.devDependencies['@types/node']}`, '--prefer-offline', '--no-audit', '--no-fund'] : [];
      const step = await run(program, [...args.map((a) => (a === repoPackage.name ? tarball : a)), ...extra], project, env, 480_000);
      if (install) timings.install = step.ms;
      expect(step.code, `${command}\n${show(step)}`).toBe(0);
      // Quiet: no npm warning about the package or its dependencies.
      expect(step.stderr, `${command}\n${show(step)}`).not.toMatch(/npm warn/iu);
    }
    expect(JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')).type).toBe('module');
    for (const [file, text] of Object.entries(USER_FILES)) {
      mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      writeFileSync(path.join(project, file), `${text}\n`);
    }
    packed = { filename: path.basename(tarball), files: pack.files };
  }, 900_000);

  test('the tarball holds dist/ (no tests), bin/, examples/, README.md, docs/ and the pages they link to; every export target is in it', () => {
    const files = setUp().files.map((f) => f.path).sort();
    const outside = files.filter((f) => !/^(dist\/(src|reporters|cli)\/|bin\/lokal\.js$|examples\/|README\.md$|data\/README\.md$|docs\/[\w-]+\.(md|png)$|src\/.*\.md$|package\.json$)/.test(f));
    expect(outside).toEqual([]);
    // TypeScript sources only in the examples, which a user copies into a project.
    expect(files.filter((f) => /\.[cm]?ts$/.test(f) && !/\.d\.[cm]?ts$/.test(f) && !f.startsWith('examples/'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('examples/'))).toEqual(['examples/capitals/answers.jsonl', 'examples/capitals/benchmark.ts', 'examples/capitals/capitals.eval.ts', 'examples/capitals/capitals.jsonl', 'examples/capitals/vitest.config.ts']);
    expect(files.filter((f) => /(^|\/)(test|bench|scripts|\.ci)\//.test(f))).toEqual([]);
    // The README's relative links (docs/ pages, the screenshot) and theirs resolve inside the package, so they work
    // where a user reads them: in node_modules, or in an editor's preview.
    const pages = files.filter((f) => f === 'README.md' || /^docs\/[\w-]+\.md$/.test(f));
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/settings.md', 'docs/models.md']));
    const unresolved = pages.flatMap((page) => [...readFileSync(path.join(installed, page), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/gu)]
      .map((m) => m[1]!).filter((link) => !/^[a-z]+:/u.test(link))
      .map((link) => path.posix.normalize(path.posix.join(path.posix.dirname(page), link)))
      .filter((target) => !files.includes(target)).map((target) => `${page} → ${target}`));
    expect(unresolved).toEqual([]);
    // Data files the modules read beside themselves.
    expect(files).toContain('dist/src/benchmarks/multiloko/prompts/multiloko/prompts.json');
    expect(files).toContain('dist/src/metrics/punkt-english/ortho_context.tab');
    // Each entry of the export map: types and JavaScript shipped, the TypeScript source (repository only) not.
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as RepoPackage;
    expect(Object.keys(manifest.exports)).toEqual(['.', './vitest', './runner', './reporter', './config', './benchmarks']);
    for (const [entry, target] of Object.entries(manifest.exports)) {
      expect(existsSync(path.join(installed, target.types)), `${entry} types ${target.types}`).toBe(true);
      expect(existsSync(path.join(installed, target.default)), `${entry} default ${target.default}`).toBe(true);
      expect(existsSync(path.join(installed, target.source)), `${entry} source ${target.source}`).toBe(false);
    }
    // vitest and @vitest/ui are the user's (peers), and so are the ONNX runtime and node-llama-cpp (optional, loaded on
    // use); build and test tools stay behind.
    const runtime = { '@huggingface/transformers': repoPackage.devDependencies['@huggingface/transformers']!, 'onnxruntime-node': repoPackage.devDependencies['onnxruntime-node']! };
    expect(manifest.peerDependencies).toEqual({ '@vitest/ui': VITEST_UI, vitest: VITEST, ...runtime, 'node-llama-cpp': '3.21.1' });
    expect(manifest.peerDependenciesMeta).toEqual({ '@vitest/ui': { optional: true }, '@huggingface/transformers': { optional: true }, 'onnxruntime-node': { optional: true }, 'node-llama-cpp': { optional: true } });
    for (const name of ['vitest', '@vitest/ui', 'tsx', 'onnx-proto', 'typescript', 'node-llama-cpp', ...Object.keys(runtime)]) expect(manifest.dependencies).not.toHaveProperty(name);
    expect(existsSync(path.join(project, 'node_modules', 'tsx')), 'tsx installed in the user project').toBe(false);
    // The light install: no ONNX runtime (nor transformers.js, nor sharp), no node-llama-cpp in the user's project.
    for (const name of [...Object.keys(runtime), 'onnxruntime-common', 'sharp', 'node-llama-cpp']) {
      expect(existsSync(path.join(project, 'node_modules', name)), `${name} installed by the light install`).toBe(false);
    }
  });

  test('plain Node imports the package and its config entry; the bin answers --help from dist/', async () => {
    setUp();
    for (const entry of ['vitest-lokal', 'vitest-lokal/config']) {
      const imported = await run(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(entry)});`], project);
      expect(imported.code, `${entry}\n${show(imported)}`).toBe(0);
    }
    const withNode = await run(process.execPath, ['-e', "import('vitest-lokal')"], project);
    expect(withNode.code, show(withNode)).toBe(0);
    const help = await run('npx', ['lokal', '--help'], project);
    expect(help.code, show(help)).toBe(0);
    expect(help.stdout).toMatch(/^usage: lokal <command>/);
    // The bin of the installed package: no src/ beside it, so it runs dist/ (and tsx is not there to run anything else).
    const bin = path.join(installed, 'bin', 'lokal.js');
    const direct = await run(process.execPath, [bin, '--help'], project);
    expect(direct.code, show(direct)).toBe(0);
    timings.binHelp = direct.ms;
    const unknown = await run(process.execPath, [bin, 'frobnicate'], project);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('lokal: unknown command "frobnicate"');
    // lokal doctor is a command file of its own (dist/cli/doctor.js): on a replay file it needs no model at all.
    const replay = path.join(project, 'doctor-predictions.jsonl');
    writeFileSync(replay, '{"language":"italian","id":"1","prediction":"Roma"}\n');
    const doctor = await run(process.execPath, [bin, 'doctor', '--model', `replay:${replay}`], project);
    expect(doctor.code, show(doctor)).toBe(0);
    expect(doctor.stdout).toContain(`lokal doctor: replay:${replay}\nsupports:\n`);
    expect(doctor.stdout).toContain('  ✗ Kalahi MC (either protocol) — a predictions file holds no scores and no replies to lettered questions\n');
  }, 120_000);

  test('the installed bin (the bundled CLI) writes what the sources compute: lokal score and lokal kalahi score', async () => {
    setUp();
    const bin = path.join(installed, 'bin', 'lokal.js');
    const fixture = path.join(REPO_ROOT, 'data', 'fixtures', 'multiloko');
    const dataset = await loadMultiLoKo(fixture, 'dev');
    // Every item answered with its first target but for every third, answered wrong, and one with a stray space.
    const rows = dataset.subsets.flatMap((s) => s.items.map((item, i) => ({ language: s.key, id: item.id, prediction: i % 3 === 2 ? 'something else' : ` ${item.targets[0]!}` })));
    const predictions = path.join(work, 'bin-predictions.jsonl');
    writeFileSync(predictions, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const out = path.join(work, 'bin-score.json');
    const scored = await run(process.execPath, [bin, 'score', '-d', fixture, '-s', 'dev', '-p', predictions, '-o', out], project);
    expect(scored.code, show(scored)).toBe(0);
    // Its fingerprint names every subset (each has predictions here) and the predictions file with its SHA-256.
    const sha256 = createHash('sha256').update(readFileSync(predictions)).digest('hex');
    const expected = scoreOutputJson(scoreMultiLoKoPredictions(dataset, await readPredictions(predictions)), [], { fingerprint: scoreFingerprint(dataset.subsets, { file: predictions, sha256 }) });
    expect(readFileSync(out, 'utf8')).toBe(`${expected}\n`);
    // On worker threads (the bundled dist/cli/scoreWorker.js beside the command), the same file.
    const threaded = await run(process.execPath, [bin, 'score', '-d', fixture, '-s', 'dev', '-p', predictions, '-o', out, '--threads', '3'], project);
    expect(threaded.code, show(threaded)).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(`${expected}\n`);
    if (!haveData) return;
    // Kalahi's generation metrics read Punkt's parameters beside their module (dist/src), which the bundle imports.
    const csv = path.join(KALAHI, 'filipino.csv');
    const kalahiRows = (await loadKalahi(csv)).rows.slice(0, 6);
    const responses = path.join(work, 'bin-responses.jsonl');
    writeFileSync(responses, kalahiRows.map((r, i) => JSON.stringify({ prompt_variation_id: r.promptVariationId, response: i % 2 ? r.bestAnswer : 'Hindi ko alam. Siguro po.' })).join('\n') + '\n');
    const kalahiOut = path.join(work, 'bin-kalahi.json');
    const env = { LOKAL_BERTSCORE_MODEL: 'off', LOKAL_BLEURT_MODEL: 'off' };
    const kalahiRun = await run(process.execPath, [bin, 'kalahi', 'score', '-i', csv, '-r', responses, '-o', kalahiOut], project, env);
    expect(kalahiRun.code, show(kalahiRun)).toBe(0);
    const kalahiExpected = await scoreKalahiFiles(csv, responses, { bertscoreModel: 'off', bleurtModel: 'off', env: {} });
    expect(JSON.parse(readFileSync(kalahiOut, 'utf8'))).toEqual(JSON.parse(JSON.stringify(kalahiExpected)));
  }, 120_000);

  test('the shipped dataset example (examples/capitals, 10 questions): type-checked, run on its replay file with its tests, gates, table, results, report section and step summary; then a 5-item drop against it as a baseline is "too few items to tell"', async () => {
    setUp();
    // docs/benchmarks.md's commands as written: copy the example, run it on its replay file (this test's output
    // folder, gates and step summary added by environment), write a replay file of one's own.
    const [copyAndRun, replayRows] = docsShellBlocks();
    expect(copyAndRun).toEqual(['cp -r node_modules/vitest-lokal/examples/capitals .', 'LOKAL_MODEL=replay:capitals/answers.jsonl npx vitest run --config capitals/vitest.config.ts']);
    const copied = await run('sh', ['-c', copyAndRun![0]!], project);
    expect(copied.code, show(copied)).toBe(0);
    const written = await run('sh', ['-c', replayRows![0]!], project);
    expect(written.code, show(written)).toBe(0);
    expect(readFileSync(path.join(project, 'my-answers.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { language: 'capitals', id: 1, prediction: 'Rome' },
      { language: 'capitals', id: 2, prediction: 'Paris' },
    ]);
    // The example as a user's strict project checks it (with the .ts imports its files use).
    writeFileSync(path.join(project, 'tsconfig.capitals.json'), `${JSON.stringify({ compilerOptions: { ...USER_TSCONFIG.compilerOptions, allowImportingTsExtensions: true }, include: ['capitals'] }, null, 2)}\n`);
    const tsc = await run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.capitals.json'], project);
    expect(tsc.code, show(tsc)).toBe(0);

    const output = path.join(work, 'capitals-results');
    const summary = path.join(work, 'capitals-summary.md');
    const first = await run('sh', ['-c', copyAndRun![1]!], project, {
      LOKAL_OUTPUT: output,
      LOKAL_THRESHOLDS: 'capitals.em>=0.9,capitals.asia.f1>=0.9',
      GITHUB_STEP_SUMMARY: summary,
    });
    timings.datasetReplayRun = first.ms;
    expect(first.code, show(first)).toBe(0);
    // 10 item tests, a gate test per topic and the summary test.
    expect(first.stdout).toMatch(/Tests +13 passed \(13\)/u);
    expect(first.stdout).toMatch(/europe +5 +1\.000 \[0\.566, 1\.000\]/u);
    expect(first.stdout).toContain('✓ capitals all EM = 1, meets ≥ 0.9000 (gate capitals.em>=0.9)');
    expect(first.stdout).toContain('✓ capitals asia F1 = 1, meets ≥ 0.9000 (gate capitals.asia.f1>=0.9)');
    const results = JSON.parse(readFileSync(path.join(output, 'capitals.json'), 'utf8'));
    expect(results.groups.map((g: { key: string; records: unknown[] }) => [g.key, g.records.length])).toEqual([['europe', 5], ['asia', 5]]);
    expect(results.overall.figures.em.value).toBe(1);
    expect(results.gates_passed).toBe(true);
    expect(readFileSync(path.join(output, 'report.html'), 'utf8')).toContain('<section id="bench-capitals" data-benchmark="capitals">');
    expect(readFileSync(summary, 'utf8')).toContain('| ✅ met | capitals.em&gt;=0.9 | 1.0000 | ≥ 0.9000 |');

    // Five of the ten answered wrong, the first run as the baseline: McNemar's exact p = 2·0.5⁵ = 0.0625 — a drop this
    // many items cannot tell from noise, and the gate says so rather than failing.
    const answers = readFileSync(path.join(project, 'capitals', 'answers.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: number });
    const dropped = path.join(work, 'capitals-dropped.jsonl');
    writeFileSync(dropped, answers.map((row) => JSON.stringify([1, 3, 6, 8, 10].includes(row.id) ? { ...row, prediction: 'I do not know' } : row)).join('\n') + '\n');
    const second = await run('npx', ['vitest', 'run', '--config', 'capitals/vitest.config.ts'], project, {
      LOKAL_MODEL: `replay:${dropped}`,
      LOKAL_OUTPUT: path.join(work, 'capitals-dropped-results'),
      LOKAL_BASELINE: path.join(output, 'capitals.json'),
      LOKAL_REPORT: 'off',
    });
    expect(second.code, show(second)).toBe(0);
    expect(second.stdout).toContain('capitals all groups pooled (2) EM vs baseline: Δ −0.500');
    expect(second.stdout).toContain('McNemar exact p = 0.0625');
    expect(second.stdout).toMatch(/no significant change, but too few items to tell: MDE \d\.\d{3} > the 0\.01 margin/u);
  }, 300_000);

  test('tsc --noEmit (strict, NodeNext, skipLibCheck false) passes over the config and eval files, with real types', async () => {
    setUp();
    writeFileSync(path.join(project, 'tsconfig.json'), `${JSON.stringify(USER_TSCONFIG, null, 2)}\n`);
    // One deliberate mistake: the package's types are real (not any), so exactly this line fails.
    mkdirSync(path.join(project, 'typecheck'), { recursive: true });
    writeFileSync(path.join(project, 'typecheck', 'probe.ts'), "import { lokalEvals } from 'vitest-lokal/config';\nexport const include: string = lokalEvals().include;\n");
    // docs/benchmarks.md's and docs/define-benchmark.md's TypeScript blocks (a dataset definition, a whole defineBenchmark
    // with a matcher) compile.
    docsTypeScriptBlocks().forEach((block, i) => writeFileSync(path.join(project, 'typecheck', `docs-benchmarks-${i + 1}.ts`), block));
    // zod comes with the package: a settings shape of one's own needs no install of it.
    writeFileSync(path.join(project, 'typecheck', 'zod.ts'), "import { z } from 'vitest-lokal';\nexport const shape = { greeting: z.string().optional() };\n");
    // The benchmarks' matchers are typed on Vitest's expect once vitest-lokal/vitest is imported (no error here).
    writeFileSync(
      path.join(project, 'typecheck', 'matchers.ts'),
      "import { expect } from 'vitest';\nimport 'vitest-lokal/vitest';\nexport function check(): void {\n  expect('Roma').toExactMatch(['Roma']);\n  expect('Roma').toHaveF1('Roma', { atLeast: 0.5 });\n}\n",
    );
    const tsc = await run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'], project);
    timings.tsc = tsc.ms;
    rmSync(path.join(project, 'typecheck'), { recursive: true, force: true });
    const errors = tsc.stdout.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(errors, show(tsc)).toHaveLength(1);
    expect(errors[0]).toMatch(/^typecheck\/probe\.ts\(2,\d+\): error TS2322: Type 'string\[\]' is not assignable to type 'string'/);
  }, 180_000);

  describe.skipIf(!haveData)(haveData ? 'npx vitest run' : `npx vitest run (skipped: no data at ${MULTILOKO} and ${KALAHI})`, () => {
    test('on a replay file (MultiLoKo only): EM is the share of items answered with a target', async () => {
      setUp();
      // Item ids and targets through the package's pure API, in plain Node.
      const listed = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          "import { loadMultiLoKo } from 'vitest-lokal'; const d = await loadMultiLoKo(process.argv[1], 'dev', { env: {} }); " +
            "process.stdout.write(JSON.stringify(d.subsets.find((s) => s.key === 'italian').items.slice(0, 8).map((i) => ({ id: i.id, targets: i.targets }))));",
          MULTILOKO,
        ],
        project,
      );
      expect(listed.code, show(listed)).toBe(0);
      const items = JSON.parse(listed.stdout) as Array<{ id: string | number; targets: string[] }>;
      expect(items).toHaveLength(8);
      // Five of eight answered with their first target, two wrong, the last one missing: EM 5/8, F1 5/8.
      const right = new Set([0, 1, 3, 4, 6]);
      const rows = items.slice(0, 7).map((item, i) => ({ language: 'italian', id: item.id, prediction: right.has(i) ? item.targets[0]! : 'xyzzy plugh' }));
      const predictions = path.join(work, 'predictions.jsonl');
      writeFileSync(predictions, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
      rmSync(path.join(project, 'results'), { recursive: true, force: true });

      // The Kalahi eval file is left out by the path filter (a replay file has no log-probabilities for its MC task).
      const vitest = await run('npx', ['vitest', 'run', 'evals/multiloko.eval.ts'], project, {
        LOKAL_MODEL: `replay:${predictions}`,
        LOKAL_MULTILOKO: MULTILOKO,
        LOKAL_LIMIT: '8',
      });
      timings.replayRun = vitest.ms;
      expect(vitest.code, show(vitest)).toBe(0);
      expect(vitest.stdout).toMatch(/Test Files\s+1 passed \(1\)/);
      expect(vitest.stdout).toMatch(/\| Model +\| Average EM \| +Gap \| MTE \| Min EM \| Max EM \|/);
      expect(vitest.stdout).toMatch(/\| replay:\S+ +\| +62\.50 ± – \| +0\.00 \| +– \| +62\.50 \| +62\.50 \|/);
      expect(vitest.stdout).toMatch(/\| italian +\| 62\.50 \|/);
      // EM 5 of 8 with its Wilson interval: centre (0.625 + z²/16)/(1 + z²/8) = 0.584452, half-width 0.278708.
      // F1 (0/1 here) with its quasi-Wilson interval: s² = 1.875/7, k = t(0.975, 7)²·s²/(8·0.625·0.375), roots of
      // (1 + k)μ² − (1.25 + k)μ + 0.625² = 0: [0.2421, 0.8968].
      expect(vitest.stdout).toMatch(/italian · local +8 \(1∅\) +0\.625 +\[0\.306, 0\.863\] +0\.625 \[0\.242, 0\.897\]/);

      const results = JSON.parse(readFileSync(path.join(project, 'results', 'multiloko.json'), 'utf8'));
      const italian = results.italian;
      expect(items.map((item) => italian[String(item.id)].em)).toEqual([1, 1, 0, 1, 1, 0, 1, 0]);
      expect(italian[String(items[7]!.id)].missing).toBe(true);
      expect(italian.em).toBe(5 / 8);
      expect(italian.f1).toBe(5 / 8);
      expect(results.summary.items).toEqual({ selected: 8, scored: 8, missing: 1, failed: 0, skipped: 0, cached: 0 });
      expect(results.summary.prompt).toMatchObject({ mode: 'none' });
      expect(results.summary.model_description).toMatchObject({ provider: 'replay', model: predictions });
      expect(results.summary.headline).toMatchObject({ languages: 1, em: 5 / 8, em_min: 5 / 8, em_max: 5 / 8, em_gap: 0 });
      expect(results.group_metrics.average_em).toBe(5 / 8);

      // `lokal compare` from the installed (bundled) bin: a run against itself changes nothing.
      const bin = path.join(installed, 'bin', 'lokal.js');
      const compared = await run(process.execPath, [bin, 'compare', path.join('results', 'multiloko.json'), 'results', '--no-html'], project);
      expect(compared.code, show(compared)).toBe(0);
      expect(compared.stdout).toMatch(/italian +62\.50 +62\.50 +0\.00 \(p 1\.000\)/);
    }, 300_000);

    test('an OpenAI-compatible server (the fake one), without the ONNX runtime: both benchmarks run, answers scored as their definition says', async () => {
      setUp();
      const server = await startFakeOpenAIServer();
      try {
        rmSync(path.join(project, 'results'), { recursive: true, force: true });
        const vitest = await run('npx', ['vitest', 'run'], project, {
          LOKAL_MODEL: 'openai:toy-model',
          OPENAI_BASE_URL: server.url,
          LOKAL_MULTILOKO: MULTILOKO,
          LOKAL_KALAHI: KALAHI,
          LOKAL_LIMIT: '3',
          LOKAL_CACHE: 'off',
        });
        timings.openaiRun = vitest.ms;
        expect(vitest.code, show(vitest)).toBe(0);
        expect(vitest.stdout).toMatch(/Test Files\s+2 passed \(2\)/);
        // Kalahi's learned metrics need the runtime: each is reported once as not computed, with the install command.
        for (const label of ['BERTScore', 'BLEURT']) {
          const lines = vitest.stdout.split('\n').filter((line) => line.includes(`${label} not computed:`));
          expect(lines, show(vitest)).toHaveLength(1);
          expect(lines[0]).toContain(`need @huggingface/transformers and onnxruntime-node, optional dependencies that are not installed (@huggingface/transformers is missing); install them with: ${RUNTIME_INSTALL}`);
        }
        const kalahi = JSON.parse(readFileSync(path.join(project, 'results', 'kalahi.json'), 'utf8'));
        expect(kalahi.variants.full.items).toEqual({ selected: 3, total: 150, recorded: 3, failed: 0, skipped: 0 });
        const results = JSON.parse(readFileSync(path.join(project, 'results', 'multiloko.json'), 'utf8'));
        expect(results.summary.model_description).toMatchObject({ provider: 'openai', model: 'toy-model' });
        expect(results.summary.items).toEqual({ selected: 3, scored: 3, missing: 0, failed: 0, skipped: 0, cached: 0 });
        // The toy model answers the official chat message by its definition; the answer extracted and scored here.
        const italian = (await loadMultiLoKo(MULTILOKO, 'dev')).subsets.find((s) => s.key === 'italian')!.items.slice(0, 3);
        for (const item of italian) {
          const message = (renderMultilokoPrompt({ language: 'italian', item, mode: 'chat' }) as RenderedMultilokoChatPrompt).message;
          const answer = extractAnswer(toyAnswer(toyRenderChat([{ role: 'user', content: message }], true)), { language: 'italian', mode: 'chat' });
          const expected = scoreExample(answer, item.targets);
          expect(results.italian[String(item.id)]).toMatchObject({ prediction: expected.prediction, em: expected.scores.em, f1: expected.scores.f1 });
        }
      } finally {
        await server.close();
      }
    }, 300_000);

    test('a transformers: model without the ONNX runtime fails at collection with one line giving the install command', async () => {
      setUp();
      const model = path.join(work, 'absent-runtime-model');
      writeTinyModel(model, { layers: 1, hidden: 32, vocab: 320, seed: 3 });
      const vitest = await run('npx', ['vitest', 'run', 'evals/multiloko.eval.ts'], project, { LOKAL_MODEL: `transformers:${model}`, LOKAL_MULTILOKO: MULTILOKO, LOKAL_LIMIT: '3' });
      expect(vitest.code, show(vitest)).toBe(1);
      const output = `${vitest.stdout}\n${vitest.stderr}`;
      const lines = output.split('\n').filter((line) => line.includes(RUNTIME_INSTALL));
      expect(lines, show(vitest)).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`LOKAL_MODEL=transformers:\\S+ cannot be used: transformers: models and the BERTScore/BLEURT metrics need @huggingface/transformers and onnxruntime-node`, 'u'));
      expect(output, show(vitest)).not.toMatch(/Cannot find (package|module)|ERR_MODULE_NOT_FOUND/u);
      expect(vitest.stdout).toMatch(/Tests +no tests/u);
    }, 300_000);

    test('`lokal init --ci github` after the light install: one line saying what the default model needs installed', async () => {
      setUp();
      // A project of its own under this one: the light install's node_modules is its parent's, as in a workspace.
      const sub = path.join(project, 'init-light');
      mkdirSync(sub);
      writeFileSync(path.join(sub, 'package.json'), JSON.stringify({ name: 'init-light', private: true, type: 'module' }));
      const init = await run(process.execPath, [path.join(installed, 'bin', 'lokal.js'), 'init', '--ci', 'github'], sub);
      expect(init.code, show(init)).toBe(0);
      const lines = init.stdout.split('\n').filter((line) => line.includes(RUNTIME_INSTALL));
      expect(lines, show(init)).toHaveLength(1);
      expect(lines[0]).toMatch(/^lokal init: the model transformers:\S+ needs @huggingface\/transformers and onnxruntime-node .*replay:.*openai:/u);
      expect(existsSync(path.join(sub, '.github', 'workflows', 'evals.yml'))).toBe(true);
      expect(readFileSync(path.join(sub, '.gitignore'), 'utf8')).toContain('results/');
    }, 120_000);

    test('with the runtime installed as the README says: a generated tiny model runs MultiLoKo and Kalahi, with their tables and results', async () => {
      setUp();
      const [, runtimeBlock] = readmeInstallBlocks();
      // node-llama-cpp (llama: models) has an install line of its own in docs/models.md; this block is the ONNX runtime's.
      const llamaOnly = (name: string) => name === 'node-llama-cpp';
      const runtimePackages = Object.entries(repoPackage.peerDependencies).filter(([name]) => !name.includes('vitest') && !llamaOnly(name)).map(([name, version]) => `${name}@${version}`);
      expect(runtimeBlock).toEqual([
        // The install scripts this repository's own allowScripts denies, denied in the user's project too.
        `npm pkg set ${Object.entries(repoPackage.allowScripts).filter(([name, allowed]) => !allowed && !llamaOnly(name)).map(([name]) => `allowScripts.${name}=false`).join(' ')} --json`,
        `ONNXRUNTIME_NODE_INSTALL=skip npm install --save-dev ${runtimePackages.join(' ')}`,
      ]);
      for (const command of runtimeBlock!) {
        const { env, program, args } = parseCommand(command);
        const install = args[0] === 'install';
        const step = await run(program, [...args, ...(install ? ['--prefer-offline', '--no-audit', '--no-fund'] : [])], project, env, 480_000);
        if (install) timings.runtimeInstall = step.ms;
        expect(step.code, `${command}\n${show(step)}`).toBe(0);
        expect(step.stderr, `${command}\n${show(step)}`).not.toMatch(/npm warn/iu);
      }
      const model = path.join(work, 'tiny-model');
      writeTinyModel(model, { seed: 3 });
      rmSync(path.join(project, 'results'), { recursive: true, force: true });
      const vitest = await run('npx', ['vitest', 'run'], project, {
        LOKAL_MODEL: `transformers:${model}`,
        LOKAL_MULTILOKO: MULTILOKO,
        LOKAL_KALAHI: KALAHI,
        LOKAL_LIMIT: '3',
        LOKAL_OFFLINE: '1',
      });
      timings.tinyModelRun = vitest.ms;
      expect(vitest.code, show(vitest)).toBe(0);
      expect(vitest.stdout).toMatch(/Test Files\s+2 passed \(2\)/);
      // MultiLoKo: the leaderboard in the official README's layout, then the per-language table.
      expect(vitest.stdout).toMatch(/\| Model +\| Average EM \| +Gap \| MTE \| Min EM \| Max EM \|/);
      expect(vitest.stdout).toMatch(new RegExp(`\\| transformers:${model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +\\| +\\d+\\.\\d\\d ± – \\|`));
      expect(vitest.stdout).toMatch(/\| italian +\| +\d+\.\d\d \|/);
      // Kalahi: the published columns.
      expect(vitest.stdout).toMatch(/Kalahi · full · 3 of 150 prompts · transformers:/);
      expect(vitest.stdout).toMatch(/multiple choice +prompts +MC1 +MC2 +MC2 \(normalised\) +MC3/);
      // Without downloads the learned metrics are not computed, but for want of a model, not of a module.
      expect(vitest.stdout + vitest.stderr).not.toMatch(/Cannot find (module|package)/);

      const multiloko = JSON.parse(readFileSync(path.join(project, 'results', 'multiloko.json'), 'utf8'));
      expect(Object.keys(multiloko)).toEqual(['italian', 'group_metrics', 'summary', 'lokal']);
      const ids = Object.keys(multiloko.italian).filter((k) => typeof multiloko.italian[k] === 'object');
      expect(ids).toHaveLength(3);
      const ems = ids.map((id) => multiloko.italian[id].em as number);
      expect(multiloko.italian.em).toBe(ems.reduce((a, b) => a + b, 0) / 3);
      expect(multiloko.summary.items).toEqual({ selected: 3, scored: 3, missing: 0, failed: 0, skipped: 0, cached: 0 });
      expect(multiloko.summary.model_description).toMatchObject({ provider: 'transformers' });
      expect(multiloko.summary.headline).toMatchObject({ languages: 1, em: multiloko.italian.em });

      const kalahi = JSON.parse(readFileSync(path.join(project, 'results', 'kalahi.json'), 'utf8'));
      expect(Object.keys(kalahi.variants)).toEqual(['full']);
      const full = kalahi.variants.full;
      expect(full.tasks).toEqual(['mc', 'generation']);
      expect(full.items).toEqual({ selected: 3, total: 150, recorded: 3, failed: 0, skipped: 0 });
      expect(full.records).toHaveLength(3);
      expect(full.table.mc).toEqual({ MC1: full.mc.mc1, MC2: full.mc.mc2 });
      expect(full.mc.mc1).toBeGreaterThanOrEqual(0);
      expect(full.mc.mc1).toBeLessThanOrEqual(1);
      expect(kalahi.gates_passed).toBe(true);
    }, 300_000);

    test('the dataset example on the tiny model: its item tests and results, the prompt with its few-shot row recorded, and the response cache answering a second run', async () => {
      setUp();
      copyExample();
      const model = path.join(work, 'tiny-model');
      if (!existsSync(model)) writeTinyModel(model, { seed: 3 });
      const env = { LOKAL_MODEL: `transformers:${model}`, LOKAL_OFFLINE: '1', LOKAL_OUTPUT: path.join(work, 'capitals-tiny'), LOKAL_REPORT: 'off', LOKAL_CACHE_FILE: path.join(work, 'capitals-cache.jsonl') };
      const first = await run('npx', ['vitest', 'run', '--config', 'capitals/vitest.config.ts'], project, env);
      timings.datasetTinyRun = first.ms;
      expect(first.code, show(first)).toBe(0);
      expect(first.stdout).toMatch(/Tests +13 passed \(13\)/u);
      const results = JSON.parse(readFileSync(path.join(work, 'capitals-tiny', 'capitals.json'), 'utf8'));
      expect(results.model).toBe(`transformers:${model}`);
      const records = results.groups.flatMap((g: { records: Array<Record<string, unknown>> }) => g.records);
      expect(records).toHaveLength(10);
      // The completion prompt as fed: the few-shot row answered, then the question (ids 1..10 in data order).
      expect(records[0].model_input).toEqual({ text: 'Question: What is the capital of Germany?\nAnswer: Berlin\n\nQuestion: What is the capital of Italy?\nAnswer:' });
      expect(records.every((r: { cached: boolean }) => r.cached === false)).toBe(true);
      const second = await run('npx', ['vitest', 'run', '--config', 'capitals/vitest.config.ts'], project, env);
      expect(second.code, show(second)).toBe(0);
      const again = JSON.parse(readFileSync(path.join(work, 'capitals-tiny', 'capitals.json'), 'utf8'));
      const cachedRecords = again.groups.flatMap((g: { records: Array<Record<string, unknown>> }) => g.records);
      expect(cachedRecords.every((r: { cached: boolean }) => r.cached === true)).toBe(true);
      expect(cachedRecords.map((r: { answer: string }) => r.answer)).toEqual(records.map((r: { answer: string }) => r.answer));
    }, 300_000);

    test('llama: node-llama-cpp refused with its install line, then installed as the README says: a generated model.gguf runs both benchmarks; a rerun comes from the cache with the same fingerprint', async () => {
      setUp();
      const model = path.join(work, 'tiny-gguf');
      writeTinyModelGguf(model, writeTinyModel(model, { layers: 1, hidden: 32, vocab: 320, seed: 3 }).spec);
      const gguf = path.join(model, 'model.gguf');
      const llamaInstall = `NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm install --save-dev node-llama-cpp@${repoPackage.peerDependencies['node-llama-cpp']}`;
      const env = {
        LOKAL_MODEL: `llama:${gguf}`,
        LOKAL_MULTILOKO: MULTILOKO,
        LOKAL_KALAHI: KALAHI,
        LOKAL_LIMIT: '2',
        LOKAL_BERTSCORE_MODEL: 'off',
        LOKAL_BLEURT_MODEL: 'off',
      };
      // Not installed by the light install: the run stops at collection with one line naming the command.
      const missing = await run('npx', ['vitest', 'run', 'evals/multiloko.eval.ts'], project, env);
      expect(missing.code, show(missing)).toBe(1);
      const lines = `${missing.stdout}\n${missing.stderr}`.split('\n').filter((line) => line.includes(llamaInstall));
      expect(lines, show(missing)).toHaveLength(1);
      expect(lines[0]).toContain(`LOKAL_MODEL=llama:${gguf} cannot be used`);
      // docs/models.md's install commands for llama: models, as written (prebuilt binaries from npm, nothing downloaded,
      // its install script denied as this repository's allowScripts denies it).
      const llamaCommands = ['npm pkg set allowScripts.node-llama-cpp=false --json', llamaInstall];
      expect(repoPackage.allowScripts['node-llama-cpp']).toBe(false);
      const modelsPage = readFileSync(path.join(REPO_ROOT, 'docs', 'models.md'), 'utf8');
      expect(modelsPage).toContain(`(\`${llamaCommands.join(' && ')}\``);
      for (const command of llamaCommands) {
        const { env: installEnv, program, args } = parseCommand(command);
        const install = args[0] === 'install';
        const step = await run(program, [...args, ...(install ? ['--prefer-offline', '--no-audit', '--no-fund'] : [])], project, installEnv, 480_000);
        if (install) timings.llamaInstall = step.ms;
        expect(step.code, `${command}\n${show(step)}`).toBe(0);
        expect(step.stderr, `${command}\n${show(step)}`).not.toMatch(/npm warn/iu);
      }

      const runBoth = async (name: string) => {
        rmSync(path.join(project, 'results'), { recursive: true, force: true });
        const vitest = await run('npx', ['vitest', 'run'], project, env, 600_000);
        timings[name] = vitest.ms;
        expect(vitest.code, show(vitest)).toBe(0);
        expect(vitest.stdout).toMatch(/Test Files\s+2 passed \(2\)/);
        expect(vitest.stdout).toMatch(/Kalahi · full · 2 of 150 prompts · llama:/);
        const read = (file: string) => JSON.parse(readFileSync(path.join(project, 'results', file), 'utf8'));
        return { multiloko: read('multiloko.json'), kalahi: read('kalahi.json'), stdout: vitest.stdout };
      };
      const first = await runBoth('llamaRun');
      const { multiloko, kalahi } = first;
      expect(multiloko.summary.model_description).toMatchObject({ provider: 'llama', model: gguf, settings: { decoding: 'greedy' } });
      expect(multiloko.summary.items).toEqual({ selected: 2, scored: 2, missing: 0, failed: 0, skipped: 0, cached: 0 });
      const ids = Object.keys(multiloko.italian).filter((k) => typeof multiloko.italian[k] === 'object');
      expect(ids).toHaveLength(2);
      expect(multiloko.italian.em).toBe(ids.reduce((sum, id) => sum + (multiloko.italian[id].em as number), 0) / 2);
      // The fingerprint names the GGUF file's identity, as the provider describes it.
      expect(multiloko.summary.fingerprint.model).toMatchObject({ provider: 'llama', model: gguf, revision: multiloko.summary.model_description.revision });
      expect(multiloko.summary.model_description.revision).toMatch(/^gguf-[0-9a-f]{16}$/u);
      // Kalahi: MC by llama.cpp's log-probabilities and the generation metrics, on both prompts.
      const full = kalahi.variants.full;
      expect(full.tasks).toEqual(['mc', 'generation']);
      expect(full.items).toEqual({ selected: 2, total: 150, recorded: 2, failed: 0, skipped: 0 });
      for (const record of full.records) for (const ref of record.mc.references) expect(ref.logprob).toBeLessThan(0);
      expect(full.table.mc).toEqual({ MC1: full.mc.mc1, MC2: full.mc.mc2 });
      expect(kalahi.fingerprint.model).toMatchObject({ provider: 'llama', model: gguf });
      expect(kalahi.gates_passed).toBe(true);

      // A rerun asks the model nothing (the response cache), gives the same answers, and the same fingerprint.
      const again = await runBoth('llamaRerun');
      expect(again.multiloko.summary.items).toMatchObject({ scored: 2, cached: 2 });
      expect(ids.map((id) => again.multiloko.italian[id].prediction)).toEqual(ids.map((id) => multiloko.italian[id].prediction));
      expect(again.multiloko.summary.fingerprint).toEqual(multiloko.summary.fingerprint);
      expect(again.kalahi.fingerprint).toEqual(kalahi.fingerprint);
      expect(again.kalahi.variants.full.mc).toEqual(full.mc);
      // lokal compare from the installed bin: the two llama: runs are comparable and equal.
      const saved = path.join(work, 'llama-first-multiloko.json');
      writeFileSync(saved, JSON.stringify(multiloko));
      const compared = await run(process.execPath, [path.join(installed, 'bin', 'lokal.js'), 'compare', saved, 'results', '--no-html'], project);
      expect(compared.code, show(compared)).toBe(0);
      expect(compared.stdout).toMatch(/italian +(\d+\.\d\d) +\1 +0\.00 \(p 1\.000\)/u);
    }, 1_500_000);
  });
});
