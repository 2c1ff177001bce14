// When the app looks for an update and what it tells the clerk: a quiet
// check a little after start, and one whenever the clerk asks (Help > Check
// for Updates). A newer version is downloaded at once, its progress on the
// window's taskbar entry; once its sha512 matched it waits to be installed
// when the clerk quits. A quiet check bothers nobody unless an update is
// ready; one the clerk asked for is always answered. Without an update
// address nothing is checked and nothing is sent. Plain Node: electron-updater
// stays behind the Updater port (electron-updater.ts).

import { certificateProblem, certificateWords, networkCause } from '../store-api/errors.ts';
import type { UpdateFeed } from './update-settings.ts';

export interface AvailableUpdate {
  readonly version: string;
}

export interface DownloadProgress {
  /** 0 to 100. */
  readonly percent: number;
  readonly transferred: number;
  readonly total: number;
}

/** What the flow needs of an updater: the feed, a check, a download. */
export interface Updater {
  /** Points the updater at this feed (before a check). */
  configure(feed: UpdateFeed): Promise<void> | void;
  /** The newer version the server offers, or undefined when this one is the latest. */
  check(): Promise<AvailableUpdate | undefined>;
  /** Resolves once the update is downloaded whole and its sha512 matched the server's. */
  download(onProgress: (progress: DownloadProgress) => void): Promise<void>;
}

/** How the clerk is told. */
export interface UpdateTeller {
  /** The answer to a clerk who asked: a dialog. */
  answer(message: string, detail?: string): void;
  /** News for a clerk who did not ask: a system notification. */
  notify(title: string, body: string): void;
  /** The download's progress (0 to 1) on the window's taskbar entry; undefined clears it. */
  progress(fraction: number | undefined): void;
  log(message: string): void;
}

export type UpdateState =
  | { readonly kind: 'off' }
  | { readonly kind: 'idle' }
  | { readonly kind: 'checking' }
  | { readonly kind: 'up-to-date'; readonly checkedAt: number }
  | {
      readonly kind: 'downloading';
      readonly version: string;
      readonly percent: number;
    }
  | { readonly kind: 'ready'; readonly version: string }
  | { readonly kind: 'failed'; readonly message: string; readonly at: number };

export interface UpdateFlowOptions {
  readonly updater: Updater;
  /** The feed in force now (update-settings.ts); undefined: updates are off. */
  readonly feed: () => UpdateFeed | undefined;
  readonly teller: UpdateTeller;
  readonly productName: string;
  readonly currentVersion: string;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** How long after start the quiet check waits, so it does not slow the start. */
  readonly startDelayMs?: number;
}

export const START_DELAY_MS = 10_000;

export class UpdateFlow {
  readonly #options: UpdateFlowOptions;
  #state: UpdateState;
  /** The clerk asked while a check or download was running: the outcome is answered. */
  #asked = false;
  #running: Promise<void> | undefined;

  constructor(options: UpdateFlowOptions) {
    this.#options = options;
    this.#state = options.feed() ? { kind: 'idle' } : { kind: 'off' };
  }

  state(): UpdateState {
    return this.#state;
  }

  /** The quiet check after start; nothing at all without a feed. */
  async start(): Promise<void> {
    if (!this.#options.feed()) return;
    await this.#options.sleep(this.#options.startDelayMs ?? START_DELAY_MS);
    if (this.#state.kind === 'idle') await this.#run(false);
  }

  /** Help > Check for Updates. */
  async checkNow(): Promise<void> {
    const { teller, productName } = this.#options;
    const state = this.#state;
    if (!this.#options.feed()) {
      teller.answer(
        'Updates are not set up on this computer.',
        `No update address was given when ${productName} was built or in Settings, so ${productName} never looks for updates.`,
      );
      return;
    }
    if (state.kind === 'ready') {
      teller.answer(
        `${productName} ${state.version} is ready.`,
        `It is installed when you quit ${productName}.`,
      );
      return;
    }
    if (this.#running) {
      // The running check or download answers when it ends.
      this.#asked = true;
      if (state.kind === 'downloading')
        teller.answer(
          `${productName} ${state.version} is downloading (${Math.floor(state.percent)}%).`,
          `It is installed when you quit ${productName}.`,
        );
      return;
    }
    await this.#run(true);
  }

  /** Settings changed the feed: off without one; the next check uses the new one. */
  feedChanged(feed: UpdateFeed | undefined): void {
    if (this.#running || this.#state.kind === 'ready') return;
    this.#state = feed ? { kind: 'idle' } : { kind: 'off' };
  }

  #run(asked: boolean): Promise<void> {
    this.#asked = asked;
    const running = this.#check().finally(() => {
      this.#running = undefined;
      this.#asked = false;
    });
    this.#running = running;
    return running;
  }

