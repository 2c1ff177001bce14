// Settings read back from disk: whatever a hand edit or a damaged file left,
// each field that does not validate falls back to its default, the rest is kept.

import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/main/environments/environment-service.ts';
import { parseSettings } from '../../../src/main/environments/settings.ts';

describe('parseSettings', () => {
  it('keeps valid settings as they are', () => {
    const saved = {
      activeEnvironment: 'production',
      baseUrls: {
        staging: 'https://staging.example.com/v1',
        production: 'https://api.example.com/v1',
      },
    };
    expect(parseSettings(saved)).toEqual(saved);
  });

  it('takes the defaults for nothing saved and for what is not settings at all', () => {
    for (const stored of [undefined, null, 42, 'production', [1, 2]])
      expect(parseSettings(stored), JSON.stringify(stored)).toEqual(DEFAULT_SETTINGS);
  });

  it('drops each field that does not validate and keeps the others', () => {
    expect(
      parseSettings({
        activeEnvironment: 'moon',
        baseUrls: { staging: 'not a url', production: 'https://api.example.com/v1' },
      }),
    ).toEqual({
      activeEnvironment: DEFAULT_SETTINGS.activeEnvironment,
      baseUrls: { production: 'https://api.example.com/v1' },
    });
    expect(parseSettings({ activeEnvironment: 'staging', baseUrls: 'https://x.example' })).toEqual({
      activeEnvironment: 'staging',
      baseUrls: {},
    });
  });
});
