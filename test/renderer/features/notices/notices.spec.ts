// The notice area's model: each condition once, whatever number of calls ran
// into it; one sentence without codes; the codes and the service's own words
// as details; the gate's time for a hold; one action where one helps.

import { describe, expect, test } from 'vitest';
import type { Failure } from '../../../../src/shared/failures.ts';
import type { KeyStatus } from '../../../../src/shared/key-status.ts';
import type { QuotaView } from '../../../../src/shared/quota.ts';
import {
  noticesFor,
  type NoticeInputs,
} from '../../../../src/renderer/src/features/notices/notices.ts';
import type { EnvironmentOrders } from '../../../../src/renderer/src/features/orders/orders-slice.ts';
import { tableOf } from '../orders/table/table-of.ts';
import { formatClock } from '../../../../src/renderer/src/format.ts';

const NOW = new Date(2025, 5, 13, 7, 29, 49).getTime();
const GATE_OPENS = new Date(2025, 5, 13, 7, 30, 0).getTime();

function orders(fields: Partial<EnvironmentOrders> = {}): EnvironmentOrders {
  return { load: { kind: 'idle' }, local: 'read', marks: {}, cancelLog: [], ...fields };
}

function inputs(fields: Partial<NoticeInputs> = {}): NoticeInputs {
  return {
    environment: 'staging',
    now: NOW,
    connectivity: undefined,
    quota: undefined,
    orders: orders(),
    bulkJob: undefined,
    hasBaseUrl: true,
    switchProblem: undefined,
    ...fields,
  };
}

function quota(fields: Partial<QuotaView>): QuotaView {
  return { known: true, limit: 60, remaining: 10, sentToday: 1, history: [], ...fields };
}

const REFUSED: Failure = {
  kind: 'unauthorized',
  message:
    'The list was not refreshed. The API key is missing or was not accepted (401). Check the key in Settings. The service said: “Invalid API key”',
  status: 401,
  code: 'unauthorized',
  delivery: 'answered',
};

const LIMITED: Failure = {
  kind: 'rate-limited',
  message: 'Rate-limited until 07:34:49. The service asked Store Admin to slow down (429).',
  status: 429,
  code: 'rate_limited',
  retryAt: GATE_OPENS,
  delivery: 'answered',
};

const NO_ANSWER: Failure = {
  kind: 'network',
  message: 'Could not reach the store service at api.example.com: the connection was refused.',
  delivery: 'not-sent',
};

