// The soak: the main-process services of one desktop (refreshes, bulk
// cancels, single cancels, DNS checks against a DNS server on loopback) run
// for a while against the sandbox with faults: delays, 503s, lost answers,
// cut-off lists and bursts of 429s. Every state the app reports is checked
// against the sandbox's (or the DNS zone's), no request may leave while its
// gate is shut, no promise rejection may go unhandled, and the heap must be
// as large at the end as at the start (after a collection).
// Used by test/reliability/soak.spec.ts (a fixed amount of work, in the heavy
// tier) and scripts/soak.ts (npm run soak: for as long as asked).

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { RequestGate } from '../../src/main/quota/gate.ts';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import type { FaultKind } from '../../src/main/sandbox/faults.ts';
import type { BulkCancelSnapshot, BulkResult } from '../../src/shared/bulk-cancel.ts';
import type { DomainCheckReport, DomainStatus } from '../../src/shared/domains.ts';
import type { Failure } from '../../src/shared/failures.ts';
import type { OrderListView } from '../../src/shared/ipc-contract.ts';
import { startDnsTestServer } from '../loopback/dns-test-server.ts';
import { desktopApp } from './desktop-app.ts';

export const SOAK_FAULTS = 'latency=40@0.2,5xx@0.03,reset@0.02,malformed@0.05,429=4@0.004';

export interface SoakReport {
  readonly seconds: number;
  /** Requests the sandbox received. */
  readonly requests: number;
  readonly faults: Readonly<Record<FaultKind, number>>;
  readonly refreshes: { readonly ok: number; readonly failed: number };
  readonly bulkJobs: number;
  readonly bulkResults: number;
  readonly cancels: number;
  readonly dnsChecks: number;
  /** Reported states that differ from the sandbox's (or the zone's), with what differed. */
  readonly mismatches: readonly string[];
  /** Requests that left while their gate was shut. */
  readonly sentWhileShut: number;
  readonly unhandledRejections: number;
  readonly heapStartMb: number;
  readonly heapEndMb: number;
}

/** The collector, on any Node: --expose-gc when given, else turned on here. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function heapMb(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

const TARGET = 'edge.petstore-platform.net';
const DNS_EXPECTED: Readonly<Record<string, DomainStatus>> = {
  'shop.example.com': 'ready',
  'old.example.com': 'misconfigured',
  'new.example.com': 'pending',
};

/** Failures that a faulty service may cause: typed, in plain words, never an internal fault. */
const SERVICE_FAILURES: readonly Failure['kind'][] = [
  'server',
  'network',
  'timeout',
  'invalid-response',
  'rate-limited',
];

/** Whether a bulk or single cancel's reported outcome is true of the sandbox now. */
function outcomeHolds(
  sandbox: Sandbox,
  result: Pick<BulkResult, 'orderId' | 'outcome' | 'delivery'>,
): boolean {
  const status = sandbox.orderStatus(result.orderId);
  switch (result.outcome) {
    case 'cancelled':
      return status === 'cancelled';
    case 'already-shipped':
      return status === 'shipped';
    case 'not-found':
    case 'gone':
      return status === 'cancelled' || status === undefined;
    case 'failed':
      // Not sent, or answered without acting: the order is as it was. Unknown: either.
      return result.delivery === 'unknown' || status !== 'cancelled';
  }
}

/** Work for each loop of the soak: the same on any machine, however long it takes. */
export interface SoakRounds {
  readonly refreshes: number;
  readonly bulkJobs: number;
  readonly cancels: number;
  /** Rounds of the three DNS checks. */
  readonly dnsRounds: number;
}

export type SoakPlan =
  /** `npm run soak`: every loop goes on for this long. */
  | { readonly durationMs: number; readonly seed: number }
  /** The test: every loop does its rounds, so what it proves does not depend on the machine's speed. */
  | { readonly rounds: SoakRounds; readonly seed: number };

