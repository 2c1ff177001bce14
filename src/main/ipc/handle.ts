// The only place main touches ipcMain. Each channel of the contract is
// registered once; a call from anything but the app's own window and page is
// refused before its arguments are even looked at.

import { ipcMain, MessageChannelMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { CHANNELS, type EventName, type EventPayloads } from '../../shared/ipc-contract.ts';
import { ORDER_STREAM_PORT } from '../../shared/order-stream.ts';
import { fail } from '../../shared/result.ts';
import type { OpenOrderStream } from '../orders/order-stream.ts';
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

/**
 * Each list's rows go to one window over a MessagePort of their own: main
 * keeps one end and sends the other to the preload, which hands it to the
 * page (Electron's pattern for a context-isolated page), so the columns
 * reach the page's own world without passing the context bridge. A
 * MessagePortMain transfers only ports: the typed arrays are copied into
 * each message as it is posted (a process boundary copies them anyway), and
 * main lets go of them at once. A window gone meanwhile gets nothing.
 */
export function streamOrdersTo(contents: () => WebContents | undefined): OpenOrderStream {
  return (streamId) => {
    const target = contents();
    if (!target || target.isDestroyed()) return { post: () => undefined, close: () => undefined };
    const { port1, port2 } = new MessageChannelMain();
    target.postMessage(ORDER_STREAM_PORT, { streamId }, [port1]);
    return {
      post: (message) => port2.postMessage(message),
      close: () => port2.close(),
    };
  };
}
