// powerMonitor and the network as the desktop reports them: the machine
// going to sleep and waking, the screen locked and unlocked (docs/api/
// power-monitor.md), and whether there is a network at all (net.isOnline,
// docs/api/net.md). Nothing here happens by itself: the desktop is a test's
// to drive (the control channel's POST /power and POST /network,
// control.ts), as the person closing the lid or walking out of the Wi-Fi.
// The unit tests' mock (test/support/electron-mock.ts) makes its own.

import { EventEmitter } from 'node:events';

/** What powerMonitor emits, of what the stand-in models. */
export const POWER_EVENTS = ['suspend', 'resume', 'lock-screen', 'unlock-screen'] as const;
export type PowerEvent = (typeof POWER_EVENTS)[number];

export function isPowerEvent(value: unknown): value is PowerEvent {
  return typeof value === 'string' && (POWER_EVENTS as readonly string[]).includes(value);
}

export class StandinPowerMonitor extends EventEmitter {
  #locked = false;
  #asleep = false;
  /** Each event emitted so far, oldest first (a test reads what the app was told). */
  readonly happened: PowerEvent[] = [];

  /**
   * The desktop does `event`. As on a desktop, an event that would change
   * nothing is not emitted (no resume without a suspend before it, no unlock
   * of an unlocked screen); returns whether it was.
   */
  happen(event: PowerEvent): boolean {
    if (event === 'suspend' || event === 'resume') {
      const asleep = event === 'suspend';
      if (asleep === this.#asleep) return false;
      this.#asleep = asleep;
    } else {
      const locked = event === 'lock-screen';
      if (locked === this.#locked) return false;
      this.#locked = locked;
    }
    this.happened.push(event);
    this.emit(event);
    return true;
  }

  /**
   * Electron's idle state. The stand-in has no input devices of its own: the
   * person is there ('active') unless the screen is locked.
   */
  getSystemIdleState(idleThreshold: number): 'active' | 'idle' | 'locked' | 'unknown' {
    if (!Number.isInteger(idleThreshold) || idleThreshold < 0)
      throw new TypeError('Error processing argument at index 0, conversion failure');
    return this.#locked ? 'locked' : 'active';
  }
}

/** Whether the machine has a network, as net.isOnline() tells it; online until a test says not. */
export class StandinNetwork {
  #online = true;
  /**
   * How many times the app has asked (net.isOnline, net.online): Electron
   * tells of no change, so the app looks now and then, and a test that takes
   * the network away waits for a look before it gives it back.
   */
  asked = 0;

  get online(): boolean {
    return this.#online;
  }

  /** The app asks. */
  ask(): boolean {
    this.asked += 1;
    return this.#online;
  }

  /** The network goes or comes back (a test, through the control channel). */
  set(online: boolean): void {
    this.#online = online;
  }
}

export const powerMonitor = new StandinPowerMonitor();
export const network = new StandinNetwork();
