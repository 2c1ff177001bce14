// The only place the renderer side touches ipcRenderer: it exposes the named
// API of src/shared/api.ts through the context bridge, and hands the page the ports that
// carry order lists, nothing else.

import { contextBridge, ipcRenderer } from 'electron';
import { ORDER_STREAM_PORT, STREAM_ID_PATTERN } from '../shared/order-stream.ts';
import { createApi, type Invoke, type Subscribe } from '../shared/api.ts';

const invoke: Invoke = (channel, ...args) => ipcRenderer.invoke(channel, ...args);

const on: Subscribe = (event, listener) => {
  const wrapped = (_event: Electron.IpcRendererEvent, payload: unknown): void =>
    listener(payload as never);
  ipcRenderer.on(event, wrapped);
  return () => {
    ipcRenderer.removeListener(event, wrapped);
  };
};

contextBridge.exposeInMainWorld('storeAdmin', createApi(invoke, on));

// A list's port goes on to the page's own world as it is (Electron's pattern
// for context-isolated pages: a window.postMessage to this same window, which
// the page accepts only from itself), so its columns never cross the context
// bridge. The page asked for the list after its listener was in place, so
// there is no load to wait for.
// (The preload is typed against Node's globals; `window` is the page's window object.)
const page = globalThis as unknown as {
  postMessage(message: unknown, targetOrigin: string, transfer: readonly unknown[]): void;
};
ipcRenderer.on(ORDER_STREAM_PORT, (event, meta: unknown) => {
  const streamId = (meta as { streamId?: unknown } | null)?.streamId;
  if (typeof streamId !== 'string' || !STREAM_ID_PATTERN.test(streamId)) return;
  page.postMessage({ type: ORDER_STREAM_PORT, streamId }, '*', event.ports);
});
