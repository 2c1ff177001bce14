// The one IPC contract. Every channel is declared once, in `channels`: the
// schema of its arguments (checked in main before use) and the type of its
// result, side by side. Main's handler registry, the argument schemas and the
// renderer's API (src/shared/api.ts) are all derived from it, so no side can
// drift. Results are data: Result<T>, never thrown errors.

import { z } from 'zod';
import type { AppCommand } from './app-commands.ts';
import type { BulkCancelSnapshot, BulkLeftOver, BulkResult } from './bulk-cancel.ts';
import {
  domainProgressSchema,
  domainSettingsSchema,
  domainsConfigSchema,
  type DomainWorkspace,
} from './domain-assistant.ts';
import {
  projectIdSchema,
  projectNameSchema,
  type DomainProject,
  type ProjectId,
} from './domain-projects.ts';
import type { CertificateReport, DomainCheckReport } from './domains.ts';
import type { DomainWatchView } from './domain-watch.ts';
import { STORE_ENDPOINTS, type DeprecationNotice } from './deprecations.ts';
import type { OrderChangesView } from './order-changes.ts';
import type { EnvironmentId, RemoteEnvironmentId } from './environments.ts';
import type { KeyStatus } from './key-status.ts';
import { isInt64Text } from './order.ts';
import { STREAM_ID_PATTERN } from './order-stream.ts';
import { MAX_NOTE_LENGTH, type CancelLogEntry, type ReviewMarks } from './orders-local.ts';
import type { QuotaSnapshot, QuotaView } from './quota.ts';
import type { Result } from './result.ts';
import type { StorageProblem } from './storage.ts';
import { MAX_UPDATE_ADDRESS_LENGTH, type UpdateSettingsView } from './updates.ts';

const environmentId = z.enum(['sandbox', 'staging', 'production']);
const remoteEnvironmentId = z.enum(['staging', 'production']);
// int64 as canonical decimal text, in range ("-0" is not canonical).
const orderId = z.string().max(20).refine(isInt64Text, 'an order number');
// Where main posts the list's rows as it reads them (src/shared/order-stream.ts); without one, only the summary.
const streamId = z.string().regex(STREAM_ID_PATTERN);

/** A channel's arguments (a zod tuple) and, as a type only, its result. */
export interface ChannelDefinition<A extends z.ZodType, R> {
  readonly args: A;
  /** Never set: carries the result type (a function, so the type is inferred exactly). */
  readonly result?: (result: R) => R;
}

/** `channel<Result>()(argumentsSchema)`: a channel's arguments and its result in one place. */
function channel<R>() {
  return <A extends z.ZodType>(args: A): ChannelDefinition<A, R> => ({ args });
}

