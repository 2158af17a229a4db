// `lokal init --ci github` in a fresh project with the built package installed (test/support/installedPackage.ts),
// then what it wrote is run: `vitest run` on the shared data with a replay file passes, and the workflow's own
// commands, read from the YAML — each shard of the matrix with its blob reporter, then the merge job's
// --merge-reports without the data (the merge job does not fetch it) — give the same results files as one unsharded
// run, and the step summary. Both runs use the workflow's env (LOKAL_REDACT=auto: on here, since CI is set).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { loadKalahi } from '../../src/benchmarks/kalahi/data/kalahi.ts';
import { loadMultiLoKo } from '../../src/benchmarks/multiloko/data/multiloko.ts';
import { installedProject, REPO_ROOT, shellInProject, type ShellRun } from '../support/installedPackage.ts';
import { projectFiles } from '../../src/init/projectFiles.ts';

const MULTILOKO = path.resolve(REPO_ROOT, '../shared/data/multiloko/benchmark_data.tar.xz.enc');
const KALAHI = path.resolve(REPO_ROOT, '../shared/data/kalahi');
const haveData = existsSync(MULTILOKO) && existsSync(path.join(KALAHI, 'filipino.csv'));

const show = (what: string, r: ShellRun) => `${what}\nexit ${r.code}\n--- stdout\n${r.stdout.slice(-6000)}\n--- stderr\n${r.stderr.slice(-3000)}`;

interface Workflow {
  env: Record<string, string>;
  jobs: Record<string, { strategy?: { matrix: { shard: number[] } }; steps: Array<{ run?: string }> }>;
}

