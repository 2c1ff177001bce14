// Quitting waits for the services to close, and asks first during a bulk cancel.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { BulkCancelSnapshot } from '../../../src/shared/bulk-cancel.ts';

const electron = await vi.hoisted(async () => {
  const { createElectronMock } = await import('../../support/electron-mock.ts');
  return createElectronMock();
});
vi.mock('electron', () => electron);

const { installQuitGuard, pendingCancels, quitQuestion } =
  await import('../../../src/main/desktop/quit-guard.ts');
const { FakeApp } = await import('../../support/electron-mock.ts');

function quitRequest(app: InstanceType<typeof FakeApp>): { prevented: boolean } {
  const event = { prevented: false, preventDefault: () => (event.prevented = true) };
  app.emit('before-quit', event);
  return event;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function newApp(): InstanceType<typeof FakeApp> {
  return new FakeApp({
    userDataPath: join(tmpdir(), 'store-admin-quit-guard'),
    version: '1.0.0',
    isPackaged: true,
  });
}

function snapshot(
  status: BulkCancelSnapshot['status'],
  waiting: number,
  pauseReason?: BulkCancelSnapshot['pauseReason'],
): { snapshot(): BulkCancelSnapshot } {
  return {
    snapshot: () => ({
      environment: 'sandbox',
      jobId: 'j',
      status,
      ...(pauseReason ? { pauseReason } : {}),
      total: 20,
      counts: {
        cancelled: 20 - waiting,
        'already-shipped': 0,
        'not-found': 0,
        gone: 0,
        failed: 0,
        waiting,
      },
      answersOnTheirWay: 0,
      unanswered: 0,
      startedAt: 0,
    }),
  };
}

describe('the quit guard', () => {
  it('holds the quit until the services have closed, then quits for real', async () => {
    const app = newApp();
    const closing = deferred();
    const close = vi.fn(() => closing.promise);
    const confirmQuit = vi.fn(async () => true);
    installQuitGuard({ app, pendingCancels: () => 0, confirmQuit, close, onCloseError: vi.fn() });

    expect(quitRequest(app).prevented).toBe(true);
    expect(close).toHaveBeenCalledTimes(1);
    expect(confirmQuit).not.toHaveBeenCalled();
    // A second request while closing (the clerk presses Quit again) starts nothing new.
    expect(quitRequest(app).prevented).toBe(true);
    await Promise.resolve();
    expect(app.calls.quit).toBe(0);

    closing.resolve();
    await vi.waitFor(() => expect(app.calls.quit).toBe(1));
    // The quit it sends itself goes through.
    expect(quitRequest(app).prevented).toBe(false);
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('asks first while a bulk cancel still has orders to send, and stays when told to', async () => {
    const app = newApp();
    const close = vi.fn(async () => undefined);
    const answers = [false, true];
    const confirmQuit = vi.fn(async () => answers.shift() ?? true);
    const onQuitCancelled = vi.fn();
    installQuitGuard({
      app,
      pendingCancels: () => 12,
      confirmQuit,
      close,
      onCloseError: vi.fn(),
      onQuitCancelled,
    });

    expect(quitRequest(app).prevented).toBe(true);
    await vi.waitFor(() => expect(onQuitCancelled).toHaveBeenCalledTimes(1));
    expect(confirmQuit).toHaveBeenCalledWith(quitQuestion(12));
    expect(close).not.toHaveBeenCalled();
    expect(app.calls.quit).toBe(0);

    expect(quitRequest(app).prevented).toBe(true);
    await vi.waitFor(() => expect(app.calls.quit).toBe(1));
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('quits even when closing fails or hangs, and logs the failure', async () => {
    const app = newApp();
    const onCloseError = vi.fn();
    installQuitGuard({
      app,
      pendingCancels: () => 0,
      confirmQuit: async () => true,
      close: async () => {
        throw new Error('disk gone');
      },
      onCloseError,
    });
    quitRequest(app);
    await vi.waitFor(() => expect(app.calls.quit).toBe(1));
    expect(onCloseError).toHaveBeenCalledWith(new Error('disk gone'));

    const hanging = newApp();
    installQuitGuard({
      app: hanging,
      pendingCancels: () => 0,
      confirmQuit: async () => true,
      close: () => new Promise<void>(() => undefined),
      onCloseError: vi.fn(),
      closeTimeoutMs: 5_000,
      sleep: async () => undefined, // the bound has passed
    });
    quitRequest(hanging);
    await vi.waitFor(() => expect(hanging.calls.quit).toBe(1));
  });

  it('says how many orders are left, in plain words', () => {
    expect(quitQuestion(12).message).toBe('12 orders still to cancel: quit anyway?');
    expect(quitQuestion(1).message).toBe('1 order still to cancel: quit anyway?');
    expect(quitQuestion(1500).message).toBe('1,500 orders still to cancel: quit anyway?');
    expect(quitQuestion(12).detail).toBe('It carries on at the next start.');
  });
});

describe('pendingCancels', () => {
  it('counts orders waiting in jobs under way, not in jobs paused by the clerk, stopped or finished', () => {
    expect(
      pendingCancels([
        snapshot('running', 7),
        snapshot('paused', 5, 'offline'),
        { snapshot: () => undefined },
      ]),
    ).toBe(12);
    expect(
      pendingCancels([
        snapshot('paused', 7, 'user'),
        snapshot('stopped', 5),
        snapshot('finished', 0),
      ]),
    ).toBe(0);
  });
});
