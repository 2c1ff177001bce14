// Whether a service can be reached is one state per environment, inferred
// from every attempt: never from one lost answer, at once from a refused
// connection, and changed only at its two edges, so mixed outcomes cannot
// make it flap. Then the same inference over real loopback sandboxes with
// injected faults (lost answers, 503s) and a stopped one, on the virtual
// clock; and a loopback server that answers as a network's sign-in page does
// (200 with a web page, or 511), which is never taken for the service.

import { afterEach, describe, expect, it } from 'vitest';
import {
  Connectivity,
  UNREACHABLE_AFTER,
  type ConnectivityChange,
} from '../../../src/main/environments/connectivity.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { startSandbox, type Sandbox } from '../../../src/main/sandbox/server.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { answer, scriptedServer, type ScriptedServer } from '../../support/scripted-server.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

const lost = { answered: false, refused: false, message: 'the connection was cut' } as const;
const refused = { answered: false, refused: true, message: 'the connection was refused' } as const;
const answered = { answered: true } as const;

function watched(now = () => 1_000) {
  const connectivity = new Connectivity(now);
  const changes: ConnectivityChange[] = [];
  connectivity.onChange((change) => changes.push(change));
  return { connectivity, changes };
}

describe('Connectivity', () => {
  it('says unreachable only after several unanswered attempts in a row, never after one', () => {
    const { connectivity, changes } = watched();
    for (let i = 1; i < UNREACHABLE_AFTER; i++) {
      connectivity.record('staging', lost);
      expect(connectivity.isUnreachable('staging')).toBe(false);
    }
    expect(changes).toEqual([]);
    connectivity.record('staging', lost);
    expect(connectivity.isUnreachable('staging')).toBe(true);
    expect(changes).toEqual([
      { environment: 'staging', reachable: false, message: lost.message, since: 1_000 },
    ]);
  });

  it('says unreachable at once when the connection is refused', () => {
    const { connectivity, changes } = watched();
    connectivity.record('sandbox', refused);
    expect(changes).toEqual([
      { environment: 'sandbox', reachable: false, message: refused.message, since: 1_000 },
    ]);
  });

  it('any answer ends it, and the count of misses starts again', () => {
    let now = 1_000;
    const { connectivity, changes } = watched(() => now);
    connectivity.record('sandbox', refused);
    now = 5_000;
    connectivity.record('sandbox', answered);
    expect(changes.at(-1)).toEqual({ environment: 'sandbox', reachable: true, since: 5_000 });
    // Two misses after an answer are still not enough.
    connectivity.record('sandbox', lost);
    connectivity.record('sandbox', lost);
    expect(connectivity.isUnreachable('sandbox')).toBe(false);
  });

  it('does not flap: lost answers among answers change nothing, and each edge is told once', () => {
    const { connectivity, changes } = watched();
    connectivity.record('production', answered);
    const pattern = [lost, answered, lost, lost, answered, answered, lost, answered];
    for (let round = 0; round < 20; round++)
      for (const outcome of pattern) connectivity.record('production', outcome);
    expect(changes.map((change) => change.reachable)).toEqual([true]);
    // Unreachable, then more misses: told once.
    for (let i = 0; i < 10; i++) connectivity.record('production', lost);
    expect(changes.map((change) => change.reachable)).toEqual([true, false]);
  });

  it('keeps environments apart, and forgets a service the environment no longer points at', () => {
    const { connectivity, changes } = watched();
    connectivity.record('staging', refused);
    expect(connectivity.isUnreachable('production')).toBe(false);
    connectivity.forget('staging');
    expect(connectivity.isUnreachable('staging')).toBe(false);
    expect(changes.at(-1)).toMatchObject({ environment: 'staging', reachable: true });
    // Forgetting what was never unreachable tells nothing.
    connectivity.forget('production');
    expect(changes).toHaveLength(2);
  });
});

