// When the app looks again: on waking (a resume, the unlock that follows it
// being the same wake), on an unlocked screen, and when the network is seen
// again after it was gone; never while the machine sleeps, never twice for
// one network's return. On a virtual clock: the network is looked at every
// 2 s of it.

import { afterEach, describe, expect, it } from 'vitest';
import { WakeWatcher, type WakeReason } from '../../../src/main/wake/wake-watcher.ts';
import { virtualTiming, type VirtualTiming } from '../../support/virtual-timing.ts';

let watcher: WakeWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
});

function watch(timing: VirtualTiming, network: { online: boolean }) {
  const woke: { reason: WakeReason; at: number }[] = [];
  watcher = new WakeWatcher({
    timing,
    isOnline: () => network.online,
    onWake: (reason) => void woke.push({ reason, at: timing.now() }),
  });
  return { watcher, woke };
}

/** Lets the network loop look a few times (each look sleeps on the virtual clock). */
async function looks(timing: VirtualTiming, count: number): Promise<void> {
  const until = timing.sleeps.length + count;
  const deadline = Date.now() + 10_000;
  while (timing.sleeps.length < until) {
    if (Date.now() > deadline) throw new Error('the network was not looked at');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('WakeWatcher', () => {
  it('a resume is one wake with the unlock that follows it; a later unlock is another', () => {
    const timing = virtualTiming();
    const { watcher, woke } = watch(timing, { online: true });
    watcher.suspended();
    timing.advance(3_600_000);
    watcher.resumed();
    timing.advance(2_000);
    watcher.unlocked();
    expect(woke.map((wake) => wake.reason)).toEqual(['resume']);
    timing.advance(600_000);
    watcher.unlocked();
    expect(woke.map((wake) => wake.reason)).toEqual(['resume', 'unlock-screen']);
  });

  it('the network seen again after it was gone is a wake, once; asleep, the network is not looked at', async () => {
    const timing = virtualTiming();
    const network = { online: true };
    const { watcher, woke } = watch(timing, network);
    watcher.start();
    await looks(timing, 3);
    expect(woke).toEqual([]);
    network.online = false;
    await looks(timing, 3);
    expect(watcher.online).toBe(false);
    network.online = true;
    await looks(timing, 3);
    expect(woke.map((wake) => wake.reason)).toEqual(['online']);
    expect(timing.sleeps.every((ms) => ms === 2000)).toBe(true);

    // Asleep: the network may come and go, the machine does nothing until it wakes.
    watcher.suspended();
    network.online = false;
    await looks(timing, 2);
    network.online = true;
    await looks(timing, 2);
    expect(woke.map((wake) => wake.reason)).toEqual(['online']);
    timing.advance(60_000);
    watcher.resumed();
    await looks(timing, 2);
    // The wake saw the network there: no second wake for it.
    expect(woke.map((wake) => wake.reason)).toEqual(['online', 'resume']);
  });

  it('close waits for what a wake set going, and nothing wakes after it', async () => {
    const timing = virtualTiming();
    let finish = () => {};
    const done: string[] = [];
    watcher = new WakeWatcher({
      timing,
      isOnline: () => true,
      onWake: () =>
        new Promise<void>((resolve) => {
          finish = () => {
            done.push('checked');
            resolve();
          };
        }),
    });
    watcher.start();
    watcher.resumed();
    const closed = watcher.close().then(() => done.push('closed'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual([]);
    finish();
    await closed;
    expect(done).toEqual(['checked', 'closed']);
    watcher.unlocked();
    expect(done).toEqual(['checked', 'closed']);
  });
});
