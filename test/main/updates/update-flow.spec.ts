// When the app looks for updates and what the clerk is told, with the
// updater scripted (the real electron-updater runs in test/e2e/updates.spec.ts)
// and sleeping virtual: nothing without an address; a quiet check after
// start that bothers nobody unless an update is ready; a check the clerk
// asks for always answered; the download's progress on the taskbar; a
// checksum that does not match, said as such.

import { describe, expect, it } from 'vitest';
import {
  START_DELAY_MS,
  UpdateFlow,
  updateFailureWords,
  type AvailableUpdate,
  type DownloadProgress,
  type Updater,
  type UpdateTeller,
} from '../../../src/main/updates/update-flow.ts';
import type { UpdateFeed } from '../../../src/main/updates/update-settings.ts';

const FEED: UpdateFeed = {
  url: 'https://updates.petstore.example/store-admin/',
  channel: 'latest',
  source: 'build',
};

type Told =
  | { kind: 'answer'; message: string; detail?: string }
  | { kind: 'notify'; title: string; body: string }
  | { kind: 'progress'; fraction: number | undefined };

/** What the clerk was shown, in order (the log apart). */
function teller() {
  const told: Told[] = [];
  const log: string[] = [];
  const it: UpdateTeller = {
    answer: (message, detail) =>
      void told.push({ kind: 'answer', message, ...(detail ? { detail } : {}) }),
    notify: (title, body) => void told.push({ kind: 'notify', title, body }),
    progress: (fraction) => void told.push({ kind: 'progress', fraction }),
    log: (line) => void log.push(line),
  };
  return { it, told, log };
}

/** An updater whose answers a test scripts; it records what it was asked. */
function scriptedUpdater(script: {
  check?: () => Promise<AvailableUpdate | undefined>;
  download?: (onProgress: (progress: DownloadProgress) => void) => Promise<void>;
}) {
  const calls: string[] = [];
  const updater: Updater = {
    configure: (feed) => void calls.push(`configure ${feed.url}`),
    check: () => {
      calls.push('check');
      return script.check ? script.check() : Promise.resolve(undefined);
    },
    download: (onProgress) => {
      calls.push('download');
      return script.download ? script.download(onProgress) : Promise.resolve();
    },
  };
  return { updater, calls };
}

function flow(options: { updater: Updater; feed?: UpdateFeed | undefined; teller: UpdateTeller }) {
  const sleeps: number[] = [];
  const made = new UpdateFlow({
    updater: options.updater,
    feed: () => ('feed' in options ? options.feed : FEED),
    teller: options.teller,
    productName: 'Store Admin',
    currentVersion: '0.1.0',
    now: () => Date.UTC(2026, 10, 30, 9, 0),
    sleep: async (ms) => void sleeps.push(ms),
  });
  return { flow: made, sleeps };
}

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('without an update address', () => {
  it('checks nothing, sends nothing, and says so when asked', async () => {
    const { updater, calls } = scriptedUpdater({});
    const told = teller();
    const { flow: updates, sleeps } = flow({ updater, feed: undefined, teller: told.it });
    expect(updates.state()).toEqual({ kind: 'off' });
    await updates.start();
    await updates.checkNow();
    expect(calls).toEqual([]);
    expect(sleeps).toEqual([]);
    expect(told.told).toEqual([
      {
        kind: 'answer',
        message: 'Updates are not set up on this computer.',
        detail:
          'No update address was given when Store Admin was built or in Settings, so Store Admin never looks for updates.',
      },
    ]);
  });
});

