// Kalahi settings: defaults (the reference's choices), lokal.config.json keys, LOKAL_* variables, and errors that name
// the variable or field.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { resolveKalahiConfig as fromSettings, type KalahiSettings } from '../../src/benchmarks/kalahi/run/config.ts';
import { KALAHI_SETTINGS } from '../../src/benchmarks/kalahi/settings.ts';
import { MULTILOKO_SETTINGS } from '../../src/benchmarks/multiloko/settings.ts';
import { resolveSettingsTree, sectionSettings, type ResolveOptions, type SettingsTree } from '../../src/core/settings.ts';

/** Kalahi's config from the layered settings (the `kalahi` object of options / lokal.config.json, and the environment). */
function resolveKalahiConfig(kalahi: SettingsTree['kalahi'] & object, resolve: ResolveOptions) {
  const tree = resolveSettingsTree([MULTILOKO_SETTINGS, KALAHI_SETTINGS], { kalahi }, resolve);
  return fromSettings(sectionSettings<KalahiSettings>(tree, KALAHI_SETTINGS));
}

const cwd = mkdtempSync(path.join(tmpdir(), 'lokal-kalahi-config-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('resolveKalahiConfig', () => {
  test('defaults: full variant, both tasks, max_length=256, chrF, the reference’s learned models', () => {
    const config = resolveKalahiConfig({}, { cwd, env: {} });
    expect(config).toMatchObject({
      location: undefined,
      variants: ['full'],
      tasks: ['mc', 'generation'],
      budget: 'max_length',
      chrf: 'chrf',
      learnedModels: { bertscore: 'microsoft/deberta-v3-large', bleurt: 'lucadiliello/BLEURT-20' },
    });
  });

  test('environment: lists, options, off, and LOKAL_LIMIT / LOKAL_MODEL from the shared settings', () => {
    const config = resolveKalahiConfig(
      { variant: 'unenriched' },
      {
        cwd,
        env: {
          LOKAL_KALAHI: '/data/kalahi',
          LOKAL_KALAHI_VARIANT: 'unenriched, full',
          LOKAL_KALAHI_TASKS: 'generation,mc',
          LOKAL_KALAHI_BUDGET: 'new_tokens',
          LOKAL_KALAHI_CHRF: 'chrF++',
          LOKAL_BERTSCORE_MODEL: 'OFF',
          LOKAL_BLEURT_MODEL: '/models/bleurt',
          LOKAL_LIMIT: '3',
          LOKAL_MODEL: 'transformers:/models/tiny',
        },
      },
    );
    expect(config).toMatchObject({
      location: '/data/kalahi',
      variants: ['unenriched', 'full'],
      tasks: ['mc', 'generation'],
      budget: 'new_tokens',
      chrf: 'chrf++',
      learnedModels: { bertscore: 'off', bleurt: '/models/bleurt' },
    });
    expect(config.base).toMatchObject({ limit: 3, model: 'transformers:/models/tiny' });
  });

  test('options in code and lokal.config.json; the environment wins', () => {
    writeFileSync(path.join(cwd, 'lokal.config.json'), JSON.stringify({ kalahi: { tasks: ['generation'], variant: ['partially_enriched'] } }));
    try {
      expect(resolveKalahiConfig({}, { cwd, env: {} })).toMatchObject({ tasks: ['generation'], variants: ['partially_enriched'] });
      expect(resolveKalahiConfig({ tasks: 'mc' }, { cwd, env: {} }).tasks).toEqual(['mc']);
      expect(resolveKalahiConfig({ tasks: 'mc' }, { cwd, env: { LOKAL_KALAHI_TASKS: 'generation' } }).tasks).toEqual(['generation']);
    } finally {
      rmSync(path.join(cwd, 'lokal.config.json'));
    }
  });

  test('bad values name the variable or field', () => {
    expect(() => resolveKalahiConfig({}, { cwd, env: { LOKAL_KALAHI_VARIANT: 'enriched' } })).toThrow(/LOKAL_KALAHI_VARIANT/);
    expect(() => resolveKalahiConfig({}, { cwd, env: { LOKAL_KALAHI_TASKS: 'mc,essay' } })).toThrow(/LOKAL_KALAHI_TASKS/);
    expect(() => resolveKalahiConfig({}, { cwd, env: { LOKAL_KALAHI_BUDGET: '256' } })).toThrow(/LOKAL_KALAHI_BUDGET/);
    expect(() => resolveKalahiConfig({}, { cwd, env: { LOKAL_KALAHI_CHRF: 'chrf+' } })).toThrow(/LOKAL_KALAHI_CHRF/);
    expect(() => resolveKalahiConfig({ budget: 'tokens' as never }, { cwd, env: {} })).toThrow(/options field "kalahi.budget"/);
  });
});
