// Electron's webContents (docs/api/web-contents.md) over a Chromium page:
// the preload (webPreferences.preload) runs at document start in an isolated
// world of its own ("Electron Isolated Context", as Electron names it), with
// `require('electron')` giving ipcRenderer and contextBridge
// (renderer/preload-world.ts); the page's world sees only what the preload
// exposed. Main and the preload's world talk over the DevTools protocol: a
// binding only that world has, and calls into that world.

import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CDPSession, Page } from 'playwright-core';
import { standinCodec } from '../codec.ts';
import { pageWorld, preloadWorld } from '../renderer/preload-world.ts';
import { worldBridge } from '../renderer/world-bridge.ts';
import { electronEvent } from './events.ts';
import { ipcMain } from './ipc-main.ts';
import { assertPorts, type MessagePortMain } from './message-channel-main.ts';
import { runtimeEvents } from './runtime.ts';
import { session } from './session.ts';

export const PRELOAD_WORLD = 'Electron Isolated Context';
const BINDING = '__electronStandinToMain';
/**
 * Byte payloads (typed arrays, ArrayBuffers) this large go beside a
 * message's text, as raw bytes; a message with any, or this long itself,
 * goes to the preload's world through a file (#spill).
 */
const BESIDE_BYTES = 64 * 1024;
const SPILL_BYTES = 256 * 1024;
const codec = standinCodec();

function preloadScript(preload: string | undefined): string {
  const source = preload === undefined ? '' : readFileSync(preload, 'utf8');
  return `(() => {
  if (window !== window.top) return;
  const toMain = globalThis[${JSON.stringify(BINDING)}];
  try { delete globalThis[${JSON.stringify(BINDING)}]; } catch {}
  const codec = (${standinCodec.toString()})();
  const world = (${preloadWorld.toString()})(codec, ${worldBridge.toString()}, (text) => toMain(text));
  Object.defineProperty(globalThis, '__electronStandinReceive', { value: world.receive });
  Object.defineProperty(globalThis, '__electronStandinReceiveFile', { value: world.receiveFile });
  const module = { exports: {} };
  try {
    (function (require, module, exports) {
${source}
    })(world.require, module, module.exports);
  } catch (error) {
    console.error('Unable to load preload script: ${preload ?? ''}', error);
    toMain(codec.encode({ k: 'preload-error', message: String((error && error.stack) || error) }));
  }
})();`;
}

function pageScript(): string {
  return `(() => {
  if (window !== window.top) return;
  (${pageWorld.toString()})((${standinCodec.toString()})(), ${worldBridge.toString()});
})();`;
}

type WindowOpenHandler = Parameters<Electron.WebContents['setWindowOpenHandler']>[0];

/** A message on its way to the preload's world: a string over the protocol, or a block for a file. */
type Outgoing = { readonly text: string } | { readonly block: Uint8Array };

let nextId = 1;
/** Every webContents not yet destroyed, as Electron's webContents module finds them. */
const living = new Set<StandinWebContents>();

export class StandinWebContents extends EventEmitter {
  readonly id = nextId++;
  readonly session = session.defaultSession;
  readonly #preload: string | undefined;
  #page: Page | undefined;
  #cdp: CDPSession | undefined;
  #attached: Promise<void>;
  #resolveAttached!: () => void;
  #held: Promise<void> = Promise.resolve();
  #preloadContext: number | undefined;
  #outbox: Outgoing[] = [];
  /** Deliveries to the preload's world go out one after another, in order. */
  #sending: Promise<void> = Promise.resolve();
  #spillDir: string | undefined;
  #spilled = 0;
  #input: { context: number; objectId: string } | undefined;
  #destroyed = false;
  #windowOpenHandler: WindowOpenHandler | undefined;
  readonly #ports = new Map<string, MessagePortMain>();
  #nextPort = 0;
  #zoom = 1;
  #targetId: string | undefined;
  /** The window that owns it (browser-window.ts sets it). */
  owner: { id: number; close(): void; isFocused(): boolean } | undefined;

  constructor(webPreferences: Electron.WebPreferences = {}) {
    super();
    this.#preload = webPreferences.preload;
    this.#attached = new Promise((r) => (this.#resolveAttached = r));
    living.add(this);
  }

