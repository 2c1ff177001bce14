// The only place the renderer side touches ipcRenderer: it exposes the named
// API of api.ts through the context bridge, nothing else.

import { contextBridge, ipcRenderer } from 'electron';
import { createApi, type Invoke, type Subscribe } from './api.ts';

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
