// The desktop's sleep, screen lock and network, from Electron's powerMonitor
// and net, told to the WakeWatcher (plain Node, wake-watcher.ts).

import type { Net } from 'electron';
import { realTiming } from '../store-api/clock.ts';
import { WakeWatcher, type WakeReason } from './wake-watcher.ts';

/** Of powerMonitor, the events listened for (each one of Electron's own `on` overloads). */
interface PowerEvents {
  on(event: 'suspend', listener: () => void): unknown;
  on(event: 'resume', listener: () => void): unknown;
  on(event: 'unlock-screen', listener: () => void): unknown;
}

export function watchWakeInElectron(
  electron: { readonly powerMonitor: PowerEvents; readonly net: Pick<Net, 'isOnline'> },
  onWake: (reason: WakeReason) => Promise<void> | void,
): WakeWatcher {
  const watcher = new WakeWatcher({
    timing: realTiming,
    isOnline: () => electron.net.isOnline(),
    onWake,
  });
  electron.powerMonitor.on('suspend', () => watcher.suspended());
  electron.powerMonitor.on('resume', () => watcher.resumed());
  electron.powerMonitor.on('unlock-screen', () => watcher.unlocked());
  watcher.start();
  return watcher;
}
