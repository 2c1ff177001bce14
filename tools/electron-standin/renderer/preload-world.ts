/// <reference lib="dom" />
// What a sandboxed preload gets from `require('electron')` in the stand-in:
// ipcRenderer and contextBridge (Electron's docs/api/ipc-renderer.md and
// docs/api/context-bridge.md), running in the preload's isolated world. It
// talks to main through a DevTools binding that only this world has, and
// main answers by calling `receive` in this world. Ports that main transfers
// (webContents.postMessage) arrive as real MessagePorts whose other end this
// world keeps and relays, so the page can use them as it would in Electron.
//
// Self-contained: injected by its source text.

import type { Codec } from '../codec.ts';
import type { WorldBridge } from './world-bridge.ts';

type Listener = (...args: unknown[]) => void;

export interface PreloadWorld {
  require(id: string): unknown;
  /** Main's messages for this world (called through the DevTools protocol), handled in order. */
  receive(text: string): void;
  /**
   * A large message main left in a file set on `input` (a detached file input
   * only this world holds), as a binary block (codec.ts's pack): read by
   * Chromium from the disk, which is far faster than the protocol's strings.
   * Resolves once it is handled.
   */
  receiveFile(): Promise<void>;
}

export function preloadWorld(
  codec: Codec,
  makeBridge: (codec: Codec, node: EventTarget, side: 'preload' | 'page') => WorldBridge,
  toMain: (text: string) => void,
): PreloadWorld {
  const listeners = new Map<string, Listener[]>();
  const invokes = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  const ports = new Map<string, MessagePort>();
  const exposed = new Map<string, unknown>();
  let nextInvoke = 0;
  const post = (message: Record<string, unknown>) => toMain(codec.encode(message));

  // A port main kept the other end of: this world relays between the two.
  const relay = (id: string): MessagePort => {
    const channel = new MessageChannel();
    const local = channel.port1;
    ports.set(id, local);
    local.onmessage = (event) => {
      try {
        post({ k: 'port-message', port: id, data: event.data });
      } catch (error) {
        console.error('A message could not be sent to main:', error);
      }
    };
    local.addEventListener('close', () => {
      if (ports.delete(id)) post({ k: 'port-close', port: id });
    });
    return channel.port2;
  };

  const ipcRenderer = {
    invoke(channel: string, ...args: unknown[]): Promise<unknown> {
      const id = ++nextInvoke;
      return new Promise((resolve, reject) => {
        invokes.set(id, { resolve, reject });
        try {
          post({ k: 'invoke', id, channel, args });
        } catch (error) {
          invokes.delete(id);
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    },
    send(channel: string, ...args: unknown[]): void {
      post({ k: 'send', channel, args });
    },
    sendSync(): never {
      throw new Error('ipcRenderer.sendSync is not modelled by the Electron stand-in.');
    },
    on(channel: string, listener: Listener) {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      return ipcRenderer;
    },
    once(channel: string, listener: Listener) {
      const once: Listener = (...args) => {
        ipcRenderer.removeListener(channel, once);
        listener(...args);
      };
      return ipcRenderer.on(channel, once);
    },
    removeListener(channel: string, listener: Listener) {
      const kept = (listeners.get(channel) ?? []).filter((l) => l !== listener);
      if (kept.length > 0) listeners.set(channel, kept);
      else listeners.delete(channel);
      return ipcRenderer;
    },
    off(channel: string, listener: Listener) {
      return ipcRenderer.removeListener(channel, listener);
    },
    removeAllListeners(channel?: string) {
      if (channel === undefined) listeners.clear();
      else listeners.delete(channel);
      return ipcRenderer;
    },
    listenerCount(channel: string): number {
      return listeners.get(channel)?.length ?? 0;
    },
  };

  const contextBridge = {
    exposeInMainWorld(key: string, api: unknown): void {
      if (exposed.has(key))
        throw new Error(`Cannot bind an API on top of an existing property on the window object`);
      exposed.set(key, api);
    },
  };

  // The page's world asks for what was exposed once, before any of its scripts runs.
  document.addEventListener(
    'electron-standin:hello',
    () => {
      const node = document.createElement('span');
      const bridge = makeBridge(codec, node, 'preload');
      const api = bridge.encode(Object.fromEntries(exposed));
      document.dispatchEvent(new FocusEvent('electron-standin:bridge', { relatedTarget: node }));
      node.dispatchEvent(new CustomEvent('page:exposed', { detail: api }));
    },
    { once: true },
  );

  // Messages are handled in the order main sent them, a file's included.
  let handled: Promise<void> = Promise.resolve();
  const input = document.createElement('input');
  input.type = 'file';
  (globalThis as unknown as { __electronStandinInput: HTMLInputElement }).__electronStandinInput =
    input;

  /** `fresh`: buffers this world made for the message alone, moved on to a port rather than copied. */
  const handle = (message: Record<string, unknown>, fresh: ArrayBuffer[] = []): void => {
    switch (message['k']) {
      case 'reply': {
        const waiting = invokes.get(message['id'] as number);
        invokes.delete(message['id'] as number);
        if (message['ok']) waiting?.resolve(message['value']);
        else
          waiting?.reject(
            new Error(
              `Error invoking remote method '${String(message['channel'])}': ${String(message['error'])}`,
            ),
          );
        return;
      }
      case 'event': {
        const event = {
          sender: ipcRenderer,
          senderId: 0,
          ports: ((message['ports'] as string[] | undefined) ?? []).map(relay),
        };
        for (const listener of [...(listeners.get(message['channel'] as string) ?? [])])
          listener(event, ...(message['args'] as unknown[]));
        return;
      }
      case 'port-message':
        ports.get(message['port'] as string)?.postMessage(message['data'], fresh);
        return;
      case 'port-close': {
        const port = ports.get(message['port'] as string);
        ports.delete(message['port'] as string);
        port?.close();
        return;
      }
    }
  };
  const inOrder = (work: () => Promise<void> | void): Promise<void> => {
    handled = handled.then(work).catch((error: unknown) => {
      console.error('A message from main could not be handled:', error);
    });
    return handled;
  };

  return {
    require(id: string): unknown {
      if (id === 'electron' || id === 'electron/renderer') return { ipcRenderer, contextBridge };
      throw new Error(`module not found: ${id} (a sandboxed preload may require only electron)`);
    },
    receive(text: string): void {
      void inOrder(() => handle(codec.decode(text) as Record<string, unknown>));
    },
    receiveFile(): Promise<void> {
      // Read at once, beside the files before it (Chromium reads them in parallel); handled in turn.
      const reading = input.files?.[0]?.arrayBuffer();
      return inOrder(async () => {
        if (!reading) return;
        const { value, buffers } = codec.unpack(await reading);
        handle(value as Record<string, unknown>, buffers);
      });
    },
  };
}

/** The page's side of the context bridge: builds `window[key]` for each exposed API. */
export function pageWorld(
  codec: Codec,
  makeBridge: (codec: Codec, node: EventTarget, side: 'preload' | 'page') => WorldBridge,
): void {
  let node: EventTarget | undefined;
  let exposed: string | undefined;
  // The node arrives with the hello's answer, and the exposed APIs on it at once.
  document.addEventListener(
    'electron-standin:bridge',
    (event) => {
      node = (event as FocusEvent).relatedTarget ?? undefined;
      node?.addEventListener(
        'page:exposed',
        (exposedEvent) => (exposed = (exposedEvent as CustomEvent<string>).detail),
        { once: true },
      );
    },
    { once: true },
  );
  document.dispatchEvent(new Event('electron-standin:hello'));
  if (!node || exposed === undefined) return;
  const bridge = makeBridge(codec, node, 'page');
  const apis = bridge.decode(exposed) as Record<string, unknown>;
  const freeze = (value: unknown): unknown => {
    if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
      Object.values(value).forEach(freeze);
      Object.freeze(value);
    }
    return value;
  };
  for (const [key, api] of Object.entries(apis)) {
    Object.defineProperty(window, key, { value: freeze(api), enumerable: true });
  }
}
