// A renderer that crashes or is killed comes back by itself, with a message
// saying so; main keeps running (bulk cancels go on). A renderer that keeps
// crashing is left alone after a few tries, with a message saying what to do.

export interface GoneDetails {
  readonly reason: string;
  readonly exitCode: number;
}

export interface RecoverableContents {
  on(
    event: 'render-process-gone',
    listener: (event: unknown, details: GoneDetails) => void,
  ): unknown;
  reload(): void;
  isDestroyed(): boolean;
}

export interface RecoveryDeps {
  readonly log: { error(...data: unknown[]): void };
  /** Shows the clerk a message (a dialog in the app). */
  readonly notify: (message: string, detail: string) => void;
  readonly now: () => number;
  /** Reloads within `windowMs` before giving up (default 3 in 60 s). */
  readonly maxReloads?: number;
  readonly windowMs?: number;
}

export const RELOADED_MESSAGE = 'The Store Admin window stopped unexpectedly and was reloaded.';
export const RELOADED_DETAIL =
  'Nothing was lost: bulk cancels carry on, and the orders are shown again from this computer.';
export const GAVE_UP_MESSAGE = 'The Store Admin window keeps stopping.';
export const GAVE_UP_DETAIL =
  'Quit Store Admin and start it again. If it happens again, send the log file (Help > Open logs folder) to support.';

export function reloadWhenRendererGone(contents: RecoverableContents, deps: RecoveryDeps): void {
  const maxReloads = deps.maxReloads ?? 3;
  const windowMs = deps.windowMs ?? 60_000;
  let reloads: number[] = [];
  contents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit') return;
    deps.log.error(
      `The window's renderer is gone (${details.reason}, exit code ${details.exitCode})`,
    );
    if (contents.isDestroyed()) return;
    const now = deps.now();
    reloads = reloads.filter((at) => now - at < windowMs);
    if (reloads.length >= maxReloads) {
      deps.log.error('The renderer keeps crashing: not reloading again');
      deps.notify(GAVE_UP_MESSAGE, GAVE_UP_DETAIL);
      return;
    }
    reloads.push(now);
    contents.reload();
    deps.notify(RELOADED_MESSAGE, RELOADED_DETAIL);
  });
}
