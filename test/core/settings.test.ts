import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { KALAHI_SETTINGS } from '../../src/benchmarks/kalahi/settings.ts';
import { MULTILOKO_SETTINGS, type MultiLoKoSettings } from '../../src/benchmarks/multiloko/settings.ts';
import { knownVariables, LokalConfigError, OTHER_LOKAL_VARIABLES, resolveSettingsTree, sectionSettings, SHARED_DEFAULTS, type ResolveOptions, type SettingsTree } from '../../src/core/settings.ts';

const SECTIONS = [MULTILOKO_SETTINGS, KALAHI_SETTINGS];
/** MultiLoKo's flat view of the settings, as its suite gets them. */
function resolveLokalConfig(options: SettingsTree, resolve: ResolveOptions): MultiLoKoSettings {
  return sectionSettings<MultiLoKoSettings>(resolveSettingsTree(SECTIONS, options, resolve), MULTILOKO_SETTINGS);
}
const LOKAL_DEFAULTS = SHARED_DEFAULTS;

const dirs: string[] = [];
function folder(config?: unknown, raw?: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lokal-config-'));
  dirs.push(dir);
  if (raw !== undefined) writeFileSync(path.join(dir, 'lokal.config.json'), raw);
  else if (config !== undefined) writeFileSync(path.join(dir, 'lokal.config.json'), JSON.stringify(config));
  return dir;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('settings: MultiLoKo view', () => {
  test('defaults without file, options or environment', () => {
    expect(resolveLokalConfig({}, { cwd: folder(), env: {} })).toEqual({
      split: 'dev',
      strict: false,
      missing: 'empty',
      maxNewTokens: 64,
      output: 'results',
      baselineTolerance: 0.02,
      baselineMode: 'significance',
      baselineAlpha: 0.05,
      baselineMargin: 0.01,
      prompt: 'auto',
      fewshot: 'dataset',
      shots: 5,
    });
  });

  test('prompt, model and cache settings from the environment', () => {
    const config = resolveLokalConfig({}, {
      cwd: folder({ multiloko: { prompt: 'base' }, dtype: 'fp32', baseUrl: 'http://file.example/v1' }),
      env: {
        LOKAL_PROMPT: 'chat', LOKAL_FEWSHOT: 'official', LOKAL_SHOTS: '0', LOKAL_EXTRACT: '1', LOKAL_CACHE: 'READ',
        LOKAL_CACHE_FILE: 'c.jsonl', LOKAL_DTYPE: 'q8', LOKAL_MODEL_DIR: '/m', LOKAL_MODEL_CACHE: '/hf', LOKAL_OFFLINE: 'yes',
        LOKAL_CONCURRENCY: '4', OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1',
      },
    });
    expect(config).toMatchObject({
      prompt: 'chat', fewshot: 'official', shots: 0, extract: true, cache: 'read', cacheFile: 'c.jsonl', dtype: 'q8', modelDir: '/m',
      modelCache: '/hf', offline: true, concurrency: 4, baseUrl: 'http://127.0.0.1:8000/v1',
    });
    const cwd = folder();
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_PROMPT: 'instruct' } })).toThrow(/^LOKAL_PROMPT: /);
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_FEWSHOT: 'some' } })).toThrow(/^LOKAL_FEWSHOT: /);
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_CACHE: 'on' } })).toThrow(/^LOKAL_CACHE: /);
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_DTYPE: 'fp64' } })).toThrow(/^LOKAL_DTYPE: /);
    expect(() => resolveLokalConfig({}, { cwd, env: { OPENAI_BASE_URL: 'localhost 8000' } })).toThrow(/^OPENAI_BASE_URL: /);
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_CONCURRENCY: '0' } })).toThrow(/^LOKAL_CONCURRENCY: /);
  });

  test('trial settings: shared from the environment, MultiLoKo\'s own from the file, bad values named in one line', () => {
    const cwd = folder({ multiloko: { trials: 4, seed: 7 }, temperature: 0.5 });
    expect(resolveLokalConfig({}, { cwd, env: { LOKAL_TOP_P: '0.9' } })).toMatchObject({ trials: 4, seed: 7, temperature: 0.5, topP: 0.9 });
    // The benchmark's own value wins over the shared variable, as for its model.
    expect(resolveLokalConfig({}, { cwd, env: { LOKAL_TRIALS: '2' } })).toMatchObject({ trials: 4 });
    expect(resolveLokalConfig({}, { cwd: folder(), env: { LOKAL_TRIALS: '2' } })).toMatchObject({ trials: 2 });
    expect(() => resolveLokalConfig({}, { cwd: folder(), env: { LOKAL_TRIALS: '0' } })).toThrow(/^LOKAL_TRIALS: must be an integer from 1 to 1000 \(got "0"\)$/u);
    expect(() => resolveLokalConfig({}, { cwd: folder({ multiloko: { topP: 0 } }), env: {} })).toThrow(/field "multiloko\.topP": must be a number above 0 and at most 1$/u);
  });

  test('precedence: lokal.config.json < options < environment', () => {
    const cwd = folder({ limit: 5, output: 'from-file', multiloko: { languages: ['italian'], split: 'test' }, thresholds: 'em>=0.1' });
    const config = resolveLokalConfig({ limit: 7, thresholds: 'em>=0.2' }, { cwd, env: { LOKAL_LIMIT: '9' } });
    expect(config.limit).toBe(9);
    expect(config.thresholds).toBe('em>=0.2');
    expect(config.output).toBe('from-file');
    expect(config.languages).toEqual(['italian']);
    expect(config.split).toBe('test');
    // A benchmark's object merges key by key across layers.
    expect(resolveLokalConfig({ multiloko: { shots: 2 } }, { cwd, env: {} })).toMatchObject({ languages: ['italian'], split: 'test', shots: 2 });
  });

  test('settings without defaults tell what was given, nested by benchmark', () => {
    expect(resolveSettingsTree(SECTIONS, {}, { cwd: folder(), env: { LOKAL_OUTPUT: 'x', LOKAL_SPLIT: 'test' } })).toEqual({ output: 'x', multiloko: { split: 'test' } });
  });

  test('an unknown LOKAL_* variable is an error naming the closest known one', () => {
    const cwd = folder();
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_THRESHOLD: 'em>=0.99' } })).toThrow(/^LOKAL_THRESHOLD: unknown variable; did you mean LOKAL_THRESHOLDS\?/);
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_KALAHI_TASK: 'mc' } })).toThrow(/did you mean LOKAL_KALAHI_TASKS\?/);
    // Variables read elsewhere (documented in docs/settings.md) are known.
    expect(resolveLokalConfig({}, { cwd, env: { LOKAL_DEBUG: '1', LOKAL_CONFIG: '', HOME: '/root' } }).split).toBe('dev');
  });

  test('an unknown key names the closest known one, at top level and inside a benchmark', () => {
    expect(() => resolveLokalConfig({ modle: 'x' } as never, { cwd: folder(), env: {} })).toThrow(/^options field "modle": unknown setting; did you mean "model"\?/);
    expect(() => resolveLokalConfig({ multiloko: { langauges: ['x'] } } as never, { cwd: folder(), env: {} })).toThrow(/^options field "multiloko.langauges": unknown setting; did you mean "languages"\?/);
  });

  test('environment values are parsed: lists, numbers, flags', () => {
    const config = resolveLokalConfig({}, {
      cwd: folder(),
      env: {
        LOKAL_LANGUAGES: 'italian, french  english',
        LOKAL_SUBSETS: 'local,human',
        LOKAL_STRICT: 'yes',
        LOKAL_BASELINE_TOLERANCE: '0.05',
        LOKAL_BASELINE_MODE: 'Tolerance',
        LOKAL_BASELINE_ALPHA: '0.1',
        LOKAL_BASELINE_MARGIN: '0.03',
        LOKAL_MODEL: 'replay:p.jsonl',
        LOKAL_MISSING: 'fail',
        LOKAL_THRESHOLDS: '',
      },
    });
    expect(config.languages).toEqual(['italian', 'french', 'english']);
    expect(config.subsets).toEqual(['local', 'human']);
    expect(config.strict).toBe(true);
    expect(config.baselineTolerance).toBe(0.05);
    expect([config.baselineMode, config.baselineAlpha, config.baselineMargin]).toEqual(['tolerance', 0.1, 0.03]);
    expect(() => resolveLokalConfig({}, { cwd: folder(), env: { LOKAL_BASELINE_ALPHA: '1' } })).toThrow(/LOKAL_BASELINE_ALPHA/);
    expect(() => resolveLokalConfig({}, { cwd: folder(), env: { LOKAL_BASELINE_MODE: 'strict' } })).toThrow(/LOKAL_BASELINE_MODE/);
    expect(config.model).toBe('replay:p.jsonl');
    expect(config.missing).toBe('fail');
    expect(config.thresholds).toBeUndefined();
    expect(resolveLokalConfig({ strict: true }, { cwd: folder(), env: { LOKAL_STRICT: '0' } }).strict).toBe(false);
    expect(resolveLokalConfig({ strict: true }, { cwd: folder(), env: { LOKAL_STRICT: '' } }).strict).toBe(false);
  });

  test('errors name the variable, file or field', () => {
    const cwd = folder();
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_LIMIT: 'abc' } })).toThrow(/^LOKAL_LIMIT: .*\(got "abc"\)$/);
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_LIMIT: '0' } })).toThrow(/^LOKAL_LIMIT: Too small/);
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_STRICT: 'maybe' } })).toThrow(/^LOKAL_STRICT: .*\(got "maybe"; use 1\/true\/yes\/on or 0\/false\/no\/off\)$/);
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_MISSING: 'skip' } })).toThrow(/^LOKAL_MISSING: /);
    expect(() => resolveLokalConfig({ limit: -1 } as never, { cwd, env: {} })).toThrow(/^options field "limit": /);
    const typo = folder({ limitt: 3 });
    expect(() => resolveLokalConfig({}, { cwd: typo, env: {} })).toThrow(new RegExp(`^${path.join(typo, 'lokal.config.json')} field "limitt": unknown setting`));
    const broken = folder(undefined, '{ "limit": 3, }');
    expect(() => resolveLokalConfig({}, { cwd: broken, env: {} })).toThrow(/lokal\.config\.json: malformed JSON/);
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_CONFIG: 'nope.json' } })).toThrow(LokalConfigError);
  });

  test('every mistake of the file, the options and the environment in one error, numbered', () => {
    const cwd = folder({ modle: 'replay:a.jsonl', limt: 3, output: 7, multiloko: { langauges: ['italian'] } });
    const file = path.join(cwd, 'lokal.config.json');
    let error: LokalConfigError | undefined;
    try {
      resolveLokalConfig({ strict: 'yes' } as never, { cwd, env: { LOKAL_LIMIT: 'abc', LOKAL_THRESHOLD: 'em>=0.3', LOKAL_OUPTUT: 'x' } });
    } catch (caught) {
      error = caught as LokalConfigError;
    }
    expect(error).toBeInstanceOf(LokalConfigError);
    const message = error!.message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^5 mistakes in the settings: \(1\) /u);
    // The file: a wrong type, a misspelt key in a section, and two misspelt top-level keys, each with its guess.
    expect(message).toContain(`${file} field "output": Invalid input: expected string, received number`);
    expect(message).toContain(`${file} field "multiloko.langauges": unknown setting; did you mean "languages"?`);
    expect(message).toContain(`${file}: unknown settings "modle" (did you mean "model"?), "limt" (did you mean "limit"?)`);
    expect(message).toContain('options field "strict": ');
    // The environment's unknown variables together (they stop its layer before its values are read).
    expect(message).toMatch(/LOKAL_THRESHOLD: unknown variables LOKAL_THRESHOLD \(did you mean LOKAL_THRESHOLDS\?\), LOKAL_OUPTUT \(did you mean LOKAL_OUTPUT\?\); the table of LOKAL_\* variables is in \S*docs\/settings\.md/u);
    expect(error!.all).toHaveLength(5);
    // Without unknown variables, the environment's wrong values are among the mistakes too.
    expect(() => resolveLokalConfig({}, { cwd, env: { LOKAL_LIMIT: 'abc', LOKAL_STRICT: 'maybe' } })).toThrow(/^5 mistakes in the settings: .*\(4\) LOKAL_LIMIT: .*\(got "abc"\) \(5\) LOKAL_STRICT: /u);
  });

  test('LOKAL_CONFIG points at another file', () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'other.json'), JSON.stringify({ output: 'elsewhere' }));
    expect(resolveLokalConfig({}, { cwd: dir, env: { LOKAL_CONFIG: 'other.json' } }).output).toBe('elsewhere');
    expect(LOKAL_DEFAULTS.output).toBe('results');
  });
});

