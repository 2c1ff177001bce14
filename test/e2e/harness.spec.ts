// The development harness (tools/harness): several apps in one process, as
// several windows share an Electron main process, each answered by its own
// services through the one ipcMain handler per channel; a page that is not
// the app's own, in a harness's window, is refused as the app refuses it.

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { SANDBOX_DEMO_KEY } from '../../src/shared/environments.ts';
import type { Harness } from '../../tools/harness/harness.ts';
import { startHarness, describeOnHarness } from './support/app.ts';

const ROOT = join(import.meta.dirname, '../..');

let root: string;
const sandboxes: Sandbox[] = [];
const harnesses: Harness[] = [];

const count = (harness: Harness) =>
  harness.page.locator('.view-count').textContent({ timeout: 30_000 });

describeOnHarness('the development harness', () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'harness-spec-'));
    for (const orders of [3, 7]) {
      const sandbox = await startSandbox({ port: 0, orders });
      sandboxes.push(sandbox);
    }
    harnesses.push(
      ...(await Promise.all(
        sandboxes.map((sandbox, i) =>
          startHarness({
            dataDir: join(root, `data-${i}`),
            sandbox: { baseUrl: sandbox.baseUrl, key: SANDBOX_DEMO_KEY },
          }),
        ),
      )),
    );
  });
  afterAll(async () => {
    for (const harness of harnesses) await harness.close();
    for (const sandbox of sandboxes) await sandbox.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers each window from its own services, in one process', async () => {
    const [three, seven] = harnesses;
    await expect.poll(() => count(three!)).toBe('Showing 3 of 3 orders');
    await expect.poll(() => count(seven!)).toBe('Showing 7 of 7 orders');
    // Again after a restart of one: the other is untouched, the restarted one finds its data.
    const restarted = await seven!.restart();
    harnesses[1] = restarted;
    expect(restarted.page).toBe(seven!.page);
    await expect.poll(() => count(restarted)).toBe('Showing 7 of 7 orders');
    expect(await count(three!)).toBe('Showing 3 of 3 orders');
  });

  it("refuses a page that is not the app's own, in the app's window", async () => {
    const page = harnesses[0]!.page;
    // The same page, copied elsewhere: the preload runs in it, main answers nothing.
    const copy = join(root, 'index.html');
    copyFileSync(join(ROOT, 'out', 'renderer', 'index.html'), copy);
    await page.goto(pathToFileURL(copy).href);
    const answer = await page.evaluate(async () => {
      const api = (window as unknown as { storeAdmin?: { app: { getState(): Promise<unknown> } } })
        .storeAdmin;
      return api ? JSON.stringify(await api.app.getState()) : 'no API';
    });
    expect(answer).toContain('This window may not use Store Admin.');
    await page.goto(harnesses[0]!.url);
    await expect.poll(() => count(harnesses[0]!)).toBe('Showing 3 of 3 orders');
  });
});