describe('one notice per condition', () => {
  test('nothing to say: no notice', () => {
    expect(noticesFor(inputs())).toEqual([]);
  });

  test('unreachable: one notice, whatever failed on the way; the cache age in the sentence, the reason behind Details, Retry', () => {
    const table = tableOf([{ id: '1' }]);
    const notices = noticesFor(
      inputs({
        connectivity: { reachable: false, message: NO_ANSWER.message },
        orders: orders({
          load: { kind: 'failed', failure: NO_ANSWER },
          list: { table, receivedAt: NOW - 5 * 60_000, bytes: 10, source: 'cache' },
        }),
      }),
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      kind: 'unreachable',
      title: 'Offline review.',
      action: 'retry',
      details: [NO_ANSWER.message],
    });
    expect(notices[0]!.sentence).toBe(
      `Staging cannot be reached, so this is the list saved at ${formatClock(NOW - 5 * 60_000)} (5 min ago). Search, filters, review marks and exports work; cancelling waits until the service answers.`,
    );
  });

  test('rate-limited: the gate’s time, not a failure’s older one; codes behind Details; Try now', () => {
    const notices = noticesFor(
      inputs({
        quota: quota({ remaining: 0, holdUntil: GATE_OPENS, holdReason: 'server-429' }),
        orders: orders({ load: { kind: 'failed', failure: LIMITED }, holdFailure: LIMITED }),
      }),
    );
    expect(notices.map((notice) => notice.kind)).toEqual(['rate-limited']);
    const [limited] = notices;
    expect(limited!.sentence).toBe(
      `Requests to Staging are paused until ${formatClock(GATE_OPENS)}. The service asked Store Admin to slow down.`,
    );
    expect(limited!.sentence).not.toContain('07:34:49');
    expect(limited!.sentence).not.toContain('429');
    expect(limited!.until).toBe(GATE_OPENS);
    expect(limited!.action).toBe('try-now');
    expect(limited!.details[0]).toBe('HTTP 429 · code rate_limited');
  });

  test('a hold that has ended says nothing', () => {
    const notices = noticesFor(
      inputs({
        now: GATE_OPENS + 1,
        quota: quota({ holdUntil: GATE_OPENS, holdReason: 'server-429' }),
        orders: orders({ holdFailure: LIMITED }),
      }),
    );
    expect(notices).toEqual([]);
  });

  test('banned: one notice, no "Try now" (a try would be one more strike)', () => {
    const [banned, ...rest] = noticesFor(
      inputs({ quota: quota({ remaining: 0, holdUntil: GATE_OPENS, holdReason: 'banned' }) }),
    );
    expect(rest).toEqual([]);
    expect(banned).toMatchObject({ kind: 'banned', until: GATE_OPENS });
    expect(banned!.action).toBeUndefined();
  });

  test('key refused: one notice from a refresh and a cancel alike; the service’s words behind Details; Open Settings', () => {
    const notices = noticesFor(
      inputs({
        orders: orders({ load: { kind: 'failed', failure: REFUSED }, keyFailure: REFUSED }),
        bulkJob: {
          environment: 'staging',
          jobId: 'j',
          status: 'paused',
          pauseReason: 'key',
          total: 3,
          counts: {
            cancelled: 0,
            'already-shipped': 0,
            'not-found': 0,
            gone: 0,
            failed: 0,
            waiting: 3,
          },
          startedAt: NOW,
        },
      }),
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      kind: 'key-refused',
      sentence: 'The service did not accept the Staging API key. Enter a valid key in Settings.',
      action: 'open-settings',
      details: ['HTTP 401 · code unauthorized', 'The service said: “Invalid API key”'],
    });
  });

  test('a key kept from a new address: one notice (not "no key") with Open Settings, unless its Settings are on screen', () => {
    const notice =
      'The Staging key was entered for old.example, so it is not sent to new.example until you confirm the new address or enter the key again.';
    const keyStatus: KeyStatus = {
      environment: 'staging',
      set: true,
      storage: 'os-encrypted',
      backend: 'the macOS Keychain',
      weak: false,
      canAcceptWeakStorage: false,
      origin: 'https://old.example',
      problem: 'other-address',
      notice,
    };
    // Every refresh meets it as a missing key: main sends nothing with it.
    const noKey: Failure = { kind: 'no-key', message: notice, delivery: 'not-sent' };
    const failed = orders({ load: { kind: 'failed', failure: noKey }, keyFailure: noKey });
    expect(noticesFor(inputs({ keyStatus, orders: failed }))).toEqual([
      {
        kind: 'key-other-address',
        environment: 'staging',
        tone: 'error',
        title: 'Key not sent.',
        sentence: notice,
        action: 'open-settings',
        details: [],
      },
    ]);
    // Its Settings say it beside the key, with the Confirm button.
    expect(noticesFor(inputs({ keyStatus, orders: failed, keySettingsShown: true }))).toEqual([]);
    // Confirmed: the key goes there, and nothing is said.
    const confirmed: KeyStatus = { ...keyStatus, problem: undefined, notice: undefined };
    expect(noticesFor(inputs({ keyStatus: confirmed }))).toEqual([]);
  });

  test('a refresh that failed for another reason: its own sentence, the service’s words only behind Details', () => {
    const failure: Failure = {
      kind: 'server',
      message:
        'The store service had a problem (502) and did not finish the request after 4 tries. Try again in a few minutes. The service said: “upstream down”',
      status: 502,
      delivery: 'answered',
    };
    const [notice, ...rest] = noticesFor(
      inputs({ orders: orders({ load: { kind: 'failed', failure } }) }),
    );
    expect(rest).toEqual([]);
    expect(notice).toMatchObject({
      kind: 'refresh-failed',
      sentence:
        'The store service had a problem (502) and did not finish the request after 4 tries. Try again in a few minutes.',
      action: 'retry',
      details: ['HTTP 502', 'The service said: “upstream down”'],
    });
  });

  test('the data folder takes nothing: one notice, whatever the environment; the code only behind Details', () => {
    const storageProblem = {
      folder: '/home/clerk/.config/Store Admin',
      code: 'EROFS',
      message:
        'Store Admin cannot save to its data folder /home/clerk/.config/Store Admin because the disk is read-only, so what changes now is kept only until it closes; nothing saved before is lost.',
    };
    for (const environment of ['sandbox', 'staging', 'production'] as const) {
      expect(noticesFor(inputs({ environment, storageProblem }))).toEqual([
        {
          kind: 'storage',
          environment,
          tone: 'warning',
          title: 'Not saving.',
          sentence: storageProblem.message,
          details: ["The system's error code: EROFS"],
        },
      ]);
    }
  });

  test('several conditions at once: each once, the most pressing first', () => {
    const notices = noticesFor(
      inputs({
        switchProblem: 'Store Admin could not switch to Production.',
        connectivity: { reachable: false },
        quota: quota({ remaining: 0, holdUntil: GATE_OPENS, holdReason: 'banned' }),
        orders: orders({ keyFailure: REFUSED }),
        storageProblem: { folder: '/data', code: 'ENOSPC', message: 'Store Admin cannot save.' },
      }),
    );
    expect(notices.map((notice) => notice.kind)).toEqual([
      'switch-failed',
      'banned',
      'key-refused',
      'unreachable',
      'storage',
    ]);
  });
});