describe('the quiet check at start', () => {
  it('waits a little after start, then finds nothing and tells nobody', async () => {
    const { updater, calls } = scriptedUpdater({});
    const told = teller();
    const { flow: updates, sleeps } = flow({ updater, teller: told.it });
    await updates.start();
    expect(sleeps).toEqual([START_DELAY_MS]);
    expect(calls).toEqual([`configure ${FEED.url}`, 'check']);
    expect(told.told).toEqual([]);
    expect(updates.state()).toMatchObject({ kind: 'up-to-date' });
  });

  it('downloads a newer version with its progress on the taskbar, then notifies that it installs on quit', async () => {
    const { updater, calls } = scriptedUpdater({
      check: async () => ({ version: '0.2.0' }),
      download: async (onProgress) => {
        onProgress({ percent: 25, transferred: 250, total: 1000 });
        onProgress({ percent: 100, transferred: 1000, total: 1000 });
      },
    });
    const told = teller();
    const { flow: updates } = flow({ updater, teller: told.it });
    await updates.start();
    expect(calls).toEqual([`configure ${FEED.url}`, 'check', 'download']);
    expect(told.told).toEqual([
      { kind: 'progress', fraction: 0 },
      { kind: 'progress', fraction: 0.25 },
      { kind: 'progress', fraction: 1 },
      { kind: 'progress', fraction: undefined },
      {
        kind: 'notify',
        title: 'Store Admin 0.2.0 is ready',
        body: 'It is installed when you quit Store Admin.',
      },
    ]);
    expect(updates.state()).toEqual({ kind: 'ready', version: '0.2.0' });
  });

  it('keeps a failure to itself (the log has it) until the clerk asks', async () => {
    const { updater } = scriptedUpdater({
      check: () => Promise.reject(new Error('net::ERR_CONNECTION_REFUSED')),
    });
    const told = teller();
    const { flow: updates } = flow({ updater, teller: told.it });
    await updates.start();
    expect(told.told).toEqual([]);
    expect(told.log.at(-1)).toBe(
      'Update failed: Could not reach the update server at updates.petstore.example: the connection was refused.',
    );
    expect(updates.state()).toMatchObject({ kind: 'failed' });
  });
});

describe('Help > Check for Updates', () => {
  it('answers that this version is the latest, naming where it looked', async () => {
    const { updater } = scriptedUpdater({});
    const told = teller();
    const { flow: updates } = flow({ updater, teller: told.it });
    await updates.checkNow();
    expect(told.told).toEqual([
      {
        kind: 'answer',
        message: 'Store Admin 0.1.0 is the latest version.',
        detail: 'Checked https://updates.petstore.example/store-admin/ (latest channel).',
      },
    ]);
  });

  it('answers that a newer version is downloading, and notifies when it is ready', async () => {
    const { updater } = scriptedUpdater({ check: async () => ({ version: '0.2.0' }) });
    const told = teller();
    const { flow: updates } = flow({ updater, teller: told.it });
    await updates.checkNow();
    expect(told.told.filter((t) => t.kind !== 'progress')).toEqual([
      {
        kind: 'answer',
        message: 'Store Admin 0.2.0 is downloading.',
        detail: 'It is installed when you quit Store Admin. Its progress shows on the taskbar.',
      },
      {
        kind: 'notify',
        title: 'Store Admin 0.2.0 is ready',
        body: 'It is installed when you quit Store Admin.',
      },
    ]);
    // Asked again once it is ready: no second download.
    await updates.checkNow();
    expect(told.told.at(-1)).toEqual({
      kind: 'answer',
      message: 'Store Admin 0.2.0 is ready.',
      detail: 'It is installed when you quit Store Admin.',
    });
  });

  it('says a download whose sha512 did not match is not installed, to a clerk told it was downloading', async () => {
    const mismatch = Object.assign(new Error('sha512 checksum mismatch, expected abc, got def'), {
      code: 'ERR_CHECKSUM_MISMATCH',
    });
    const { updater } = scriptedUpdater({
      check: async () => ({ version: '0.2.0' }),
      download: () => Promise.reject(mismatch),
    });
    const told = teller();
    const { flow: updates } = flow({ updater, teller: told.it });
    await updates.checkNow();
    expect(told.told.at(-2)).toEqual({ kind: 'progress', fraction: undefined });
    expect(told.told.at(-1)).toEqual({
      kind: 'notify',
      title: 'Store Admin was not updated',
      body: 'The download of version 0.2.0 did not match the checksum the update server gave, so it will not be installed.',
    });
    expect(updates.state()).toMatchObject({ kind: 'failed' });
  });

  it('joins a quiet check already running and answers its outcome, once', async () => {
    const answer = deferred<AvailableUpdate | undefined>();
    const { updater, calls } = scriptedUpdater({ check: () => answer.promise });
    const told = teller();
    const { flow: updates } = flow({ updater, teller: told.it });
    const quiet = updates.start();
    await Promise.resolve();
    await Promise.resolve();
    expect(updates.state()).toEqual({ kind: 'checking' });
    const asked = updates.checkNow();
    answer.resolve(undefined);
    await Promise.all([quiet, asked]);
    expect(calls.filter((c) => c === 'check')).toHaveLength(1);
    expect(told.told).toEqual([
      expect.objectContaining({ message: 'Store Admin 0.1.0 is the latest version.' }),
    ]);
  });

  it('says how far a running download is', async () => {
    const finish = deferred<void>();
    let report: ((progress: DownloadProgress) => void) | undefined;
    const { updater } = scriptedUpdater({
      check: async () => ({ version: '0.2.0' }),
      download: (onProgress) => {
        report = onProgress;
        return finish.promise;
      },
    });
    const told = teller();
    const { flow: updates } = flow({ updater, teller: told.it });
    const quiet = updates.start();
    await expect.poll(() => report).toBeDefined();
    report!({ percent: 42.7, transferred: 427, total: 1000 });
    await updates.checkNow();
    expect(told.told.at(-1)).toEqual({
      kind: 'answer',
      message: 'Store Admin 0.2.0 is downloading (42%).',
      detail: 'It is installed when you quit Store Admin.',
    });
    finish.resolve();
    await quiet;
    // The clerk asked during the download: the end is their answer.
    expect(told.told.at(-1)).toEqual({
      kind: 'answer',
      message: 'Store Admin 0.2.0 is ready.',
      detail: 'It is installed when you quit Store Admin.',
    });
  });
});