describe.skipIf(!haveData)(haveData ? 'lokal init, then its files and its workflow\'s commands run' : '(skipped: no shared MultiLoKo/Kalahi data)', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'lokal-init-run-'));
  const project = path.join(work, 'project');
  let workflow: Workflow;
  // Every run: the workflow's env, a replay file for the model, 20 items a group, no learned metrics (no download).
  let env: Record<string, string>;
  let italianItems = 0;
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  beforeAll(async () => {
    await installedProject(project);
    const init = await shellInProject('npx lokal init --ci github', project);
    expect(init.code, show('lokal init', init)).toBe(0);
    expect(init.stdout).toContain('lokal init: wrote .github/workflows/evals.yml');
    // The project has the model's packages (linked from this checkout): nothing to install is named.
    expect(init.stdout, show('lokal init', init)).not.toMatch(/the model \S+ needs /u);
    expect(init.stdout).toContain('lokal init: wrote .gitignore: results/ .lokal-cache/ .vitest-reports/ data/ .lokal-models/');
    workflow = parse(readFileSync(path.join(project, '.github', 'workflows', 'evals.yml'), 'utf8')) as Workflow;
    // The data where a run looks when lokal.config.json (as init wrote it) names no data path: data/ and data/kalahi.
    mkdirSync(path.join(project, 'data'));
    symlinkSync(MULTILOKO, path.join(project, 'data', 'benchmark_data.tar.xz.enc'));
    symlinkSync(KALAHI, path.join(project, 'data', 'kalahi'), 'dir');
    // Replies: every MultiLoKo item answered with its first target, every Kalahi prompt with its best answer.
    const rows: string[] = [];
    for (const subset of (await loadMultiLoKo(MULTILOKO, 'dev')).subsets) {
      for (const item of subset.items) rows.push(JSON.stringify({ language: subset.key, id: item.id, prediction: item.targets[0] }));
    }
    italianItems = rows.length;
    for (const row of (await loadKalahi(path.join(KALAHI, 'filipino.csv'))).rows) {
      rows.push(JSON.stringify({ language: 'kalahi', id: row.promptVariationId, prediction: row.bestAnswer }));
    }
    writeFileSync(path.join(project, 'predictions.jsonl'), `${rows.join('\n')}\n`);
    env = { ...workflow.env, LOKAL_MODEL: 'replay:predictions.jsonl', LOKAL_LIMIT: '20', LOKAL_BERTSCORE_MODEL: 'off', LOKAL_BLEURT_MODEL: 'off' };
  }, 900_000);

  const results = (folder: string) => Object.fromEntries(['multiloko.json', 'kalahi.json'].map((f) => [f, JSON.parse(readFileSync(path.join(project, folder, f), 'utf8')) as Record<string, any>]));

  test('`npx vitest run` passes in the project init set up (its 2 part files): both benchmarks, every answer right, as whole eval files give', async () => {
    const run = await shellInProject('npx vitest run', project, env);
    expect(run.code, show('vitest run', run)).toBe(0);
    expect(run.stdout, show('vitest run', run)).toMatch(/Test Files\s+2 passed \(2\)/u);
    const single = results('results');
    expect(single['multiloko.json']!.italian.em).toBe(1);
    expect(single['multiloko.json']!.summary.items.scored).toBe(Math.min(20, italianItems));
    expect(single['kalahi.json']!.variants.full.items).toMatchObject({ selected: 20, recorded: 20, failed: 0 });
    // The workflow's LOKAL_REDACT=auto with CI set: texts hashed in the results.
    expect(JSON.stringify(single['multiloko.json'])).toMatch(/sha256:[0-9a-f]{12}/u);
    renameSync(path.join(project, 'results'), path.join(project, 'results-single'));

    // The part files init wrote give what one eval file per benchmark gives (init without --ci): every results figure.
    const parts = readdirSync(path.join(project, 'evals')).sort();
    expect(parts).toEqual(['part-01-of-02.eval.ts', 'part-02-of-02.eval.ts']);
    renameSync(path.join(project, 'evals'), path.join(work, 'evals-parts'));
    mkdirSync(path.join(project, 'evals'));
    for (const [file, text] of Object.entries(projectFiles(1))) if (file.startsWith('evals/')) writeFileSync(path.join(project, file), text);
    try {
      const whole = await shellInProject('npx vitest run', project, env);
      expect(whole.code, show('vitest run (whole files)', whole)).toBe(0);
      expect(results('results')).toEqual(single);
    } finally {
      rmSync(path.join(project, 'evals'), { recursive: true });
      rmSync(path.join(project, 'results'), { recursive: true, force: true });
      renameSync(path.join(work, 'evals-parts'), path.join(project, 'evals'));
    }
  }, 600_000);

  test('the workflow\'s shard commands, then its merge command, give the unsharded run\'s results and the step summary', async () => {
    expect(existsSync(path.join(project, 'results-single')), 'the unsharded run (the test above)').toBe(true);
    const shards = workflow.jobs.evals!.strategy!.matrix.shard;
    expect(shards).toEqual([1, 2]);
    const shardCommand = workflow.jobs.evals!.steps.map((s) => s.run?.trim()).find((r) => r?.includes('--shard'))!;
    for (const shard of shards) {
      const command = shardCommand.replaceAll('${{ matrix.shard }}', String(shard));
      expect(command).not.toContain('${{');
      const run = await shellInProject(command, project, env);
      expect(run.code, show(command, run)).toBe(0);
    }
    // Vitest split the two eval files: one blob report per shard.
    expect(readdirSync(path.join(project, '.vitest-reports')).sort()).toEqual(['blob-1-2.json', 'blob-2-2.json']);
    expect(existsSync(path.join(project, 'results')), 'shards write no results (the blob reporter replaces the roll-up)').toBe(false);

    // The merge job: the blobs (downloaded), no data, the same env; GitHub's step summary file.
    const mergeCommand = workflow.jobs.merge!.steps.map((s) => s.run?.trim()).find((r) => r?.includes('--merge-reports'))!;
    const summary = path.join(work, 'step-summary.md');
    renameSync(path.join(project, 'data'), path.join(work, 'data-aside'));
    try {
      const merged = await shellInProject(mergeCommand, project, { ...env, GITHUB_STEP_SUMMARY: summary });
      expect(merged.code, show(mergeCommand, merged)).toBe(0);
    } finally {
      renameSync(path.join(work, 'data-aside'), path.join(project, 'data'));
    }
    expect(results('results')).toEqual(results('results-single'));
    const stepSummary = readFileSync(summary, 'utf8');
    expect(stepSummary).toMatch(/MultiLoKo/u);
    expect(stepSummary).toMatch(/Kalahi/u);
  }, 900_000);

  test('a shard left without eval files (3 shards over 2 files) passes: the workflow\'s command with --shards 3', async () => {
    const shardCommand = workflow.jobs.evals!.steps.map((s) => s.run?.trim()).find((r) => r?.includes('--shard'))!;
    const command = shardCommand.replaceAll('${{ matrix.shard }}/2', '3/3').replace(/--outputFile=\S+/u, '');
    expect(command).toContain('--shard=3/3');
    const run = await shellInProject(`${command} --outputFile=${path.join(work, 'blob-3-3.json')}`, project, env);
    expect(run.code, show(command, run)).toBe(0);
    expect(existsSync(path.join(work, 'blob-3-3.json')), 'its (empty) blob report for the merge job').toBe(true);
  }, 300_000);
});