  async #check(): Promise<void> {
    const { updater, teller, productName, currentVersion, now } = this.#options;
    const feed = this.#options.feed();
    if (!feed) {
      this.#state = { kind: 'off' };
      return;
    }
    this.#state = { kind: 'checking' };
    teller.log(`Checking for updates at ${feed.url} (${feed.channel} channel)`);
    let available: AvailableUpdate | undefined;
    try {
      await updater.configure(feed);
      available = await updater.check();
    } catch (error) {
      return this.#failed(updateFailureWords(error, feed, 'check'), error);
    }
    if (!available) {
      this.#state = { kind: 'up-to-date', checkedAt: now() };
      teller.log(`${productName} ${currentVersion} is the latest version`);
      if (this.#asked)
        teller.answer(
          `${productName} ${currentVersion} is the latest version.`,
          `Checked ${feed.url} (${feed.channel} channel).`,
        );
      return;
    }

    const { version } = available;
    this.#state = { kind: 'downloading', version, percent: 0 };
    teller.log(`Downloading ${productName} ${version}`);
    // A clerk told it is downloading hears how it ends, asked or not.
    const told = this.#asked;
    if (told)
      teller.answer(
        `${productName} ${version} is downloading.`,
        `It is installed when you quit ${productName}. Its progress shows on the taskbar.`,
      );
    this.#asked = false;
    teller.progress(0);
    try {
      await updater.download((progress) => {
        this.#state = { kind: 'downloading', version, percent: progress.percent };
        teller.progress(Math.min(1, Math.max(0, progress.percent / 100)));
      });
    } catch (error) {
      teller.progress(undefined);
      return this.#failed(updateFailureWords(error, feed, 'download', version), error, told);
    }
    teller.progress(undefined);
    this.#state = { kind: 'ready', version };
    teller.log(`${productName} ${version} downloaded and its sha512 matched; it installs on quit`);
    const body = `It is installed when you quit ${productName}.`;
    if (this.#asked) teller.answer(`${productName} ${version} is ready.`, body);
    else teller.notify(`${productName} ${version} is ready`, body);
  }

  /**
   * A failed check or download: answered when the clerk is waiting for it,
   * a notification when they were told a download began, otherwise only
   * logged (they see it when they ask).
   */
  #failed(message: string, error: unknown, told = false): void {
    const { teller, now, productName } = this.#options;
    this.#state = { kind: 'failed', message, at: now() };
    const code = (error as { code?: unknown } | undefined)?.code;
    teller.log(`Update failed: ${message}${typeof code === 'string' ? ` (${code})` : ''}`);
    if (this.#asked) teller.answer(message);
    else if (told) teller.notify(`${productName} was not updated`, message);
  }
}

/** An updater's failure, in one sentence naming the server; never the raw error (it lists headers). */
export function updateFailureWords(
  error: unknown,
  feed: UpdateFeed,
  step: 'check' | 'download',
  version?: string,
): string {
  const host = hostOf(feed.url);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ERR_CHECKSUM_MISMATCH' || /checksum mismatch/.test(String(error)))
    return `The download of version ${version ?? 'the update'} did not match the checksum the update server gave, so it will not be installed.`;
  if (code === 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND')
    return `The update server at ${host} has no update information for the ${feed.channel} channel.`;
  if (code === 'STORE_ADMIN_UPDATER_INACTIVE')
    return 'This copy cannot update itself: updates are installed into the AppImage, the deb package or the Windows and macOS installers.';
  const certificate = certificateProblem(error);
  if (certificate)
    return `The update server at ${host} showed ${certificateWords(certificate)}, so nothing was downloaded.`;
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  if (typeof status === 'number')
    return `The update server at ${host} answered ${status}, so ${step === 'check' ? 'no update was found' : 'the update was not downloaded'}.`;
  if (typeof code === 'string' || /^net::ERR_/.test(String((error as Error | undefined)?.message)))
    return `Could not reach the update server at ${host}: ${networkCause(error)}.`;
  return step === 'check'
    ? `Checking for updates at ${host} did not work.`
    : `The update could not be downloaded from ${host}.`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