  /** The stand-in's side: the page this webContents shows. */
  async attach(page: Page): Promise<void> {
    this.#page = page;
    const cdp = await page.context().newCDPSession(page);
    this.#cdp = cdp;
    this.#targetId = (await cdp.send('Target.getTargetInfo')).targetInfo.targetId;
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const mainFrame = frameTree.frame.id;
    cdp.on('Runtime.executionContextCreated', ({ context }) => {
      const aux = context.auxData as { frameId?: string } | undefined;
      if (context.name === PRELOAD_WORLD && aux?.frameId === mainFrame) {
        this.#preloadContext = context.id;
        const waiting = this.#outbox.splice(0);
        for (const outgoing of waiting) this.#deliver(outgoing);
      }
    });
    cdp.on('Runtime.executionContextDestroyed', ({ executionContextId }) => {
      if (executionContextId === this.#preloadContext) this.#preloadContext = undefined;
    });
    cdp.on('Runtime.executionContextsCleared', () => (this.#preloadContext = undefined));
    cdp.on('Runtime.bindingCalled', ({ name, payload, executionContextId }) => {
      if (name !== BINDING || executionContextId !== this.#preloadContext) return;
      this.#fromPreload(payload);
    });
    await cdp.send('Runtime.enable');
    await cdp.send('Page.enable');
    await cdp.send('DOM.enable');
    await cdp.send('Runtime.addBinding', { name: BINDING, executionContextName: PRELOAD_WORLD });
    await cdp.send('Page.addScriptToEvaluateOnNewDocument', {
      source: preloadScript(this.#preload),
      worldName: PRELOAD_WORLD,
    });
    await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: pageScript() });
    page.on('domcontentloaded', () => this.emit('dom-ready', electronEvent()));
    page.on('load', () => this.emit('did-finish-load', electronEvent()));
    page.on('crash', () =>
      this.emit('render-process-gone', electronEvent(), { reason: 'crashed', exitCode: 0 }),
    );
    page.on('console', (message) => {
      const levels: Record<string, number> = { debug: 0, info: 1, log: 1, warning: 2, error: 3 };
      const location = message.location();
      this.emit(
        'console-message',
        electronEvent({
          level: message.type(),
          message: message.text(),
          lineNumber: location.lineNumber,
          sourceId: location.url,
        }),
        levels[message.type()] ?? 1,
        message.text(),
        location.lineNumber,
        location.url,
      );
      runtimeEvents.emit('console', {
        webContentsId: this.id,
        type: message.type(),
        text: message.text(),
        url: location.url,
      });
    });
    page.on('pageerror', (error) =>
      runtimeEvents.emit('console', {
        webContentsId: this.id,
        type: 'pageerror',
        text: error.message,
        url: '',
      }),
    );
    // A new window the page asks for goes to the window-open handler; denied, it closes at once.
    page.on('popup', (popup) => {
      const url = popup.url();
      const answer = this.#windowOpenHandler?.({
        url,
        frameName: '',
        features: '',
        disposition: 'foreground-tab',
        referrer: { url: page.url(), policy: 'strict-origin-when-cross-origin' },
        postBody: undefined,
      });
      if (!answer || answer.action === 'deny') void popup.close();
    });
    this.#resolveAttached();
  }

  /** Ports given to the page so far, and those still open (the stand-in's side: tests read them). */
  get ports(): { readonly given: number; readonly open: number } {
    return { given: this.#nextPort, open: this.#ports.size };
  }

  /** How many messages went to the preload's world through a file (tests read it). */
  get spilled(): number {
    return this.#spilled;
  }

  /** The stand-in's side: the page, for the control channel and tests. */
  get page(): Page | undefined {
    return this.#page;
  }

  /**
   * The stand-in's side: loads wait until `release` is called, so a test can
   * set its watchers on the page before the app's document arrives.
   */
  holdLoads(): () => void {
    let release!: () => void;
    this.#held = new Promise((resolve) => (release = resolve));
    return release;
  }

  async loadURL(url: string): Promise<void> {
    await this.#attached;
    await this.#held;
    const page = this.#page!;
    this.emit('did-start-loading');
    try {
      await page.goto(url, { waitUntil: 'load' });
    } catch (error) {
      this.emit('did-fail-load', electronEvent(), -2, String(error), url, true);
      throw error;
    } finally {
      this.emit('did-stop-loading');
    }
  }

  async loadFile(
    filePath: string,
    options: { query?: Record<string, string>; search?: string; hash?: string } = {},
  ): Promise<void> {
    const url = pathToFileURL(resolve(filePath));
    if (options.query) url.search = new URLSearchParams(options.query).toString();
    else if (options.search) url.search = options.search;
    if (options.hash) url.hash = options.hash;
    return this.loadURL(url.href);
  }

  /** Chromium's id of the page's DevTools target (what webContents.fromDevToolsTargetId finds). */
  get devToolsTargetId(): string | undefined {
    return this.#targetId;
  }

  /**
   * As if the page called window.close() (docs/api/web-contents.md): a
   * window's contents close the window, which may still prevent it.
   * `waitForBeforeUnload` is not modelled: no beforeunload handler runs first.
   */
  close(_opts?: Electron.CloseOpts): void {
    if (this.#destroyed) return;
    if (this.owner) this.owner.close();
    else this.destroyed();
  }

  getURL(): string {
    return this.#page?.url() ?? '';
  }

  getTitle(): string {
    return '';
  }

  isLoading(): boolean {
    return false;
  }

  reload(): void {
    void this.#page?.reload();
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  focus(): void {
    void this.#page?.bringToFront();
  }

  /** Focused with its window (a window has one webContents here). */
  isFocused(): boolean {
    return this.owner?.isFocused() ?? false;
  }

  isDevToolsOpened(): boolean {
    return false;
  }

  openDevTools(): void {}
  closeDevTools(): void {}
  toggleDevTools(): void {}

  setZoomFactor(factor: number): void {
    this.#zoom = factor;
  }

  getZoomFactor(): number {
    return this.#zoom;
  }

  async executeJavaScript(code: string): Promise<unknown> {
    await this.#attached;
    return this.#page!.evaluate(code);
  }

  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.#windowOpenHandler = handler;
  }

  /** Delivered to the preload's ipcRenderer listeners (docs/api/web-contents.md, send). */
  send(channel: string, ...args: unknown[]): void {
    if (this.#destroyed) throw new Error('Object has been destroyed');
    this.#toPreload({ k: 'event', channel, args });
  }

  /** With ports: they arrive as `event.ports` in the preload (docs/tutorial/message-ports.md). */
  postMessage(channel: string, message: unknown, transfer: readonly unknown[] = []): void {
    if (this.#destroyed) throw new Error('Object has been destroyed');
    assertPorts(transfer);
    const ids = transfer.map((port) => {
      const id = `${this.id}-${++this.#nextPort}`;
      this.#ports.set(id, port);
      port.moveTo({
        post: (data) => this.#toPreload({ k: 'port-message', port: id, data }),
        close: () => {
          if (this.#ports.delete(id)) this.#toPreload({ k: 'port-close', port: id });
        },
      });
      return id;
    });
    this.#toPreload({ k: 'event', channel, args: [message], ports: ids });
  }

  /** The stand-in's side: the window closed. */
  destroyed(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    living.delete(this);
    for (const port of this.#ports.values()) port.closedRemotely();
    this.#ports.clear();
    if (this.#spillDir) rmSync(this.#spillDir, { recursive: true, force: true });
    this.emit('destroyed');
  }

  #toPreload(message: Record<string, unknown>): void {
    const { block, parts } = codec.pack(message, BESIDE_BYTES);
    const outgoing: Outgoing =
      parts === 0 && block.byteLength < SPILL_BYTES ? { text: codec.encode(message) } : { block };
    if (this.#preloadContext === undefined) this.#outbox.push(outgoing);
    else this.#deliver(outgoing);
  }

  #deliver(outgoing: Outgoing): void {
    const context = this.#preloadContext;
    const cdp = this.#cdp;
    if (context === undefined || !cdp) return;
    // A block's file is written at once, while those before it are still being handed over.
    const file = 'block' in outgoing ? this.#write(outgoing.block) : undefined;
    this.#sending = this.#sending
      .then(async () =>
        'text' in outgoing
          ? this.#call(cdp, context, outgoing.text)
          : this.#spill(cdp, context, await file!),
      )
      // The page went away meanwhile: Electron drops the message too.
      .catch(() => undefined);
  }

  #call(cdp: CDPSession, context: number, text: string): void {
    void cdp
      .send('Runtime.callFunctionOn', {
        functionDeclaration: 'function (text) { globalThis.__electronStandinReceive(text); }',
        executionContextId: context,
        arguments: [{ value: text }],
      })
      .catch(() => undefined);
  }

  /** A block in a file of its own, in a folder removed with the window (or at exit). */
  async #write(block: Uint8Array): Promise<string> {
    if (!this.#spillDir) {
      const dir = mkdtempSync(join(tmpdir(), 'electron-standin-spill-'));
      this.#spillDir = dir;
      process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    }
    const file = join(this.#spillDir, `${++this.#spilled}.bin`);
    await writeFile(file, block);
    return file;
  }

  /**
   * A large message (an order list's columns) goes as a binary block
   * (codec.ts's pack) through a file that Chromium reads itself, set on a
   * file input only the preload's world holds: the protocol carries strings
   * only (base64 and JSON for bytes, some 8 MB/s here), a file raw bytes.
   * The preload's world takes the file from the input as it is called, so
   * the next file may be set at once.
   */
  async #spill(cdp: CDPSession, context: number, file: string): Promise<void> {
    if (this.#input?.context !== context) {
      const { result } = await cdp.send('Runtime.evaluate', {
        expression: 'globalThis.__electronStandinInput',
        contextId: context,
      });
      this.#input = { context, objectId: result.objectId! };
    }
    await cdp.send('DOM.setFileInputFiles', { files: [file], objectId: this.#input.objectId });
    void cdp
      .send('Runtime.callFunctionOn', {
        functionDeclaration: 'function () { return globalThis.__electronStandinReceiveFile(); }',
        executionContextId: context,
        awaitPromise: true,
      })
      .catch(() => undefined)
      .finally(() => void rm(file, { force: true }));
  }

  #fromPreload(payload: string): void {
    let message: Record<string, unknown>;
    try {
      message = codec.decode(payload) as Record<string, unknown>;
    } catch {
      return;
    }
    const senderFrame = {
      url: this.getURL(),
      routingId: 1,
      processId: 1,
      frameTreeNodeId: 1,
      name: '',
      top: null,
      parent: null,
    };
    switch (message['k']) {
      case 'invoke': {
        const id = message['id'];
        const channel = message['channel'] as string;
        const event = {
          sender: this,
          senderFrame,
          frameId: 1,
          processId: 1,
          type: 'frame',
        } as unknown as Electron.IpcMainInvokeEvent;
        ipcMain
          .invokeFromRenderer(channel, event, message['args'] as unknown[])
          .then(
            (value) => this.#toPreload({ k: 'reply', id, channel, ok: true, value }),
            (error: unknown) =>
              this.#toPreload({ k: 'reply', id, channel, ok: false, error: String(error) }),
          )
          .catch((error: unknown) =>
            this.#toPreload({ k: 'reply', id, channel, ok: false, error: String(error) }),
          );
        return;
      }
      case 'send': {
        const event = {
          sender: this,
          senderFrame,
          frameId: 1,
          processId: 1,
          ports: [],
          returnValue: undefined,
          reply: (ch: string, ...a: unknown[]) => this.send(ch, ...a),
        };
        ipcMain.emit(message['channel'] as string, event, ...(message['args'] as unknown[]));
        return;
      }
      case 'port-message':
        this.#ports.get(message['port'] as string)?.fromRemote(message['data']);
        return;
      case 'port-close': {
        const port = this.#ports.get(message['port'] as string);
        this.#ports.delete(message['port'] as string);
        port?.closedRemotely();
        return;
      }
      case 'preload-error':
        this.emit(
          'preload-error',
          electronEvent(),
          this.#preload,
          new Error(String(message['message'])),
        );
        runtimeEvents.emit('console', {
          webContentsId: this.id,
          type: 'error',
          text: `preload: ${String(message['message'])}`,
          url: '',
        });
        return;
    }
  }
}

/** Electron's `webContents` module (docs/api/web-contents.md, its static methods). */
export const webContents = {
  getAllWebContents: (): StandinWebContents[] => [...living],
  getFocusedWebContents: (): StandinWebContents | null =>
    [...living].find((contents) => contents.isFocused()) ?? null,
  fromId: (id: number): StandinWebContents | undefined =>
    [...living].find((contents) => contents.id === id),
  /** The webContents whose page is that DevTools target (what playwright's Electron driver asks). */
  fromDevToolsTargetId: (targetId: string): StandinWebContents | undefined =>
    [...living].find((contents) => contents.devToolsTargetId === targetId),
};
