// The one IPC contract. Every channel is declared here with the schema of its
// arguments (checked in main before use) and the type of its result. Main's
// handler registry and the preload's API are typed from it, so the two sides
// cannot drift. Results are data: Result<T>, never thrown errors.

import { z } from 'zod';
import type { BulkCancelSnapshot, BulkResult } from './bulk-cancel.ts';
import {
  domainProgressSchema,
  domainSettingsSchema,
  domainsConfigSchema,
  type DomainWorkspace,
} from './domain-assistant.ts';
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

const environmentId = z.enum(['sandbox', 'staging', 'production']);
const remoteEnvironmentId = z.enum(['staging', 'production']);
// int64 as canonical decimal text, in range ("-0" is not canonical).
const orderId = z.string().max(20).refine(isInt64Text, 'an order number');
// Where main posts the list's rows as it reads them (src/shared/order-stream.ts); without one, only the summary.
const streamId = z.string().regex(STREAM_ID_PATTERN);

export const argumentSchemas = {
  'app:get-state': z.tuple([]),
  'environments:select': z.tuple([environmentId]),
  'environments:set-base-url': z.tuple([remoteEnvironmentId, z.string().max(2048)]),
  'keys:set': z.tuple([
    remoteEnvironmentId,
    z.string().max(4096),
    z.strictObject({ acceptWeakStorage: z.boolean().optional() }).optional(),
  ]),
  'keys:remove': z.tuple([remoteEnvironmentId]),
  // Asks main to put its own dialog to the clerk; the renderer never answers it.
  'keys:confirm-origin': z.tuple([remoteEnvironmentId]),
  'connection:test': z.tuple([environmentId]),
  'orders:list': z.tuple([environmentId, streamId.optional()]),
  'orders:cancel': z.tuple([environmentId, orderId]),
  'orders:cached': z.tuple([environmentId, streamId.optional()]),
  'cancel-log:list': z.tuple([environmentId]),
  'review-marks:list': z.tuple([environmentId]),
  'review-marks:set': z.tuple([
    environmentId,
    orderId,
    z.strictObject({ reviewed: z.boolean(), note: z.string().max(MAX_NOTE_LENGTH) }),
  ]),
  'quota:get': z.tuple([environmentId]),
  'quota:try-now': z.tuple([environmentId]),
  'bulk-cancel:start': z.tuple([environmentId, z.array(orderId).min(1).max(1_000_000)]),
  'bulk-cancel:pause': z.tuple([environmentId]),
  'bulk-cancel:resume': z.tuple([environmentId]),
  'bulk-cancel:stop': z.tuple([environmentId]),
  'bulk-cancel:status': z.tuple([environmentId]),
  'bulk-cancel:results': z.tuple([environmentId]),
  'bulk-cancel:dismiss': z.tuple([environmentId]),
  // The DNS server is the one the clerk saved for the environment (main reads
  // it), and the certificate is read on port 443: the page cannot aim main's
  // checks at any host and port.
  'domains:check': z.tuple([
    environmentId,
    z.strictObject({
      domain: z.string().min(1).max(300),
      target: z.string().min(1).max(300),
      caDomain: z.string().max(300).optional(),
    }),
  ]),
  // The site's address is looked up through the same saved DNS server.
  'domains:certificate': z.tuple([
    environmentId,
    z.strictObject({ domain: z.string().min(1).max(300) }),
  ]),
  'domains:workspace': z.tuple([environmentId]),
  'domains:save-settings': z.tuple([environmentId, domainSettingsSchema]),
  'domains:save-progress': z.tuple([environmentId, domainProgressSchema]),
  'domains:remove-progress': z.tuple([environmentId, z.string().min(1).max(253)]),
  'domains:save-config': z.tuple([environmentId, domainsConfigSchema.optional()]),
  // What changed at the last refresh (issue 13 §1).
  'orders:changes': z.tuple([environmentId]),
  // The service's deprecation notices; the link is the one main recorded, never one the page sends.
  'deprecations:list': z.tuple([environmentId]),
  'deprecations:dismiss': z.tuple([environmentId, z.enum(STORE_ENDPOINTS)]),
  'deprecations:open-link': z.tuple([environmentId, z.enum(STORE_ENDPOINTS)]),
  // The domains main re-checks by itself, with each one's status.
  'domains:watch': z.tuple([environmentId]),
} as const;

export type Channel = keyof typeof argumentSchemas;
export type ChannelArgs<C extends Channel> = z.infer<(typeof argumentSchemas)[C]>;

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

export interface ChannelResults {
  'app:get-state': AppState;
  'environments:select': AppState;
  'environments:set-base-url': EnvironmentView;
  'keys:set': KeyStatus;
  'keys:remove': KeyStatus;
  'keys:confirm-origin': KeyStatus;
  'connection:test': ConnectionCheckView;
  'orders:list': OrderListView;
  'orders:cancel': CancelOutcomeView & {
    readonly environment: EnvironmentId;
    readonly orderId: string;
  };
  'orders:cached': CachedOrderList;
  'cancel-log:list': readonly CancelLogEntry[];
  'review-marks:list': ReviewMarks;
  'review-marks:set': ReviewMarks;
  'quota:get': QuotaView;
  /** One request through a hold the clerk ends by hand; a failure when the service still refuses. */
  'quota:try-now': ConnectionCheckView;
  'bulk-cancel:start': BulkCancelSnapshot;
  'bulk-cancel:pause': BulkCancelSnapshot | null;
  'bulk-cancel:resume': BulkCancelSnapshot | null;
  'bulk-cancel:stop': BulkCancelSnapshot | null;
  'bulk-cancel:status': BulkCancelSnapshot | null;
  'bulk-cancel:results': readonly BulkResult[];
  'bulk-cancel:dismiss': BulkCancelSnapshot | null;
  'domains:check': DomainCheckReport;
  'domains:certificate': CertificateReport;
  'domains:workspace': DomainWorkspace;
  'domains:save-settings': DomainWorkspace;
  'domains:save-progress': DomainWorkspace;
  'domains:remove-progress': DomainWorkspace;
  'domains:save-config': DomainWorkspace;
  'orders:changes': OrderChangesView;
  'deprecations:list': readonly DeprecationNotice[];
  'deprecations:dismiss': readonly DeprecationNotice[];
  /** Whether main opened it (an https address, in the system's browser). */
  'deprecations:open-link': { readonly opened: boolean };
  'domains:watch': readonly DomainWatchView[];
}

export type ChannelResult<C extends Channel> = Result<ChannelResults[C]>;

/** Events main pushes to the renderer. */
export interface EventPayloads {
  'quota:changed': { readonly environment: EnvironmentId; readonly quota: QuotaView };
  'connectivity:changed': {
    readonly environment: EnvironmentId;
    readonly reachable: boolean;
    readonly message?: string;
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
  /** A watched domain's status or schedule changed (`previous`: its badge before). */
  'domains:watch-changed': {
    readonly watch: DomainWatchView;
    readonly previous?: DomainWatchView['badge'];
  };
}

export type EventName = keyof EventPayloads;
export const EVENT_NAMES: readonly EventName[] = [
  'quota:changed',
  'connectivity:changed',
  'orders:progress',
  'keys:changed',
  'bulk-cancel:changed',
  'storage:changed',
  'deprecations:changed',
  'domains:watch-changed',
];
export const CHANNELS = Object.keys(argumentSchemas) as Channel[];
