// Quitting waits for the services to close (bulk-cancel journals and the
// quota state flushed, the sandbox stopped), and asks first while a bulk
// cancel still has orders to send.

import { formatCount } from '../../shared/display-format.ts';
import type { BulkCancelSnapshot } from '../../shared/bulk-cancel.ts';

export interface QuitEvent {
  preventDefault(): void;
}

export interface QuitGuardDeps {
  readonly app: {
    on(event: 'before-quit', listener: (event: QuitEvent) => void): unknown;
    quit(): void;
  };
  /** Orders that running bulk cancels still have to send. */
  readonly pendingCancels: () => number;
  /** Asks the clerk; true to quit anyway. */
  readonly confirmQuit: (question: QuitQuestion) => Promise<boolean>;
  /** Closes the services; the app quits once it settles (or after `closeTimeoutMs`). */
  readonly close: () => Promise<void>;
  readonly onCloseError: (error: unknown) => void;
  /** The clerk chose to stay: e.g. open the window again if it was closed. */
  readonly onQuitCancelled?: () => void;
  /** A close that hangs must not keep the app from quitting (default 10 s). */
  readonly closeTimeoutMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface QuitQuestion {
  readonly message: string;
  readonly detail: string;
  readonly quitLabel: string;
  readonly stayLabel: string;
}

/**
 * Orders still waiting in bulk cancels that are under way: running, or paused
 * only until the service is back. A job the clerk paused, stopped or that has
 * finished loses nothing by quitting.
 */
export function pendingCancels(
  queues: Iterable<{ snapshot(): BulkCancelSnapshot | undefined }>,
): number {
  let pending = 0;
  for (const queue of queues) {
    const snapshot = queue.snapshot();
    if (!snapshot) continue;
    const underWay =
      snapshot.status === 'running' ||
      (snapshot.status === 'paused' && snapshot.pauseReason === 'offline');
    if (underWay) pending += snapshot.counts.waiting;
  }
  return pending;
}

export function quitQuestion(pending: number): QuitQuestion {
  const orders = pending === 1 ? '1 order' : `${formatCount(pending)} orders`;
  return {
    message: `${orders} still to cancel: quit anyway?`,
    detail: 'It carries on at the next start.',
    quitLabel: 'Quit',
    stayLabel: 'Keep working',
  };
}

export function installQuitGuard(deps: QuitGuardDeps): void {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let state: 'running' | 'asking' | 'closing' | 'closed' = 'running';

  const quitWhenClosed = async (): Promise<void> => {
    state = 'closing';
    try {
      await Promise.race([deps.close(), sleep(deps.closeTimeoutMs ?? 10_000)]);
    } catch (error) {
      deps.onCloseError(error);
    }
    state = 'closed';
    deps.app.quit();
  };

  deps.app.on('before-quit', (event) => {
    if (state === 'closed') return; // the services are closed: quit for real
    event.preventDefault();
    if (state !== 'running') return; // already asking or closing
    const pending = deps.pendingCancels();
    if (pending === 0) {
      void quitWhenClosed();
      return;
    }
    state = 'asking';
    void deps.confirmQuit(quitQuestion(pending)).then(
      (quit) => {
        if (quit) return quitWhenClosed();
        state = 'running';
        deps.onQuitCancelled?.();
      },
      (error: unknown) => {
        deps.onCloseError(error);
        state = 'running';
      },
    );
  });
}