describe('Connectivity over a real sandbox', () => {
  const sandboxes: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
  });

  async function setup(faults?: string) {
    const timing = virtualTiming();
    const sandbox = await startSandbox({ port: 0, orders: 20, now: timing.now, seed: 3 });
    sandboxes.push(sandbox);
    if (faults) sandbox.setFaults(faults);
    const { connectivity, changes } = watched(timing.now);
    const client = new StoreClient({
      baseUrl: sandbox.baseUrl,
      getKey: () => 'demo-enterprise',
      gate: new RequestGate({ timing }),
      budget: new RetryBudget(timing.now),
      timing,
      onAttempt: (outcome) => connectivity.record('sandbox', outcome),
    });
    return { timing, sandbox, client, connectivity, changes };
  }

  it('lost answers among answers: calls go on succeeding and the service is never said to be unreachable', async () => {
    const { sandbox, client, changes } = await setup('reset@0.15');
    let succeeded = 0;
    for (let call = 0; call < 40; call++)
      await client.checkConnection().then(
        () => (succeeded += 1),
        () => undefined,
      );
    expect(succeeded).toBeGreaterThanOrEqual(36);
    const unanswered = sandbox.requestLog.filter((request) => !request.answered).length;
    // The faults did fire (the test could fail), but never three times in a row.
    expect(unanswered).toBeGreaterThan(3);
    const runs = sandbox.requestLog.map((request) => (request.answered ? '.' : 'x')).join('');
    expect(runs).not.toContain('x'.repeat(UNREACHABLE_AFTER));
    expect(changes.map((change) => change.reachable)).toEqual([true]);
  });

  it('503s are answers: the call fails as the service’s problem, and the service counts as reachable', async () => {
    const { client, changes } = await setup('5xx@1');
    await expect(client.checkConnection()).rejects.toMatchObject({
      failure: { kind: 'server' },
    });
    expect(changes.map((change) => change.reachable)).toEqual([true]);
  });

  it('every answer lost: unreachable once the third attempt in a row goes unanswered, within the first call', async () => {
    const { timing, client, changes } = await setup('reset@1');
    const startedAt = timing.now();
    await expect(client.checkConnection()).rejects.toMatchObject({ failure: { kind: 'network' } });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ reachable: false });
    // Told before the call gave up (its fourth attempt came after).
    expect(changes[0]!.since).toBeLessThan(timing.now());
    expect(changes[0]!.since).toBeGreaterThan(startedAt);
  });

  it('a stopped sandbox: the refused connection is known at the first attempt, before any retry waits', async () => {
    const { timing, sandbox, client, changes } = await setup();
    await client.checkConnection();
    await sandbox.close();
    // The client's kept-alive connection hears of the close in the event loop's next I/O phase.
    await new Promise((resolve) => setImmediate(resolve));
    const stoppedAt = timing.now();
    const sleepsBefore = timing.sleeps.length;
    // What the retries meet is not this test's to say: once free, the port may be another test's
    // (the fast tier runs files side by side), so only the first attempt's refusal is asserted.
    await expect(client.checkConnection()).rejects.toMatchObject({ failure: { kind: 'network' } });
    expect(changes.map((change) => change.reachable)).toEqual([true, false]);
    // At the first attempt: refused, and known before any backoff was slept.
    expect(changes[1]!.message).toMatch(/refused/);
    expect(changes[1]!.since).toBe(stoppedAt);
    expect(timing.sleeps.length).toBeGreaterThan(sleepsBefore);
  });

  it('an attempt the caller stopped says nothing of the service', async () => {
    const { client, changes } = await setup('latency=5000@1');
    const stop = new AbortController();
    const call = client.checkConnection({ signal: stop.signal });
    setTimeout(() => stop.abort(new Error('stopped')), 20);
    await expect(call).rejects.toMatchObject({ failure: { kind: 'aborted' } });
    expect(changes).toEqual([]);
  });
});

describe('A network sign-in page in front of the service (a captive portal)', () => {
  const servers: ScriptedServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  const PAGE = '<!doctype html><html><body><h1>Welcome to the Hotel Wi-Fi</h1></body></html>';

  /** A server that answers as a sign-in page while `portal.status` is set, and as the service after. */
  async function setup() {
    const portal: { status: number | undefined } = { status: 200 };
    const server = await scriptedServer((_req, res) => {
      if (portal.status !== undefined)
        answer(res, portal.status, PAGE, { 'content-type': 'text/html; charset=utf-8' });
      else answer(res, 200, []);
    });
    servers.push(server);
    const timing = virtualTiming();
    const { connectivity, changes } = watched(timing.now);
    const client = new StoreClient({
      baseUrl: server.baseUrl,
      getKey: () => 'test-key-0123456789',
      gate: new RequestGate({ timing }),
      budget: new RetryBudget(timing.now),
      timing,
      onAttempt: (outcome) => connectivity.record('staging', outcome),
    });
    const pageWords = `The address ${new URL(server.baseUrl).host} answered with a web page, not the store service (perhaps a sign-in page of this network).`;
    return { server, portal, client, connectivity, changes, pageWords };
  }

  it('200 with a web page: the connection test does not say Connected, and the service is not reachable, at once', async () => {
    const { server, client, connectivity, changes, pageWords } = await setup();
    await expect(client.checkConnection()).rejects.toMatchObject({
      failure: { kind: 'network', message: pageWords, status: 200 },
    });
    // The same page every time: not tried again.
    expect(server.requests).toHaveLength(1);
    expect(connectivity.isUnreachable('staging')).toBe(true);
    expect(changes).toEqual([
      expect.objectContaining({ reachable: false, cause: 'web-page', message: pageWords }),
    ]);
    // A refresh meets it too, with the same words, and nothing of the page is read as orders.
    await expect(client.listOrderColumns()).rejects.toMatchObject({
      failure: { kind: 'network', message: pageWords },
    });
  });

  it('511 (sign in to the network) is the same; once signed in, the service answers and is reachable', async () => {
    const { portal, client, connectivity, changes } = await setup();
    portal.status = 511;
    await expect(client.checkConnection()).rejects.toMatchObject({
      failure: { kind: 'network', status: 511 },
    });
    expect(connectivity.stateOf('staging')).toMatchObject({ reachable: false, cause: 'web-page' });
    portal.status = undefined;
    await expect(client.checkConnection()).resolves.toMatchObject({ status: 200 });
    expect(changes.map((change) => change.reachable)).toEqual([false, true]);
    expect(connectivity.stateOf('staging')?.cause).toBeUndefined();
  });

  it('a cancel that meets the page may or may not have passed through: never "not sent"', async () => {
    const { client } = await setup();
    await expect(client.cancelOrder('7')).rejects.toMatchObject({
      failure: { kind: 'network', delivery: 'unknown' },
    });
  });

  it('a refused connection and then the page: the state says the newer reason', () => {
    const { connectivity, changes } = watched();
    connectivity.record('staging', refused);
    connectivity.record('staging', { ...refused, cause: 'web-page', message: 'a web page' });
    expect(changes.map((change) => [change.reachable, change.cause])).toEqual([
      [false, undefined],
      [false, 'web-page'],
    ]);
  });
});