export const channels = {
  'app:get-state': channel<AppState>()(z.tuple([])),
  'environments:select': channel<AppState>()(z.tuple([environmentId])),
  'environments:set-base-url': channel<EnvironmentView>()(
    z.tuple([remoteEnvironmentId, z.string().max(2048)]),
  ),
  'keys:set': channel<KeyStatus>()(
    z.tuple([
      remoteEnvironmentId,
      z.string().max(4096),
      z.strictObject({ acceptWeakStorage: z.boolean().optional() }).optional(),
    ]),
  ),
  'keys:remove': channel<KeyStatus>()(z.tuple([remoteEnvironmentId])),
  /** One request with the key as saved, never tried again: whether the service takes it. */
  'keys:check': channel<ConnectionCheckView>()(z.tuple([remoteEnvironmentId])),
  // Asks main to put its own dialog to the clerk; the renderer never answers it.
  'keys:confirm-origin': channel<KeyStatus>()(z.tuple([remoteEnvironmentId])),
  'connection:test': channel<ConnectionCheckView>()(z.tuple([environmentId])),
  'orders:list': channel<OrderListView>()(z.tuple([environmentId, streamId.optional()])),
  'orders:cancel': channel<
    CancelOutcomeView & { readonly environment: EnvironmentId; readonly orderId: string }
  >()(z.tuple([environmentId, orderId])),
  'orders:cached': channel<CachedOrderList>()(z.tuple([environmentId, streamId.optional()])),
  'cancel-log:list': channel<readonly CancelLogEntry[]>()(z.tuple([environmentId])),
  'review-marks:list': channel<ReviewMarks>()(z.tuple([environmentId])),
  'review-marks:set': channel<ReviewMarks>()(
    z.tuple([
      environmentId,
      orderId,
      z.strictObject({ reviewed: z.boolean(), note: z.string().max(MAX_NOTE_LENGTH) }),
    ]),
  ),
  'quota:get': channel<QuotaView>()(z.tuple([environmentId])),
  /** One request through a hold the clerk ends by hand; a failure when the service still refuses. */
  'quota:try-now': channel<ConnectionCheckView>()(z.tuple([environmentId])),
  'bulk-cancel:start': channel<BulkCancelSnapshot>()(
    z.tuple([environmentId, z.array(orderId).min(1).max(1_000_000)]),
  ),
  'bulk-cancel:pause': channel<BulkCancelSnapshot | null>()(z.tuple([environmentId])),
  'bulk-cancel:resume': channel<BulkCancelSnapshot | null>()(z.tuple([environmentId])),
  'bulk-cancel:stop': channel<BulkCancelSnapshot | null>()(z.tuple([environmentId])),
  'bulk-cancel:status': channel<BulkCancelSnapshot | null>()(z.tuple([environmentId])),
  'bulk-cancel:results': channel<readonly BulkResult[]>()(z.tuple([environmentId])),
  'bulk-cancel:left-over': channel<BulkLeftOver>()(z.tuple([environmentId])),
  'bulk-cancel:dismiss': channel<BulkCancelSnapshot | null>()(z.tuple([environmentId])),
  // Custom domains are kept per published project (src/shared/domain-projects.ts).
  'domains:projects': channel<readonly DomainProject[]>()(z.tuple([])),
  /** Adds a project by its dashboard name; a name already there is that project. */
  'domains:add-project': channel<{
    readonly project: DomainProject;
    readonly projects: readonly DomainProject[];
  }>()(z.tuple([projectNameSchema])),
  // The DNS server is the one the clerk saved for the project (main reads
  // it), and the certificate is read on port 443: the page cannot aim main's
  // checks at any host and port.
  'domains:check': channel<DomainCheckReport>()(
    z.tuple([
      projectIdSchema,
      z.strictObject({
        domain: z.string().min(1).max(300),
        target: z.string().min(1).max(300),
        caDomain: z.string().max(300).optional(),
      }),
    ]),
  ),
  // The site's address is looked up through the same saved DNS server.
  'domains:certificate': channel<CertificateReport>()(
    z.tuple([projectIdSchema, z.strictObject({ domain: z.string().min(1).max(300) })]),
  ),
  'domains:workspace': channel<DomainWorkspace>()(z.tuple([projectIdSchema])),
  'domains:save-settings': channel<DomainWorkspace>()(
    z.tuple([projectIdSchema, domainSettingsSchema]),
  ),
  'domains:save-progress': channel<DomainWorkspace>()(
    z.tuple([projectIdSchema, domainProgressSchema]),
  ),
  'domains:remove-progress': channel<DomainWorkspace>()(
    z.tuple([projectIdSchema, z.string().min(1).max(253)]),
  ),
  'domains:save-config': channel<DomainWorkspace>()(
    z.tuple([projectIdSchema, domainsConfigSchema.optional()]),
  ),
  // What changed at the last refresh.
  'orders:changes': channel<OrderChangesView>()(z.tuple([environmentId])),
  // The service's deprecation notices; the link is the one main recorded, never one the page sends.
  'deprecations:list': channel<readonly DeprecationNotice[]>()(z.tuple([environmentId])),
  'deprecations:dismiss': channel<readonly DeprecationNotice[]>()(
    z.tuple([environmentId, z.enum(STORE_ENDPOINTS)]),
  ),
  /** Whether main opened it (an https address, in the system's browser). */
  'deprecations:open-link': channel<{ readonly opened: boolean }>()(
    z.tuple([environmentId, z.enum(STORE_ENDPOINTS)]),
  ),
  // The domains main re-checks by itself, with each one's status.
  /** Where updates come from (Settings); the check itself is main's (Help > Check for Updates). */
  'updates:settings': channel<UpdateSettingsView>()(z.tuple([])),
  /** An empty address turns updates off; main checks the address before keeping it. */
  'updates:set-address': channel<UpdateSettingsView>()(
    z.tuple([z.string().max(MAX_UPDATE_ADDRESS_LENGTH * 2)]),
  ),
  'domains:watch': channel<readonly DomainWatchView[]>()(z.tuple([projectIdSchema])),
} as const;

export type Channel = keyof typeof channels;
type ArgumentsOf<D> = D extends { readonly args: infer A extends z.ZodType } ? A : never;
type ResultOf<D> = D extends { readonly result?: (result: infer R) => unknown } ? R : never;

/** Each channel's argument schema, for main's dispatch. */
export const argumentSchemas = Object.fromEntries(
  Object.entries(channels).map(([name, definition]) => [name, definition.args]),
) as { readonly [C in Channel]: ArgumentsOf<(typeof channels)[C]> };
export type ChannelArgs<C extends Channel> = z.infer<ArgumentsOf<(typeof channels)[C]>>;
export type ChannelResults = { readonly [C in Channel]: ResultOf<(typeof channels)[C]> };

