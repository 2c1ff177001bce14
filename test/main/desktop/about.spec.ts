// The About box: the version, where updates come from, the data folder.

import { describe, expect, it } from 'vitest';
import { aboutBox } from '../../../src/main/desktop/about.ts';

const base = {
  productName: 'Store Admin',
  version: '0.1.0',
  dataFolder: '/home/clerk/.config/Store Admin',
  versions: { electron: '45.4.1', chrome: '142.0.0.0', node: '24.21.0' },
};

describe('the About box', () => {
  it('names the version, the update channel and server, and the data folder', () => {
    expect(
      aboutBox({
        ...base,
        updates: {
          address: 'https://updates.petstore.example/store-admin/',
          source: 'build',
          channel: 'stable',
        },
      }),
    ).toEqual({
      message: 'Store Admin 0.1.0',
      detail: [
        'Updates: the stable channel from https://updates.petstore.example/store-admin/ (set when it was built)',
        'Data folder: /home/clerk/.config/Store Admin',
        'Electron 45.4.1, Chromium 142.0.0.0, Node 24.21.0',
      ].join('\n'),
    });
  });

  it('says when there are no updates', () => {
    expect(
      aboutBox({ ...base, updates: { source: 'none', channel: 'latest' } }).detail.split('\n')[0],
    ).toBe('Updates: none (no update address is set)');
  });
});
