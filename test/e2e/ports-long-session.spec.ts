// A long session's order lists each come over a MessagePort of their own
// (main keeps one end, the preload hands the other to the page): over many
// refreshes, every list's port is let go of once the list is done, in the
// page's world and in the preload's isolated world, and main holds none
// open. Counted by the renderer's own heap after a collection (DevTools'
// queryObjects), so a port kept anywhere in a world counts. Needs
// `npm run build` first.

import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appHome,
  canRunApp,
  itNeedsStandin,
  launchApp,
  type AppHome,
  type AppRun,
} from './support/electron-app.ts';
import { gridShown } from './support/spec-apps.ts';

/** Lists asked for: each one a port; the bound below holds however many there are. */
const LISTS = 30;
/** Ports a world may hold at rest: the one of a list still shown, and one arriving. */
const AT_REST = 2;

let home: AppHome;
let run: AppRun;
let page: Page;

/** Live MessagePort objects in each of the page's worlds, after a garbage collection. */
async function portsInWorlds(cdp: CDPSession): Promise<{ page: number; preload: number }> {
  const contexts: { id: number; name: string; isDefault: boolean }[] = [];
  const created = ({
    context,
  }: {
    context: { id: number; name: string; auxData?: { isDefault?: boolean } };
  }) =>
    contexts.push({
      id: context.id,
      name: context.name,
      isDefault: context.auxData?.isDefault === true,
    });
  cdp.on('Runtime.executionContextCreated', created);
  // Enabling reports every context there is.
  await cdp.send('Runtime.enable');
  cdp.off('Runtime.executionContextCreated', created);
  await cdp.send('Runtime.disable');
  await cdp.send('HeapProfiler.collectGarbage');
  const count = async (contextId: number) => {
    const { result: prototype } = await cdp.send('Runtime.evaluate', {
      expression: 'MessagePort.prototype',
      contextId,
    });
    const { objects } = await cdp.send('Runtime.queryObjects', {
      prototypeObjectId: prototype.objectId!,
    });
    const { result } = await cdp.send('Runtime.callFunctionOn', {
      functionDeclaration: 'function () { return this.length; }',
      objectId: objects.objectId!,
      returnByValue: true,
    });
    return result.value as number;
  };
  const main = contexts.find((c) => c.isDefault);
  const preload = contexts.find((c) => c.name === 'Electron Isolated Context');
  if (!main || !preload) throw new Error(`the page's worlds: ${JSON.stringify(contexts)}`);
  return { page: await count(main.id), preload: await count(preload.id) };
}

describe.skipIf(!canRunApp)("a long session's order lists, port by port", () => {
  beforeAll(async () => {
    home = appHome();
    run = await launchApp({ home });
    page = await run.page();
    await gridShown(page);
  });
  afterAll(async () => {
    await run?.stop();
    home?.remove();
  });

  it(`lets go of every list's port in the page's and the preload's worlds over ${LISTS} refreshes`, async () => {
    // Each list's port reaches the page as a message to itself with a port (Electron's pattern).
    await page.evaluate(() => {
      const counted = window as unknown as { portsArrived: number };
      counted.portsArrived = 0;
      window.addEventListener('message', (event) => {
        if (event.source === window && event.ports.length > 0) counted.portsArrived += 1;
      });
    });
    const arrived = () =>
      page.evaluate(() => (window as unknown as { portsArrived: number }).portsArrived);
    const grid = page.getByRole('grid', { name: 'Sandbox orders' });
    for (let list = 1; list <= LISTS; list += 1) {
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await expect.poll(arrived, { timeout: 30_000 }).toBe(list);
      await expect.poll(() => grid.getAttribute('aria-busy'), { timeout: 30_000 }).not.toBe('true');
    }
    const cdp = await run.electronApp.context().newCDPSession(page);
    try {
      await expect
        .poll(() => portsInWorlds(cdp), { timeout: 30_000 })
        .toSatisfy(({ page: inPage, preload }) => inPage <= AT_REST && preload <= AT_REST);
    } finally {
      await cdp.detach();
    }
  });

  itNeedsStandin(
    'holds no list port open in main once every list is done',
    "main's end of each port is the stand-in's relay, which only it can count",
    async () => {
      const ports = () =>
        run.electronApp.evaluate(({ BrowserWindow }) => {
          const [window] = BrowserWindow.getAllWindows();
          return (window!.webContents as unknown as { ports: { given: number; open: number } })
            .ports;
        });
      expect((await ports()).given).toBeGreaterThan(LISTS);
      await expect
        .poll(async () => (await ports()).open, { timeout: 30_000 })
        .toBeLessThanOrEqual(1);
    },
  );
});
