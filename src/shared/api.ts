// The API the renderer sees as `window.storeAdmin`: narrow, named methods over
// the typed contract, never ipcRenderer or a generic send. Built by the
// preload from an `invoke` and an `on` over Electron IPC; it lives in
// src/shared so the renderer takes its type without importing the preload.

import type { DomainProgress, DomainSettings, DomainsConfig } from './domain-assistant.ts';
import type { ProjectId } from './domain-projects.ts';
import type { RemoteEnvironmentId, EnvironmentId } from './environments.ts';
import type { StoreEndpoint } from './deprecations.ts';
import type {
  Channel,
  ChannelArgs,
  ChannelResult,
  EventName,
  EventPayloads,
} from './ipc-contract.ts';

export type Invoke = <C extends Channel>(
  channel: C,
  ...args: ChannelArgs<C>
) => Promise<ChannelResult<C>>;
export type Subscribe = <E extends EventName>(
  event: E,
  listener: (payload: EventPayloads[E]) => void,
) => () => void;

export function createApi(invoke: Invoke, on: Subscribe) {
  return {
    app: {
      getState: () => invoke('app:get-state'),
    },
    environments: {
      select: (environment: EnvironmentId) => invoke('environments:select', environment),
      setBaseUrl: (environment: RemoteEnvironmentId, url: string) =>
        invoke('environments:set-base-url', environment, url),
    },
    keys: {
      set: (
        environment: RemoteEnvironmentId,
        key: string,
        options?: { acceptWeakStorage?: boolean },
      ) => invoke('keys:set', environment, key, options),
      remove: (environment: RemoteEnvironmentId) => invoke('keys:remove', environment),
      /** One request with the key as saved, never tried again: whether the service takes it. */
      check: (environment: RemoteEnvironmentId) => invoke('keys:check', environment),
      /** Main asks the clerk, in its own dialog, whether the key may go to the new address. */
      confirmOrigin: (environment: RemoteEnvironmentId) =>
        invoke('keys:confirm-origin', environment),
    },
    connection: {
      test: (environment: EnvironmentId) => invoke('connection:test', environment),
    },
    orders: {
      /** Downloads the list; its rows go to the stream `streamId` names as they are read (see order-stream.ts). */
      list: (environment: EnvironmentId, streamId?: string) =>
        invoke('orders:list', environment, streamId),
      cancel: (environment: EnvironmentId, orderId: string) =>
        invoke('orders:cancel', environment, orderId),
      /** The saved list; its rows go to the stream `streamId` names as they are read. */
      cached: (environment: EnvironmentId, streamId?: string) =>
        invoke('orders:cached', environment, streamId),
    },
    cancelLog: {
      list: (environment: EnvironmentId) => invoke('cancel-log:list', environment),
    },
    reviewMarks: {
      list: (environment: EnvironmentId) => invoke('review-marks:list', environment),
      set: (
        environment: EnvironmentId,
        orderId: string,
        mark: { reviewed: boolean; note: string },
      ) => invoke('review-marks:set', environment, orderId, mark),
    },
    quota: {
      get: (environment: EnvironmentId) => invoke('quota:get', environment),
      /** "Try now": one request through a hold, after the clerk confirmed it. */
      tryNow: (environment: EnvironmentId) => invoke('quota:try-now', environment),
    },
    bulkCancel: {
      start: (environment: EnvironmentId, orderIds: readonly string[]) =>
        invoke('bulk-cancel:start', environment, [...orderIds]),
      pause: (environment: EnvironmentId) => invoke('bulk-cancel:pause', environment),
      resume: (environment: EnvironmentId) => invoke('bulk-cancel:resume', environment),
      stop: (environment: EnvironmentId) => invoke('bulk-cancel:stop', environment),
      status: (environment: EnvironmentId) => invoke('bulk-cancel:status', environment),
      results: (environment: EnvironmentId) => invoke('bulk-cancel:results', environment),
      leftOver: (environment: EnvironmentId) => invoke('bulk-cancel:left-over', environment),
      dismiss: (environment: EnvironmentId) => invoke('bulk-cancel:dismiss', environment),
    },
    /** Custom domains, per published project (its id from projectIdOf). */
    domains: {
      projects: () => invoke('domains:projects'),
      addProject: (name: string) => invoke('domains:add-project', name),
      check: (project: ProjectId, request: ChannelArgs<'domains:check'>[1]) =>
        invoke('domains:check', project, request),
      certificate: (project: ProjectId, request: ChannelArgs<'domains:certificate'>[1]) =>
        invoke('domains:certificate', project, request),
      workspace: (project: ProjectId) => invoke('domains:workspace', project),
      saveSettings: (project: ProjectId, settings: DomainSettings) =>
        invoke('domains:save-settings', project, settings),
      saveProgress: (project: ProjectId, progress: DomainProgress) =>
        invoke('domains:save-progress', project, progress),
      removeProgress: (project: ProjectId, domain: string) =>
        invoke('domains:remove-progress', project, domain),
      saveConfig: (project: ProjectId, config: DomainsConfig | undefined) =>
        invoke('domains:save-config', project, config),
    },

    /** What changed at the last refresh: new, changed and gone orders. */
    changes: {
      get: (environment: EnvironmentId) => invoke('orders:changes', environment),
    },
    /** The service's deprecation notices; the link is opened by main, from what main read. */
    deprecations: {
      list: (environment: EnvironmentId) => invoke('deprecations:list', environment),
      dismiss: (environment: EnvironmentId, endpoint: StoreEndpoint) =>
        invoke('deprecations:dismiss', environment, endpoint),
      openLink: (environment: EnvironmentId, endpoint: StoreEndpoint) =>
        invoke('deprecations:open-link', environment, endpoint),
    },
    /** Where the app's updates come from (Settings). */
    updates: {
      settings: () => invoke('updates:settings'),
      setAddress: (address: string) => invoke('updates:set-address', address),
    },
    /** The domains main re-checks by itself. */
    domainWatch: {
      list: (project: ProjectId) => invoke('domains:watch', project),
    },
    events: {
      onQuotaChanged: (listener: (payload: EventPayloads['quota:changed']) => void) =>
        on('quota:changed', listener),
      onConnectivityChanged: (listener: (payload: EventPayloads['connectivity:changed']) => void) =>
        on('connectivity:changed', listener),
      onOrdersProgress: (listener: (payload: EventPayloads['orders:progress']) => void) =>
        on('orders:progress', listener),
      onKeysChanged: (listener: (payload: EventPayloads['keys:changed']) => void) =>
        on('keys:changed', listener),
      onBulkCancelChanged: (listener: (payload: EventPayloads['bulk-cancel:changed']) => void) =>
        on('bulk-cancel:changed', listener),
      onStorageChanged: (listener: (payload: EventPayloads['storage:changed']) => void) =>
        on('storage:changed', listener),
      onDeprecationsChanged: (listener: (payload: EventPayloads['deprecations:changed']) => void) =>
        on('deprecations:changed', listener),
      onDomainWatchChanged: (listener: (payload: EventPayloads['domains:watch-changed']) => void) =>
        on('domains:watch-changed', listener),
      /** A notification was clicked: show what it was about. */
      onShow: (listener: (payload: EventPayloads['app:show']) => void) => on('app:show', listener),
      /** A command chosen in the application menu (find, refresh, a screen, the palette…). */
      onAppCommand: (listener: (payload: EventPayloads['app:command']) => void) =>
        on('app:command', listener),
      /** The machine woke or the network came back: look again at once (timers slept). */
      onAwake: (listener: (payload: EventPayloads['app:awake']) => void) =>
        on('app:awake', listener),
    },
  };
}

export type StoreAdminApi = ReturnType<typeof createApi>;
