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
import { formatClock, formatMomentWithSeconds } from '../../../../src/renderer/src/format.ts';

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

  test('unreachable: one notice, whatever failed on the way; the saved list named (its time is the status bar’s), the reason behind Details, Retry', () => {
    const table = tableOf([{ id: '1' }]);
    const notices = noticesFor(
      inputs({
        connectivity: { reachable: false, since: NOW, message: NO_ANSWER.message },
        orders: orders({
          load: { kind: 'failed', failure: NO_ANSWER, at: NOW },
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
      `Staging cannot be reached, so the list shown is the last one saved. Search, filters, review marks and exports work; cancelling waits until the service answers.`,
    );
  });

  test('the address answers with a web page (a network’s sign-in page): said in the sentence, with what to do, once', () => {
    const page: Failure = {
      kind: 'network',
      message:
        'The address api.example.com answered with a web page, not the store service (perhaps a sign-in page of this network).',
      delivery: 'not-sent',
      status: 200,
    };
    const connectivity = {
      reachable: false,
      since: NOW,
      message: page.message,
      cause: 'web-page',
    } as const;
    const failed = { kind: 'failed', failure: page, at: NOW } as const;
    const [first, ...others] = noticesFor(
      inputs({ connectivity, orders: orders({ load: failed }) }),
    );
    expect(others).toEqual([]);
    expect(first).toMatchObject({
      kind: 'unreachable',
      title: 'Staging cannot be reached.',
      sentence:
        'The Staging address answered with a web page, not the store service: perhaps this network’s sign-in page. Sign in to the network in a browser, then retry.',
      action: 'retry',
      details: [],
    });
    const table = tableOf([{ id: '1' }]);
    const list = { table, receivedAt: NOW - 60_000, bytes: 10, source: 'cache' } as const;
    const [review] = noticesFor(inputs({ connectivity, orders: orders({ load: failed, list }) }));
    expect(review).toMatchObject({ title: 'Offline review.' });
    expect(review!.sentence).toContain('The list shown is the last one saved.');
  });

  test('rate-limited: the gate’s time, not a failure’s older one; codes behind Details; Try now', () => {
    const notices = noticesFor(
      inputs({
        quota: quota({ remaining: 0, holdUntil: GATE_OPENS, holdReason: 'server-429' }),
        orders: orders({
          load: { kind: 'failed', failure: LIMITED, at: NOW },
          holdFailure: LIMITED,
        }),
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

  test('a 429’s hold of a few seconds says nothing: requests wait it out (a burst made the notice come and go every second)', () => {
    const soon = NOW + 3000;
    for (const holdReason of ['server-429', 'gateway-429'] as const) {
      const notices = noticesFor(
        inputs({
          quota: quota({ holdUntil: soon, holdReason }),
          orders: orders({ holdFailure: LIMITED }),
        }),
      );
      expect(notices, holdReason).toEqual([]);
    }
    // A longer one is said, and a ban however short.
    expect(
      noticesFor(inputs({ quota: quota({ holdUntil: NOW + 60_000, holdReason: 'server-429' }) })),
    ).toMatchObject([{ kind: 'rate-limited' }]);
    expect(
      noticesFor(inputs({ quota: quota({ holdUntil: soon, holdReason: 'banned' }) })),
    ).toMatchObject([{ kind: 'banned' }]);
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

  test('a hold that ends on another day names the day: "until 7:30" would read as today', () => {
    const tomorrow = new Date(2025, 5, 14, 5, 35, 18).getTime();
    const [banned] = noticesFor(
      inputs({ quota: quota({ remaining: 0, holdUntil: tomorrow, holdReason: 'banned' }) }),
    );
    expect(banned!.sentence).toBe(
      `The service has banned the Staging API key until ${formatMomentWithSeconds(tomorrow, NOW)}. Store Admin sends nothing until then.`,
    );
    expect(formatMomentWithSeconds(tomorrow, NOW)).not.toBe(formatClock(tomorrow));
  });

  test('key refused: one notice from a refresh and a cancel alike; the service’s words behind Details; Open Settings', () => {
    const notices = noticesFor(
      inputs({
        orders: orders({
          load: { kind: 'failed', failure: REFUSED, at: NOW },
          keyFailure: REFUSED,
        }),
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
          answersOnTheirWay: 0,
          unanswered: 0,
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
    const failed = orders({ load: { kind: 'failed', failure: noKey, at: NOW }, keyFailure: noKey });
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
        'The store service had a problem (502) and did not finish the request, though Store Admin tried 4 times. Try again in a few minutes. The service said: “upstream down”',
      status: 502,
      delivery: 'answered',
    };
    const [notice, ...rest] = noticesFor(
      inputs({ orders: orders({ load: { kind: 'failed', failure, at: NOW } }) }),
    );
    expect(rest).toEqual([]);
    expect(notice).toMatchObject({
      kind: 'refresh-failed',
      sentence:
        'The store service had a problem (502) and did not finish the request, though Store Admin tried 4 times. Try again in a few minutes.',
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
        connectivity: { reachable: false, since: NOW },
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
      inputs({ deprecations: [listNotice], connectivity: { reachable: false, since: NOW } }),
    );
    expect(notices.map((notice) => notice.kind)).toEqual(['unreachable', 'deprecation']);
    expect(notices[1]!.action).toBeUndefined();
  });
});

describe('a notice ends when its condition ends', () => {
  const NO_ADDRESS: Failure = {
    kind: 'invalid-input',
    message: 'The Staging address is not set yet. Enter it in Settings.',
    delivery: 'not-sent',
  };
  const NO_KEY: Failure = {
    kind: 'no-key',
    message: 'No API key is set for Staging. Add one in Settings.',
    delivery: 'not-sent',
  };
  const keyless: KeyStatus = {
    environment: 'staging',
    set: false,
    storage: 'none',
    backend: 'the macOS Keychain',
    weak: false,
    canAcceptWeakStorage: false,
  };
  const keyed: KeyStatus = { ...keyless, set: true, storage: 'os-encrypted' };

  test('an environment not set up yet: one neutral prompt with one action, never a red error, whatever its refresh ran into', () => {
    for (const [hasBaseUrl, failure, what] of [
      [false, NO_ADDRESS, 'its address and API key'],
      [true, NO_KEY, 'its API key'],
    ] as const) {
      const notices = noticesFor(
        inputs({
          hasBaseUrl,
          keyStatus: keyless,
          orders: orders({ load: { kind: 'failed', failure, at: NOW }, keyFailure: failure }),
        }),
      );
      expect(notices).toEqual([
        {
          kind: 'set-up',
          environment: 'staging',
          tone: 'info',
          title: 'Staging is not set up yet.',
          sentence: `Enter ${what} in Settings to work with its orders.`,
          action: 'set-up',
          details: [],
        },
      ]);
    }
    // On its own Settings it is not said again: that is where it is done.
    expect(
      noticesFor(inputs({ hasBaseUrl: false, keyStatus: keyless, keySettingsShown: true })),
    ).toEqual([]);
    // The sandbox is always set up.
    expect(noticesFor(inputs({ environment: 'sandbox', hasBaseUrl: true }))).toEqual([]);
  });

  test('set up since: what the old setup ran into is not said above the saved address and the connected key', () => {
    const failed = orders({
      service: undefined,
      load: { kind: 'failed', failure: NO_ADDRESS, at: NOW },
    });
    // The address was saved (the list on screen belonged to no address), and a key entered.
    expect(
      noticesFor(
        inputs({
          hasBaseUrl: true,
          baseUrl: 'https://stg.example/v1',
          keyStatus: keyed,
          orders: failed,
        }),
      ),
    ).toEqual([]);
    // A failure of the service the environment pointed at before is not this one's.
    const other: Failure = {
      kind: 'server',
      message: 'The store service had a problem (503) and did not finish the request.',
      delivery: 'answered',
      status: 503,
    };
    const before = orders({
      service: 'https://old.example/v1',
      load: { kind: 'failed', failure: other, at: NOW },
      keyFailure: REFUSED,
    });
    expect(
      noticesFor(inputs({ baseUrl: 'https://new.example/v1', keyStatus: keyed, orders: before })),
    ).toEqual([]);
    // The same failure of the service it points at now still stands.
    expect(
      noticesFor(
        inputs({ baseUrl: 'https://old.example/v1', keyStatus: keyed, orders: before }),
      ).map((notice) => notice.kind),
    ).toEqual(['key-refused', 'refresh-failed']);
  });

  test('a refresh that got no answer: said as offline while the service cannot be reached, and not at all once it answers again', () => {
    const failedAt = NOW - 60_000;
    const noAnswer = orders({ load: { kind: 'failed', failure: NO_ANSWER, at: failedAt } });
    const offline = noticesFor(
      inputs({ connectivity: { reachable: false, since: failedAt - 500 }, orders: noAnswer }),
    );
    expect(offline.map((notice) => notice.kind)).toEqual(['unreachable']);
    // Something was answered since (another call, the bulk cancel): the condition has ended.
    expect(
      noticesFor(inputs({ connectivity: { reachable: true, since: NOW }, orders: noAnswer })),
    ).toEqual([]);
    // Reachable all along, and this refresh alone lost its answers: that refresh failed, and says so.
    expect(
      noticesFor(
        inputs({ connectivity: { reachable: true, since: failedAt - 5_000 }, orders: noAnswer }),
      ).map((notice) => notice.kind),
    ).toEqual(['refresh-failed']);
  });
});