export async function runSoak(options: SoakPlan): Promise<SoakReport> {
  const gc = collector();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const sandbox = await startSandbox({
    port: 0,
    orders: 4000,
    seed: options.seed,
    minuteMs: 10_000,
    faults: SOAK_FAULTS,
  });
  const dns = await startDnsTestServer({
    records: [
      { name: 'shop.example.com', type: 'CNAME', data: TARGET },
      { name: TARGET, type: 'A', data: '203.0.113.10' },
      { name: 'old.example.com', type: 'A', data: '192.0.2.77' },
    ],
    zones: [
      { name: 'example.com', soaTtl: 900, minimum: 300 },
      { name: 'petstore-platform.net', soaTtl: 3600, minimum: 600 },
    ],
  });
  let sentWhileShut = 0;
  // The gate exists once the app does: until then, no gate to look at.
  let gate: () => RequestGate | undefined = () => undefined;
  const watchedFetch: typeof fetch = async (input, init) => {
    const open = gate()?.openAt();
    if (open?.reason === 'server-429' || open?.reason === 'banned') sentWhileShut += 1;
    return fetch(input, init);
  };
  const app = desktopApp(sandbox, { key: 'demo-pro', fetch: watchedFetch });
  gate = () => app.services.service.gateOf('sandbox');
  const faults: Record<FaultKind, number> = {
    latency: 0,
    '5xx': 0,
    reset: 0,
    malformed: 0,
    '429': 0,
  };
  let requests = 0;
  const drainLog = (): void => {
    for (const entry of sandbox.requestLog) {
      requests += 1;
      for (const kind of entry.faults) {
        // A cut-off list is a fault only where a list was sent.
        if (kind === 'malformed' && !(entry.method === 'GET' && entry.status === 200)) continue;
        faults[kind] += 1;
      }
    }
    sandbox.clearRequestLog();
  };
  const mismatches: string[] = [];
  const refreshes = { ok: 0, failed: 0 };
  let bulkJobs = 0;
  let bulkResults = 0;
  let cancels = 0;
  let dnsChecks = 0;
  const pending = sandbox.orderIds({ status: 'pending' });
  const shipped = sandbox.orderIds({ status: 'shipped' });
  let nextBulk = 0;
  let nextSingle = pending.length - 1;
  let nextShipped = 0;
  let nextMissing = 9_000_000;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const expectFailure = (what: string, failure: Failure): void => {
    if (!SERVICE_FAILURES.includes(failure.kind))
      mismatches.push(`${what}: failed as ${failure.kind} (${failure.message})`);
  };

  try {
    expect(await app.call('domains:add-project', 'Soak'), 'the domains project');
    expect(
      await app.call('domains:save-settings', 'soak', { resolver: dns.address }),
      'DNS settings',
    );
    await app.call('orders:list', 'sandbox');
    const started = Date.now();
    const deadline = 'durationMs' in options ? started + options.durationMs : Infinity;
    const rounds = 'rounds' in options ? options.rounds : undefined;
    /** Whether a loop that has done `done` rounds of `kind` goes on. */
    const more = (kind: keyof SoakRounds, done: number): boolean =>
      rounds ? done < rounds[kind] : Date.now() < deadline;
    // The heap's starting size once every kind of work has run a few times (modules
    // loaded, caches and the first bulk cancel's state in place): flat means no
    // growth from there to the end.
    let heapStartMb = heapMb(gc);
    let warmedUp = false;
    const warmUpCheck = (): void => {
      if (warmedUp || bulkJobs < 1 || refreshes.ok + refreshes.failed < 2 || cancels < 2) return;
      if (dnsChecks < 2 * Object.keys(DNS_EXPECTED).length) return;
      warmedUp = true;
      heapStartMb = heapMb(gc);
    };

    const refreshLoop = async (): Promise<void> => {
      while (more('refreshes', refreshes.ok + refreshes.failed)) {
        const before = sandbox.orderIds().length;
        const result = await app.call('orders:list', 'sandbox');
        const after = sandbox.orderIds().length;
        if (result.ok) {
          refreshes.ok += 1;
          const count = (result.value as OrderListView).count;
          // Cancels only shrink the list: its count lies between the counts before and after.
          if (count > before || count < after)
            mismatches.push(`refresh: ${count} orders, the sandbox had ${before} to ${after}`);
        } else {
          refreshes.failed += 1;
          expectFailure('refresh', result.error);
        }
        warmUpCheck();
        await pause(200);
      }
    };

    const bulkLoop = async (): Promise<void> => {
      const queue = (await app.services.bulkCancelOf('sandbox'))!;
      while (more('bulkJobs', bulkJobs)) {
        const ids = [
          ...pending.slice(nextBulk, (nextBulk += 30)),
          ...shipped.slice(nextShipped, (nextShipped += 6)),
          ...Array.from({ length: 4 }, () => String(nextMissing++)),
        ];
        const started = await app.call('bulk-cancel:start', 'sandbox', ids);
        if (!started.ok) {
          mismatches.push(`bulk start: ${started.error.message}`);
          return;
        }
        bulkJobs += 1;
        let snapshot: BulkCancelSnapshot;
        for (;;) {
          await queue.idle();
          snapshot = queue.snapshot()!;
          if (snapshot.status === 'finished') break;
          if (snapshot.status === 'paused' && snapshot.pauseReason !== 'offline') {
            mismatches.push(`bulk paused: ${snapshot.message}`);
            await queue.resume();
          }
          await pause(50); // offline: it resumes by itself
        }
        const results = queue.results();
        bulkResults += results.length;
        if (new Set(results.map((r) => r.orderId)).size !== ids.length)
          mismatches.push(`bulk: ${results.length} results for ${ids.length} orders`);
        for (const result of results)
          if (!outcomeHolds(sandbox, result))
            mismatches.push(
              `bulk: ${result.orderId} reported ${result.outcome}, the sandbox has ${sandbox.orderStatus(result.orderId)}`,
            );
        warmUpCheck();
      }
    };

    const cancelLoop = async (): Promise<void> => {
      while (more('cancels', cancels)) {
        const orderId = pending[nextSingle--]!;
        const result = await app.call('orders:cancel', 'sandbox', orderId);
        cancels += 1;
        if (result.ok) {
          const outcome = result.value as { kind: BulkResult['outcome'] };
          if (!outcomeHolds(sandbox, { orderId, outcome: outcome.kind }))
            mismatches.push(
              `cancel: ${orderId} reported ${outcome.kind}, the sandbox has ${sandbox.orderStatus(orderId)}`,
            );
        } else {
          expectFailure('cancel', result.error);
          if (
            !outcomeHolds(sandbox, { orderId, outcome: 'failed', delivery: result.error.delivery })
          )
            mismatches.push(
              `cancel: ${orderId} failed (${result.error.delivery}), the sandbox has ${sandbox.orderStatus(orderId)}`,
            );
        }
        warmUpCheck();
        await pause(400);
      }
    };

    const dnsLoop = async (): Promise<void> => {
      for (let round = 0; more('dnsRounds', round); round++) {
        for (const [domain, expected] of Object.entries(DNS_EXPECTED)) {
          const result = await app.call('domains:check', 'soak', { domain, target: TARGET });
          dnsChecks += 1;
          const status = result.ok
            ? (result.value as DomainCheckReport).status
            : `failed: ${result.error.message}`;
          if (status !== expected)
            mismatches.push(`dns: ${domain} reported ${status}, the zone says ${expected}`);
        }
        warmUpCheck();
        await pause(300);
      }
    };

    const logTimer = setInterval(drainLog, 500);
    try {
      await Promise.all([refreshLoop(), bulkLoop(), cancelLoop(), dnsLoop()]);
    } finally {
      clearInterval(logTimer);
    }
    drainLog();
    const seconds = (Date.now() - started) / 1000;
    const heapEndMb = heapMb(gc);
    return {
      seconds,
      requests,
      faults,
      refreshes,
      bulkJobs,
      bulkResults,
      cancels,
      dnsChecks,
      mismatches,
      sentWhileShut,
      unhandledRejections: unhandled.length,
      heapStartMb,
      heapEndMb,
    };
  } finally {
    await app.close();
    await dns.close();
    await sandbox.close();
    process.off('unhandledRejection', onUnhandled);
  }
}

function expect(result: { ok: boolean }, what: string): void {
  if (!result.ok) throw new Error(`soak set-up: ${what} failed`);
}