export interface EnvironmentView {
  readonly id: EnvironmentId;
  readonly label: string;
  /** Undefined for a remote environment whose address is not set yet. */
  readonly baseUrl?: string;
  /** Sandbox: always true (its demo key is built in). */
  readonly keySet: boolean;
  /** Only for production and staging. */
  readonly key?: KeyStatus;
}

export interface AppState {
  readonly activeEnvironment: EnvironmentId;
  readonly environments: readonly EnvironmentView[];
  /** Set while the data folder does not take what the app saves (the app goes on from memory). */
  readonly storageProblem?: StorageProblem;
  /** What is known so far of whether each environment's service can be reached (see the event). */
  readonly connectivity?: readonly EventPayloads['connectivity:changed'][];
  /**
   * The desktop's locale for dates, times and numbers (Electron's
   * app.getSystemLocale()); absent where main has none to give (the harness),
   * and the page then uses its own.
   */
  readonly locale?: string;
}

/**
 * A whole, valid order list, as its summary: the rows themselves went to the
 * renderer as columns on the call's stream (src/shared/order-stream.ts),
 * never as text to parse again.
 */
export interface OrderListView {
  readonly environment: EnvironmentId;
  readonly count: number;
  /** Epoch ms of the answer. */
  readonly receivedAt: number;
  readonly bytes: number;
}

export type CachedOrderList =
  | { readonly found: true; readonly list: OrderListView }
  | { readonly found: false; readonly reason: 'missing' | 'damaged' | 'other-service' };

export type CancelOutcomeView =
  | { readonly kind: 'cancelled'; readonly message: string }
  | { readonly kind: 'not-found'; readonly message: string }
  | { readonly kind: 'gone'; readonly message: string }
  | { readonly kind: 'already-shipped'; readonly message: string };

export interface ConnectionCheckView {
  readonly environment: EnvironmentId;
  readonly status: number;
  readonly message: string;
  readonly quota: QuotaSnapshot;
}

export type ChannelResult<C extends Channel> = Result<ChannelResults[C]>;

/** Events main pushes to the renderer. */
export interface EventPayloads {
  'quota:changed': { readonly environment: EnvironmentId; readonly quota: QuotaView };
  /**
   * Whether an environment's service can be reached, as main infers it from
   * every attempt: false only after several unanswered attempts in a row or a
   * refused connection; true once anything answers (or nothing is known yet).
   */
  'connectivity:changed': {
    readonly environment: EnvironmentId;
    readonly reachable: boolean;
    readonly message?: string;
    /** `web-page`: the address answers with a web page, not the store service (a network's sign-in page). */
    readonly cause?: 'web-page';
    /** Epoch ms when this state began. */
    readonly since: number;
  };
  'orders:progress': {
    readonly environment: EnvironmentId;
    readonly receivedBytes: number;
    readonly totalBytes?: number;
  };
  'keys:changed': { readonly environment: RemoteEnvironmentId; readonly status: KeyStatus };
  'bulk-cancel:changed': {
    readonly environment: EnvironmentId;
    readonly snapshot: BulkCancelSnapshot;
  };
  /** The data folder stopped (problem) or started again (null) taking what the app saves. */
  'storage:changed': { readonly problem: StorageProblem | null };
  'deprecations:changed': {
    readonly environment: EnvironmentId;
    readonly notices: readonly DeprecationNotice[];
  };
  /**
   * The clerk clicked a system notification: the window shows what it was
   * about (a finished bulk cancel's orders, a domain that turned ready).
   */
  'app:show':
    | { readonly screen: 'orders'; readonly environment: EnvironmentId }
    | { readonly screen: 'domains'; readonly project: ProjectId };
  /** A watched domain's status or schedule changed (`previous`: its badge before). */
  'domains:watch-changed': {
    readonly watch: DomainWatchView;
    readonly previous?: DomainWatchView['badge'];
  };
  /** A command chosen in main's menu (src/shared/app-commands.ts), for the page to run. */
  'app:command': { readonly command: AppCommand };
  /**
   * The machine woke, the screen was unlocked or the network came back (main
   * checks the services it works with at once): the page refreshes if a
   * refresh is due, its timers having slept.
   */
  'app:awake': { readonly reason: 'resume' | 'unlock-screen' | 'online' };
}

export type EventName = keyof EventPayloads;
/** Every event once: a name missing here, or one that is not an event, is a type error. */
export type EventTable = { readonly [E in EventName]: true };
const EVENTS: EventTable = {
  'quota:changed': true,
  'connectivity:changed': true,
  'orders:progress': true,
  'keys:changed': true,
  'bulk-cancel:changed': true,
  'storage:changed': true,
  'deprecations:changed': true,
  'domains:watch-changed': true,
  'app:show': true,
  'app:command': true,
  'app:awake': true,
};
export const EVENT_NAMES = Object.keys(EVENTS) as readonly EventName[];
export const CHANNELS = Object.keys(argumentSchemas) as Channel[];
