// The only place main touches ipcMain. Each channel of the contract is
// registered once; a call from anything but the app's own window and page is
// refused before its arguments are even looked at.

import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CHANNELS, type EventName, type EventPayloads } from '../../shared/ipc-contract.ts';
import { fail } from '../../shared/result.ts';
import { dispatch } from './dispatch.ts';
import type { Emit, Handlers } from './handlers.ts';

export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

export function registerIpc(handlers: Handlers, isTrustedSender: SenderCheck): () => void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, async (event, ...args: unknown[]) => {
      if (!isTrustedSender(event)) {
        console.error(`IPC ${channel}: refused a call from an untrusted sender`);
        return fail({
          kind: 'invalid-input',
          message: 'This window may not use Store Admin.',
          delivery: 'not-sent',
        });
      }
      return dispatch(handlers, channel, args);
    });
  }
  return () => CHANNELS.forEach((channel) => ipcMain.removeHandler(channel));
}

/** Sends typed events to one window, and drops them once it is gone. */
export function emitTo(contents: () => WebContents | undefined): Emit {
  return <E extends EventName>(event: E, payload: EventPayloads[E]) => {
    const target = contents();
    if (target && !target.isDestroyed()) target.send(event, payload);
  };
}
