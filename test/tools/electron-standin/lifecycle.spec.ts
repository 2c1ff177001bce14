// The stand-in's app lifecycle and message ports, in Electron's order
// (docs/api/app.md, docs/api/message-port-main.md), without Chromium.

import { mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StandinApp } from '../../../tools/electron-standin/electron/app.ts';
import { MessageChannelMain } from '../../../tools/electron-standin/electron/message-channel-main.ts';

/** An app whose exit is recorded, with windows a test controls. */
function appWithWindows(count: number) {
  const app = new StandinApp();
  const exits: number[] = [];
  app.exit = (code = 0) => void exits.push(code);
  const order: string[] = [];
  const windows = Array.from({ length: count }, (_, index) => {
    const window = {
      destroyed: false,
      preventClose: false,
      isDestroyed: () => window.destroyed,
      close: () => {
        order.push(`close ${index}`);
        if (window.preventClose) {
          app.windowCloseCancelled();
          return;
        }
        window.destroyed = true;
        app.windowClosed();
      },
    };
    return window;
  });
  app.attachWindows(
    { all: () => windows, closeAllForExit: async () => undefined },
    async () => undefined,
  );
  for (const event of ['before-quit', 'will-quit', 'quit', 'window-all-closed'])
    app.on(event, () => order.push(event));
  app.markReady();
  return { app, windows, order, exits };
}

describe('app.quit', () => {
  it('emits before-quit, closes every window, then will-quit and quit, and exits 0', () => {
    const { app, order, exits } = appWithWindows(2);
    app.quit();
    expect(order).toEqual(['before-quit', 'close 0', 'close 1', 'will-quit', 'quit']);
    expect(exits).toEqual([0]);
  });

  it('stops where before-quit is prevented, and can quit later', () => {
    const { app, order, exits } = appWithWindows(1);
    app.once('before-quit', (event: { preventDefault(): void }) => event.preventDefault());
    app.quit();
    expect(order).toEqual(['before-quit']);
    expect(exits).toEqual([]);
    app.quit();
    expect(order).toEqual(['before-quit', 'before-quit', 'close 0', 'will-quit', 'quit']);
  });

  it('stops when a window refuses to close, and when will-quit is prevented', () => {
    const refused = appWithWindows(1);
    refused.windows[0]!.preventClose = true;
    refused.app.quit();
    expect(refused.order).toEqual(['before-quit', 'close 0']);
    expect(refused.exits).toEqual([]);

    const held = appWithWindows(0);
    held.app.once('will-quit', (event: { preventDefault(): void }) => event.preventDefault());
    held.app.quit();
    expect(held.exits).toEqual([]);
  });

  it('emits window-all-closed when the last window closes by itself, and never during a quit', () => {
    const { windows, order, exits } = appWithWindows(2);
    windows[0]!.close();
    windows[1]!.close();
    expect(order).toEqual(['close 0', 'close 1', 'window-all-closed']);
    expect(exits).toEqual([]);
  });

  it('quits when the last window closes and nobody listens for window-all-closed', () => {
    const app = new StandinApp();
    const exits: number[] = [];
    app.exit = (code = 0) => void exits.push(code);
    const window = {
      destroyed: false,
      isDestroyed: () => window.destroyed,
      close: () => undefined,
    };
    app.attachWindows(
      { all: () => [window], closeAllForExit: async () => undefined },
      async () => undefined,
    );
    app.markReady();
    window.destroyed = true;
    app.windowClosed();
    expect(exits).toEqual([0]);
  });
});

describe('app.requestSingleInstanceLock', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('holds the lock against another live process, and hands it its command line', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'standin-lock-'));
    dirs.push(userData);
    const first = new StandinApp();
    first.setPath('userData', userData);
    const seen = new Promise<unknown[]>((resolve) =>
      first.once('second-instance', (_event, argv: unknown, cwd: unknown) => resolve([argv, cwd])),
    );
    expect(first.requestSingleInstanceLock()).toBe(true);
    expect(readlinkSync(join(userData, 'SingletonLock'))).toMatch(new RegExp(`-${process.pid}$`));

    // A second process (the stand-in's own code, in Node) asks for the same lock.
    const script = `
      import { StandinApp } from ${JSON.stringify(join(import.meta.dirname, '../../../tools/electron-standin/electron/app.ts'))};
      const app = new StandinApp();
      app.setPath('userData', ${JSON.stringify(userData)});
      console.log(app.requestSingleInstanceLock());
      app.exit(0);`;
    const second = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: tmpdir(),
    });
    let output = '';
    second.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => second.on('exit', resolve));
    expect(output.trim()).toBe('false');
    expect(code).toBe(0);
    const [, cwd] = await seen;
    expect(cwd).toBe(tmpdir());
    first.releaseSingleInstanceLock();
  });

  it('takes over the lock of a process that is gone', () => {
    const userData = mkdtempSync(join(tmpdir(), 'standin-lock-'));
    dirs.push(userData);
    // A pid far above any live one.
    symlinkSync(`${hostname()}-999999999`, join(userData, 'SingletonLock'));
    const app = new StandinApp();
    app.setPath('userData', userData);
    expect(app.requestSingleInstanceLock()).toBe(true);
    app.releaseSingleInstanceLock();
  });
});

describe('MessagePortMain', () => {
  it('queues messages until start, copies them, and tells the other end of a close', async () => {
    const { port1, port2 } = new MessageChannelMain();
    const got: unknown[] = [];
    port2.on('message', (event: { data: unknown }) => got.push(event.data));
    const closed = new Promise<void>((resolve) => port2.on('close', () => resolve()));
    const sent = { rows: new Uint32Array([1, 2]) };
    port1.postMessage(sent);
    sent.rows[0] = 99;
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toEqual([]);
    port2.start();
    await new Promise((resolve) => setImmediate(resolve));
    expect(got).toEqual([{ rows: new Uint32Array([1, 2]) }]);
    port1.close();
    await closed;
    expect(port2.closed).toBe(true);
  });

  it("tells a renderer's end that its peer in main closed, after what was posted before", async () => {
    const { port1, port2 } = new MessageChannelMain();
    const renderer: string[] = [];
    port1.moveTo({
      post: (data) => renderer.push(String(data)),
      close: () => renderer.push('close'),
    });
    port2.postMessage('last rows');
    port2.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(renderer).toEqual(['last rows', 'close']);
    expect(port1.closed).toBe(true);
  });

  it('transfers only ports', () => {
    const { port1 } = new MessageChannelMain();
    expect(() => port1.postMessage('x', [new ArrayBuffer(1)])).toThrow(
      'Port at index 0 is not a valid port',
    );
  });
});
