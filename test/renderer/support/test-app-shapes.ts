// The parts of the in-process app and of the sandbox that renderer tests use.
// Those modules are main-process code that needs Node's types, which the web
// tsconfig rightly does not load, so test-app.tsx imports them at run time by
// path and types them with these shapes. The node tsconfig checks that the
// real modules fit them (test/support/dom-setup.ts). No JSX and no DOM here:
// both tsconfigs read this file.

import type { StoreAdminApi } from '../../../src/shared/api.ts';
import type { OrderStreams } from '../../../src/shared/order-stream.ts';
import type { EnvironmentId } from '../../../src/shared/environments.ts';
import type { Order } from '../../../src/shared/order.ts';
import type { RemoteEnvironmentId } from '../../../src/shared/environments.ts';
import type { KeyStatus } from '../../../src/shared/key-status.ts';
import type { PlanId } from '../../../src/shared/plans.ts';

export type TestOrderStatus = 'pending' | 'shipped' | 'cancelled';

export interface TestSandbox {
  readonly baseUrl: string;
  /** Every request the sandbox received, in order. */
  readonly requestLog: readonly {
    readonly method: string;
    readonly path: string;
    readonly status: number;
  }[];
  orderIds(filter?: { readonly status?: TestOrderStatus; readonly limit?: number }): string[];
  orderStatus(id: string): TestOrderStatus | undefined;
  /** Force an order's status (e.g. ship it). */
  setOrderStatus(id: string, status: TestOrderStatus): void;
  /** Replace the injected faults at runtime (undefined or "" for none). */
  setFaults(spec: string | undefined): void;
  /** What each churn step taken so far did, oldest first. */
  readonly churned: readonly {
    readonly shipped: readonly string[];
    readonly completed: readonly string[];
    readonly arrived: readonly string[];
    readonly cancelled: readonly string[];
  }[];
  close(): Promise<void>;
}

export interface TestSandboxOptions {
  /** The port on 127.0.0.1 (default: a free one); a test brings a stopped service back where it was. */
  readonly port?: number;
  readonly keys?: readonly { readonly plan: PlanId; readonly key: string }[];
  readonly orders?: number;
  /** Injected faults, e.g. "latency=300@1" (src/main/sandbox/faults.ts). */
  readonly faults?: string;
  /** Order and pet ids above 2^53. */
  readonly bigIds?: boolean;
  readonly seed?: number;
  /** Length of the "minute" and "day" windows in ms. */
  readonly minuteMs?: number;
  readonly dayMs?: number;
  /** The Enterprise plan's limits, so a test can have a tiny quota. */
  readonly enterpriseLimits?: { readonly perMinute: number; readonly perDay: number };
  /** Requests sent while limited before a key is banned, and how long the ban lasts. */
  readonly banAfter?: number;
  readonly banMs?: number;
  /** How latency faults wait: a test can act while one request is held up. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Every this many ms of the sandbox clock, orders ship, complete, arrive and are cancelled elsewhere. */
  readonly churnEveryMs?: number;
  /** Endpoints answered with deprecation headers: `PATH[=SUNSET]`. */
  readonly deprecate?: readonly string[];
  /** The sandbox's clock (windows, churn). */
  readonly now?: () => number;
}

export type TestStorageBackend =
  'keychain' | 'dpapi' | 'gnome_libsecret' | 'kwallet6' | 'basic_text' | 'unavailable';

export interface TestApp {
  readonly api: StoreAdminApi;
  /** Where lists asked for with a stream id arrive (App's orderStreams). */
  readonly orderStreams: OrderStreams;
  /** `orders:list` or `orders:cached` as the renderer calls them: the result, and the orders that came. */
  readList(
    channel: 'orders:list' | 'orders:cached',
    environment: EnvironmentId,
  ): Promise<{ result: { readonly ok: boolean }; orders: Order[]; parts: number }>;
  /** The app's local data folder; another app started on it sees what this one saved. */
  readonly dataDir: string;
  /** The data folder's disk: `disk.fail('ENOSPC')` fills it, `disk.fail(undefined)` frees it. */
  readonly disk: { fail(code: 'ENOSPC' | 'EROFS' | 'EACCES' | undefined): void };
  readonly sandbox: TestSandbox;
  readonly keys: { status(environment: RemoteEnvironmentId): KeyStatus };
  /** Every result and event the renderer side received. */
  readonly received: readonly unknown[];
  /** The addresses main opened in the browser. */
  readonly opened: readonly string[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  readonly backend?: TestStorageBackend;
  readonly sandbox?: TestSandboxOptions;
  /** An existing data folder (e.g. another app's), left in place when the app closes. */
  readonly dataDir?: string;
  /** When watched domains are checked again (epoch ms; undefined stops); short in tests. */
  readonly recheckSchedule?: (state: {
    readonly since: number;
    readonly checkedAt?: number;
    readonly deadline?: number;
  }) => number | undefined;
  /** The update address given when the app was built (its app-update.yml), if any. */
  readonly buildUpdateFeed?: {
    readonly url: string;
    readonly channel: string;
    readonly source: 'build';
  };
  /** Stands in for main's dialog "may the key go to the new address?"; declines by default. */
  readonly confirmKeyForOrigin?: (question: {
    readonly environment: RemoteEnvironmentId;
    readonly from: string;
    readonly to: string;
  }) => Promise<boolean>;
}

export interface InProcessAppModule {
  startInProcessApp(options?: TestAppOptions): Promise<TestApp>;
}

export interface SandboxModule {
  startSandbox(options?: TestSandboxOptions & { readonly port?: number }): Promise<TestSandbox>;
}

/** A server on loopback whose answers a test scripts (test/support/scripted-server.ts). */
export interface TestScriptedServer {
  readonly baseUrl: string;
  readonly requests: readonly unknown[];
  close(): Promise<void>;
}

export interface ScriptedServerModule {
  scriptedServer(
    script: (
      request: unknown,
      response: {
        writeHead(status: number, headers: Record<string, string>): unknown;
        end(body: string): unknown;
      },
      index: number,
    ) => void,
  ): Promise<TestScriptedServer>;
}