describe('docs/settings.md documents every variable', () => {
  test('each LOKAL_* variable a run reads or accepts is a row of the table in docs/settings.md', () => {
    const readme = readFileSync(path.join(__dirname, '..', '..', 'docs', 'settings.md'), 'utf8');
    const names = [...knownVariables(SECTIONS).keys(), ...Object.keys(OTHER_LOKAL_VARIABLES)];
    const missing = names.filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
    expect(names.length).toBeGreaterThan(35);
  });
});

describe('request limits reach the OpenAI provider', () => {
  test('LOKAL_REQUEST_TIMEOUT and LOKAL_REQUEST_BUDGET become its retry policy; unset leaves its defaults', async () => {
    const { lokalModelOptions } = await import('../../src/models/open.ts');
    const { sharedSettings } = await import('../../src/core/settings.ts');
    const tree = resolveSettingsTree(SECTIONS, {}, { cwd: folder(), env: { LOKAL_REQUEST_TIMEOUT: '2500', LOKAL_REQUEST_BUDGET: '9000' } });
    expect(lokalModelOptions(sharedSettings(tree)).openai).toEqual({ retry: { timeoutMs: 2500, totalTimeoutMs: 9000 } });
    expect(lokalModelOptions(sharedSettings(resolveSettingsTree(SECTIONS, {}, { cwd: folder(), env: {} }))).openai).toEqual({});
    expect(() => resolveSettingsTree(SECTIONS, {}, { cwd: folder(), env: { LOKAL_REQUEST_TIMEOUT: '0' } })).toThrow(/^LOKAL_REQUEST_TIMEOUT: /);
  });
});
