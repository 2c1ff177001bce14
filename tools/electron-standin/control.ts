// The test's side door into a running stand-in, never part of the app: with
// ELECTRON_STANDIN_CONTROL naming a folder, the stand-in writes
// standin-<pid>.json there (its pid, its DevTools endpoint for playwright's
// connectOverCDP, its control socket) and answers on that socket:
//   GET  /state           windows, the application menu, dialogs waiting, shell and crashReporter calls
//   GET  /events?after=N  what happened since event N (dialogs, focus, windows, page console, exit)
//   POST /dialog          {"id"?, "response", "checkboxChecked"?} answers a waiting dialog
//   POST /menu            {"path": ["File", "Quit"]} clicks a menu item
//   POST /quit            quits as the OS would ask (app.quit())
//   POST /blur            the person turns to another app: the focused window loses focus
//   POST /notification    {"id", "action": "click" | "close"} as the person does on the desktop
//   POST /power           {"event": "suspend" | "resume" | "lock-screen" | "unlock-screen"} powerMonitor's
//   POST /network         {"online": true | false} the network goes or comes back (net.isOnline);
//                         answers how often the app had asked until then
// The socket is a file in that folder, so only whoever can read it gets in.

import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { app } from './electron/app.ts';
import { BrowserWindow } from './electron/browser-window.ts';
import { crashReporterStarts } from './electron/crash-reporter.ts';
import { dialogs } from './electron/dialog.ts';
import { Menu, popups } from './electron/menu.ts';
import { notificationOnScreen, notificationsShown } from './electron/notification.ts';
import { isPowerEvent, network, powerMonitor } from './electron/power-monitor.ts';
import { runtimeEvents } from './electron/runtime.ts';
import { safeStorage } from './electron/safe-storage.ts';
import { session } from './electron/session.ts';
import { shellCalls } from './electron/shell.ts';

export interface Control {
  publish(info: Record<string, unknown>): void;
  close(): Promise<void>;
}

interface Happening {
  readonly seq: number;
  readonly at: number;
  readonly kind: string;
  readonly detail: unknown;
}

function state(): Record<string, unknown> {
  const focused = BrowserWindow.getFocusedWindow();
  return {
    ready: app.isReady(),
    isPackaged: app.isPackaged,
    name: app.getName(),
    userData: app.getPath('userData'),
    windows: BrowserWindow.getAllWindows().map((window) => ({
      id: window.id,
      url: window.webContents.getURL(),
      visible: window.isVisible(),
      focused: window === focused,
      focusCount: window.focusCount,
      spilled: window.webContents.spilled,
      minimized: window.isMinimized(),
      maximized: window.isMaximized(),
      bounds: window.getBounds(),
      progressBar: window.progressBar,
    })),
    notifications: notificationsShown,
    menu: Menu.getApplicationMenu()?.items.map((item) => item.describe()) ?? null,
    contextMenus: popups.length,
    dialogs: [...dialogs.pending.values()].map(({ dialog }) => dialog),
    dialogsShown: dialogs.shown,
    shell: shellCalls,
    crashReporter: crashReporterStarts,
    safeStorage: {
      backend: safeStorage.backend,
      selected: safeStorage.getSelectedStorageBackend(),
      plainText: safeStorage.usesPlainText,
      calls: safeStorage.calls,
    },
    power: { happened: powerMonitor.happened, online: network.online, asked: network.asked },
    session: {
      permissionRequestHandler: session.defaultSession.permissionRequestHandler !== null,
      permissionCheckHandler: session.defaultSession.permissionCheckHandler !== null,
      webRequest: [...session.defaultSession.webRequestListeners.keys()],
    },
  };
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

export async function startControl(dir: string): Promise<Control> {
  mkdirSync(dir, { recursive: true });
  dialogs.controlled = true;
  const socket = join(dir, `control-${process.pid}.sock`);
  const infoFile = join(dir, `standin-${process.pid}.json`);
  const happenings: Happening[] = [];
  let seq = 0;
  const record = (kind: string, detail: unknown) =>
    happenings.push({ seq: ++seq, at: Date.now(), kind, detail });
  for (const kind of [
    'console',
    'window-opened',
    'window-closed',
    'window-focused',
    'exiting',
    'app-focus',
    'notification-shown',
    'notification-clicked',
  ])
    runtimeEvents.on(kind, (detail: unknown) => record(kind, detail));
  dialogs.on('shown', (dialog) => record('dialog', dialog));
  app.on('second-instance', (_event, argv: unknown) => record('second-instance', { argv }));
  app.on('before-quit', () => record('before-quit', null));
  app.on('will-quit', () => record('will-quit', null));

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      try {
        if (req.method === 'GET' && url.pathname === '/state') return send(res, 200, state());
        if (req.method === 'GET' && url.pathname === '/events') {
          const after = Number(url.searchParams.get('after') ?? 0);
          return send(
            res,
            200,
            happenings.filter((h) => h.seq > after),
          );
        }
        if (req.method === 'POST' && url.pathname === '/dialog') {
          const { id, ...answer } = await body(req);
          const done = dialogs.answer(typeof id === 'number' ? id : undefined, answer);
          return send(res, done ? 200 : 404, { answered: done });
        }
        if (req.method === 'POST' && url.pathname === '/menu') {
          const { path } = await body(req);
          const item = Array.isArray(path)
            ? Menu.getApplicationMenu()?.find(path as string[])
            : undefined;
          if (!item) return send(res, 404, { clicked: false });
          item.click();
          return send(res, 200, { clicked: true });
        }
        if (req.method === 'POST' && url.pathname === '/blur') {
          const focused = BrowserWindow.getFocusedWindow();
          focused?.blur();
          return send(res, 200, { blurred: focused !== null });
        }
        if (req.method === 'POST' && url.pathname === '/notification') {
          const { id, action } = await body(req);
          const shown = typeof id === 'number' ? notificationOnScreen(id) : undefined;
          if (!shown || (action !== 'click' && action !== 'close'))
            return send(res, 404, { done: false });
          if (action === 'click') shown.click();
          else shown.close();
          return send(res, 200, { done: true });
        }
        if (req.method === 'POST' && url.pathname === '/power') {
          const { event } = await body(req);
          if (!isPowerEvent(event)) return send(res, 400, { emitted: false });
          const emitted = powerMonitor.happen(event);
          record('power', { event, emitted });
          return send(res, 200, { emitted });
        }
        if (req.method === 'POST' && url.pathname === '/network') {
          const { online } = await body(req);
          if (typeof online !== 'boolean') return send(res, 400, { online: network.online });
          network.set(online);
          record('network', { online });
          // How often the app had asked until now: a test waits for it to ask again.
          return send(res, 200, { online, asked: network.asked });
        }
        if (req.method === 'POST' && url.pathname === '/quit') {
          app.quit();
          return send(res, 200, { quitting: true });
        }
        send(res, 404, {});
      } catch (error) {
        send(res, 500, { error: String(error) });
      }
    })();
  });
  rmSync(socket, { force: true });
  await new Promise<void>((done) => server.listen(socket, done));
  server.unref();
  let info: Record<string, unknown> = { pid: process.pid, socket, argv: process.argv.slice(2) };
  // Written aside, then renamed over: a test reading the file while it is
  // rewritten sees the old whole file or the new one, never half of one.
  const pending = join(dir, `.standin-${process.pid}.json.part`);
  const write = () => {
    writeFileSync(pending, JSON.stringify(info));
    renameSync(pending, infoFile);
  };
  write();
  return {
    publish(more) {
      info = { ...info, ...more };
      write();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      rmSync(socket, { force: true });
    },
  };
}