describe('what a failure says', () => {
  const words = (error: unknown, step: 'check' | 'download' = 'check') =>
    updateFailureWords(error, FEED, step, '0.2.0');

  it('names the server and the cause, never the raw error', () => {
    expect(
      words(
        Object.assign(new Error('Cannot find channel "latest-linux.yml" update info: HttpError'), {
          code: 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND',
        }),
      ),
    ).toBe(
      'The update server at updates.petstore.example has no update information for the latest channel.',
    );
    expect(words(new Error('net::ERR_CERT_AUTHORITY_INVALID'))).toBe(
      'The update server at updates.petstore.example showed a certificate this computer does not trust, so nothing was downloaded.',
    );
    expect(
      words(Object.assign(new Error('503 Service Unavailable\nHeaders: {…}'), { statusCode: 503 })),
    ).toBe('The update server at updates.petstore.example answered 503, so no update was found.');
    expect(words(new Error('net::ERR_PROXY_CONNECTION_FAILED'))).toBe(
      'Could not reach the update server at updates.petstore.example: the system’s proxy could not be reached.',
    );
    expect(words(new Error('something odd'), 'download')).toBe(
      'The update could not be downloaded from updates.petstore.example.',
    );
    expect(words(Object.assign(new Error('x'), { code: 'STORE_ADMIN_UPDATER_INACTIVE' }))).toMatch(
      /^This copy cannot update itself/,
    );
  });
});

describe('a changed address', () => {
  it('turns updates off, and on again for the next check', async () => {
    let feed: UpdateFeed | undefined = FEED;
    const { updater, calls } = scriptedUpdater({});
    const told = teller();
    const updates = new UpdateFlow({
      updater,
      feed: () => feed,
      teller: told.it,
      productName: 'Store Admin',
      currentVersion: '0.1.0',
      now: () => 0,
      sleep: async () => undefined,
    });
    feed = undefined;
    updates.feedChanged(feed);
    expect(updates.state()).toEqual({ kind: 'off' });
    await updates.start();
    expect(calls).toEqual([]);
    feed = { ...FEED, url: 'https://other.example/', source: 'settings' };
    updates.feedChanged(feed);
    await updates.checkNow();
    expect(calls).toEqual(['configure https://other.example/', 'check']);
  });
});
