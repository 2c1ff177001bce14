// Electron's ipcMain (docs/api/ipc-main.md): `handle` answers a renderer's
// `invoke` (one handler per channel; a second registration throws, as
// Electron's does), `on` receives its `send`. A handler's rejection reaches
// the renderer as "Error invoking remote method '<channel>': <error>".

import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';

export type InvokeHandler = (event: Electron.IpcMainInvokeEvent, ...args: unknown[]) => unknown;

export class StandinIpcMain extends EventEmitter {
  readonly #handlers = new Map<string, InvokeHandler>();
  readonly #invoking = new AsyncLocalStorage<Electron.IpcMainInvokeEvent>();

  handle(channel: string, handler: InvokeHandler): void {
    if (this.#handlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.#handlers.set(channel, handler);
  }

  handleOnce(channel: string, handler: InvokeHandler): void {
    this.handle(channel, (event, ...args) => {
      this.removeHandler(channel);
      return handler(event, ...args);
    });
  }

  removeHandler(channel: string): void {
    this.#handlers.delete(channel);
  }

  /** The stand-in's side: what a renderer's invoke runs (rejects as Electron's does without a handler). */
  async invokeFromRenderer(
    channel: string,
    event: Electron.IpcMainInvokeEvent,
    args: unknown[],
  ): Promise<unknown> {
    const handler = this.#handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return this.#invoking.run(event, () => handler(event, ...args));
  }

  /**
   * The stand-in's side: the invoke whose handler is running (also in what it
   * awaits), so one process that hosts several windows' services (the
   * development harness) can answer each window from its own.
   */
  get currentInvoke(): Electron.IpcMainInvokeEvent | undefined {
    return this.#invoking.getStore();
  }

  /** The channels that have a handler (tests read it). */
  get handledChannels(): string[] {
    return [...this.#handlers.keys()];
  }
}

export const ipcMain = new StandinIpcMain();