describe('the service’s deprecation notices', () => {
  const SUNSET = Date.UTC(2027, 5, 30);
  const listNotice = {
    environment: 'staging' as const,
    endpoint: 'list-orders' as const,
    sunsetAt: SUNSET,
    seenAt: NOW,
  };
  const cancelNotice = {
    environment: 'staging' as const,
    endpoint: 'cancel-order' as const,
    deprecatedAt: Date.UTC(2025, 0, 1),
    link: 'https://changelog.petstore.example/v1',
    seenAt: NOW,
  };

  test('none: no notice', () => {
    expect(noticesFor(inputs({ deprecations: [] }))).toEqual([]);
  });

  test('several endpoints: one notice, the first in its sentence with the date, the others behind Details, Read more where a link was given', () => {
    const notices = noticesFor(inputs({ deprecations: [listNotice, cancelNotice] }));
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    expect(notice).toMatchObject({
      kind: 'deprecation',
      tone: 'warning',
      title: 'Service change.',
      sentence: 'The store service will stop answering the order list on 30 June 2027.',
      action: 'read-more',
      // The linked one first: Read more opens its link.
      endpoints: ['cancel-order', 'list-orders'],
    });
    expect(notice!.details).toEqual([
      'The store service has marked cancelling orders as deprecated since 1 January 2025: it may stop accepting cancels in a later version.',
      'The service’s notice: https://changelog.petstore.example/v1',
    ]);
  });

  test('without a link: no Read more, and it comes after the conditions that stop work', () => {
    const notices = noticesFor(
      inputs({ deprecations: [listNotice], connectivity: { reachable: false } }),
    );
    expect(notices.map((notice) => notice.kind)).toEqual(['unreachable', 'deprecation']);
    expect(notices[1]!.action).toBeUndefined();
  });
});
