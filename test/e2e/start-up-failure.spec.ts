// A start-up that fails (here: the key file cannot be read, a folder where
// api-keys.json should be) says so in one dialog and the app exits, releasing
// the single-instance lock: the next start is not turned away by a window-less
// process. The real main bundle in the Electron stand-in.

import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../../tools/browser/chromium.ts';
import {
  ROOT,
  STANDIN_ELECTRON,
  standinHome,
  startStandin,
  type StandinHome,
} from './support/standin.ts';

let home: StandinHome;

describe.skipIf(!hasChromium)('a start-up that fails, in the Electron stand-in', () => {
  beforeAll(() => {
    home = standinHome();
    mkdirSync(join(home.userData, 'api-keys.json'), { recursive: true });
  });
  afterAll(() => home?.remove());

  it('shows one dialog naming the cause, exits with 1, and leaves no lock behind', async () => {
    const failing = startStandin([STANDIN_ELECTRON, '.'], { cwd: ROOT, home });
    try {
      expect(await failing.exited).toBe(1);
    } finally {
      await failing.stop();
    }
    const output = failing.output();
    // The dialog (on stderr too, as Electron prints an error box it cannot draw), once.
    const dialog = `Store Admin could not start\nStore Admin expected a file but found a folder: ${join(home.userData, 'api-keys.json')}.`;
    expect(output.split(dialog)).toHaveLength(2);
    expect(existsSync(join(home.userData, 'SingletonLock'))).toBe(false);

    // With the cause gone, the next start is the app's.
    rmSync(join(home.userData, 'api-keys.json'), { recursive: true });
    const next = startStandin([STANDIN_ELECTRON, '.'], { cwd: ROOT, home });
    try {
      const page = await next.page();
      await page.getByRole('grid', { name: 'Sandbox orders' }).waitFor({ timeout: 30_000 });
    } finally {
      await next.stop();
    }
  });
});
