// Electron's Notification (docs/api/notification.md): nothing reaches the
// desktop; each shown notification is recorded (title, body, whether it is
// still on screen) for tests, which click or close it through the control
// channel. `click` and `close` are emitted as Electron emits them; `show`
// when it is shown.

import { EventEmitter } from 'node:events';
import { electronEvent } from './events.ts';
import { runtimeEvents } from './runtime.ts';

export interface ShownNotification {
  readonly id: number;
  readonly title: string;
  readonly body: string;
  readonly silent: boolean;
  /** Shown and neither clicked nor closed. */
  open: boolean;
  clicked: boolean;
}

/** Every notification shown in this run, oldest first. */
export const notificationsShown: ShownNotification[] = [];
const live = new Map<number, StandinNotification>();
let nextId = 1;

export class StandinNotification extends EventEmitter {
  title: string;
  body: string;
  silent: boolean;
  #record: ShownNotification | undefined;

  /** The Linux desktops the stand-in stands for have a notification server. */
  static isSupported(): boolean {
    return true;
  }

  constructor(options: Electron.NotificationConstructorOptions = {}) {
    super();
    this.title = options.title ?? '';
    this.body = options.body ?? '';
    this.silent = options.silent ?? false;
  }

  show(): void {
    // Showing one that is on screen again replaces it (the same id), as Electron does.
    if (this.#record?.open) live.delete(this.#record.id);
    const record: ShownNotification = {
      id: nextId++,
      title: this.title,
      body: this.body,
      silent: this.silent,
      open: true,
      clicked: false,
    };
    this.#record = record;
    notificationsShown.push(record);
    live.set(record.id, this);
    runtimeEvents.emit('notification-shown', { ...record });
    this.emit('show', electronEvent());
  }

  close(): void {
    const record = this.#record;
    if (!record?.open) return;
    record.open = false;
    live.delete(record.id);
    this.emit('close', electronEvent());
  }

  /** The person clicks it (the control channel's POST /notification). */
  click(): void {
    const record = this.#record;
    if (!record?.open) return;
    record.open = false;
    record.clicked = true;
    live.delete(record.id);
    runtimeEvents.emit('notification-clicked', { id: record.id });
    this.emit('click', electronEvent());
  }
}

/** A notification on screen, by the id the control channel reports. */
export function notificationOnScreen(id: number): StandinNotification | undefined {
  return live.get(id);
}
