// A start-up that fails (here: the key file cannot be read, a folder where
// api-keys.json should be) says so in one dialog and the app exits, releasing
// the single-instance lock: the next start is not turned away by a window-less
// process. The real main bundle; the stand-in answers the dialog (on a real
// Electron it is a native one, waiting for a person).

import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  appHome,
  canRunApp,
  itNeedsStandin,
  launchApp,
  runApp,
  type AppHome,
} from './support/electron-app.ts';

let home: AppHome;

describe.skipIf(!canRunApp)('a start-up that fails', () => {
  beforeAll(() => {
    home = appHome();
    mkdirSync(join(home.userData, 'api-keys.json'), { recursive: true });
  });
  afterAll(() => home?.remove());

  itNeedsStandin(
    'shows one dialog naming the cause, exits with 1, and leaves no lock behind',
    'the error box is a native dialog on Electron, waiting for a person to close it',
    async () => {
      const { code, output } = await runApp({ home });
      expect(code).toBe(1);
      // The dialog (on stderr too, as Electron prints an error box it cannot draw), once.
      const dialog = `Store Admin could not start\nStore Admin expected a file but found a folder: ${join(home.userData, 'api-keys.json')}.`;
      expect(output.split(dialog)).toHaveLength(2);
      expect(existsSync(join(home.userData, 'SingletonLock'))).toBe(false);

      // With the cause gone, the next start is the app's.
      rmSync(join(home.userData, 'api-keys.json'), { recursive: true });
      const next = await launchApp({ home });
      try {
        const page = await next.page();
        await page.getByRole('grid', { name: 'Sandbox orders' }).waitFor({ timeout: 30_000 });
      } finally {
        await next.stop();
      }
    },
  );
});
