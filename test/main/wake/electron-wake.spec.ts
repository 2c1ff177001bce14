// The Electron edge of waking: powerMonitor's suspend, resume and
// unlock-screen, and net.isOnline, from the shared mock (the stand-in's own
// model), reach the watcher.

import { afterEach, expect, it } from 'vitest';
import type { WakeReason, WakeWatcher } from '../../../src/main/wake/wake-watcher.ts';
import { watchWakeInElectron } from '../../../src/main/wake/electron-wake.ts';
import { createElectronMock } from '../../support/electron-mock.ts';

let watcher: WakeWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
});

it('suspend, resume and unlock-screen reach the watcher; the network is read from net.isOnline', async () => {
  const electron = createElectronMock();
  const woke: WakeReason[] = [];
  watcher = watchWakeInElectron(electron, (reason) => void woke.push(reason));
  expect(watcher.online).toBe(true);
  electron.powerMonitor.happen('lock-screen');
  electron.powerMonitor.happen('suspend');
  electron.network.set(false);
  electron.powerMonitor.happen('resume');
  expect(woke).toEqual(['resume']);
  // The wake read the network: gone.
  expect(watcher.online).toBe(false);
  // A desktop does not repeat itself: an unlock of a locked screen is emitted, a second is not.
  expect(electron.powerMonitor.happen('unlock-screen')).toBe(true);
  expect(electron.powerMonitor.happen('unlock-screen')).toBe(false);
  expect(electron.powerMonitor.getSystemIdleState(60)).toBe('active');
});
