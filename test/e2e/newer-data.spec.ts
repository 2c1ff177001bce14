// Data a newer version of Store Admin saved (after going back to this one):
// the window says so once, in plain words, with what it means behind
// Details, and the file is left as it was. Photographed at 1280×800 and
// 1920×1080 in both themes (notice-newer-data).

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { checkScreen } from './support/screens.ts';
import { describeOnHarness } from './support/app.ts';
import { gridShown, specApps } from './support/spec-apps.ts';

const apps = specApps('newer-data.spec.ts');

describeOnHarness('data a newer version saved', () => {
  afterAll(() => apps.closeAll());

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    it(`is said once and left as it was (${viewport.width}×${viewport.height})`, async () => {
      const app = await apps.open({ viewport });
      await gridShown(app.harness.page);
      // The Sandbox's marks, as a later version would save them.
      const marks = join(app.dataDir, 'local-data', 'review-marks-sandbox.json');
      const newer = JSON.stringify({ version: 2, marks: {}, labels: ['urgent'] });
      writeFileSync(marks, newer);
      await app.restart();
      const page = app.harness.page;
      await gridShown(page);
      const alerts = page.getByRole('alert').filter({ visible: true });
      await expect.poll(() => alerts.count(), { timeout: 30_000 }).toBe(1);
      expect(await alerts.textContent()).toMatch(
        /^Not saving\. Some of what is saved in .+ was saved by a newer version of Store Admin\. This version leaves it as it is, so what changes there now is kept only until it closes; install the newer version again to go on with it\./,
      );
      await alerts.getByText('Details').click();
      expect(await alerts.textContent()).toContain(
        'Left as it is: review-marks-sandbox.json (format 2; this version reads up to 1).',
      );
      expect(await alerts.textContent()).not.toContain('error code');
      await checkScreen(
        page,
        viewport.width === 1280 ? 'notice-newer-data' : 'notice-newer-data-1920',
      );
      expect(readFileSync(marks, 'utf8')).toBe(newer);
    });
  }
});
