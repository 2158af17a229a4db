// The trial settings' validation: each LOKAL_* variable and config field accepted at its bounds, and each bad value
// rejected in one line that names the setting and its allowed range.
import { describe, expect, test } from 'vitest';
import { TRIAL_ENV } from '../../src/core/settings.ts';
import { trialSettings, trialSettingsFromVariables } from '../../src/core/trialSettings.ts';

describe('trial settings', () => {
  test('defaults to one trial; the bounds themselves are accepted', () => {
    expect(trialSettingsFromVariables({})).toEqual({ trials: 1 });
    expect(trialSettingsFromVariables({ LOKAL_TRIALS: '1000', LOKAL_TEMPERATURE: '2', LOKAL_TOP_P: '1', LOKAL_SEED: '-12' })).toEqual({ trials: 1000, temperature: 2, topP: 1, seed: -12 });
    expect(trialSettingsFromVariables({ LOKAL_TRIALS: ' 8 ', LOKAL_TEMPERATURE: '0', LOKAL_TOP_P: '0.001', LOKAL_SEED: '' })).toEqual({ trials: 8, temperature: 0, topP: 0.001 });
    expect(trialSettings({ trials: 4, temperature: 0.7, topP: 0.95, seed: 1234 })).toEqual({ trials: 4, temperature: 0.7, topP: 0.95, seed: 1234 });
    expect(Object.keys(TRIAL_ENV)).toEqual(['LOKAL_TRIALS', 'LOKAL_TEMPERATURE', 'LOKAL_TOP_P', 'LOKAL_SEED']);
  });

  const bad: Array<[string, string, string]> = [
    ['LOKAL_TRIALS', '0', 'must be an integer from 1 to 1000'],
    ['LOKAL_TRIALS', '1001', 'must be an integer from 1 to 1000'],
    ['LOKAL_TRIALS', '2.5', 'must be an integer from 1 to 1000'],
    ['LOKAL_TRIALS', 'eight', 'must be an integer from 1 to 1000'],
    ['LOKAL_TEMPERATURE', '-0.1', 'must be a number from 0 to 2'],
    ['LOKAL_TEMPERATURE', '2.01', 'must be a number from 0 to 2'],
    ['LOKAL_TEMPERATURE', 'hot', 'must be a number from 0 to 2'],
    ['LOKAL_TOP_P', '0', 'must be a number above 0 and at most 1'],
    ['LOKAL_TOP_P', '1.1', 'must be a number above 0 and at most 1'],
    ['LOKAL_SEED', '1.5', 'must be an integer from -9007199254740991 to 9007199254740991'],
    ['LOKAL_SEED', '9007199254740992', 'must be an integer from -9007199254740991 to 9007199254740991'],
    ['LOKAL_SEED', 'abc', 'must be an integer from -9007199254740991 to 9007199254740991'],
  ];
  test.each(bad)('%s=%s: one line naming the variable and its range', (name, value, range) => {
    let message = '';
    try {
      trialSettingsFromVariables({ LOKAL_TRIALS: '4', [name]: value });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(`${name}: ${range} (got ${JSON.stringify(value)})`);
  });

  test('in a config object: the field named, the first mistake only, unknown fields refused', () => {
    expect(() => trialSettings({ trials: 0 }, 'lokal.config.json')).toThrow(/^lokal\.config\.json field "trials": must be an integer from 1 to 1000$/u);
    expect(() => trialSettings({ topP: 0, seed: 0.5 }, 'lokal.config.json')).toThrow(/^lokal\.config\.json field "topP": must be a number above 0 and at most 1$/u);
    expect(() => trialSettings({ temperature: '0.7' })).toThrow(/^settings field "temperature": must be a number from 0 to 2$/u);
    expect(() => trialSettings({ trails: 4 })).toThrow(/trails/u);
  });
});
