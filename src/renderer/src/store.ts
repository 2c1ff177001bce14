// The renderer's one bound store, built from the typed slices of the features.
// It is created per API (App makes one), so each window, and each test, gets
// its own state. Nothing is persisted: keys and orders live in the main process.

import { createStore, type StateCreator, type StoreApi } from 'zustand';
import type { StoreAdminApi } from '../../shared/api.ts';
import type { OrderStreams } from '../../shared/order-stream.ts';
import {
  createConnectivitySlice,
  type ConnectivitySlice,
} from './features/connectivity/connectivity-slice.ts';
import { createDomainsSlice, type DomainsSlice } from './features/domains/domains-slice.ts';
import {
  createBulkCancelSlice,
  type BulkCancelSlice,
} from './features/bulk-cancel/bulk-cancel-slice.ts';
import {
  createEnvironmentsSlice,
  type EnvironmentsSlice,
} from './features/environments/environments-slice.ts';
import {
  createNavigationSlice,
  type NavigationSlice,
} from './features/navigation/navigation-slice.ts';
import { createOrdersSlice, type OrdersSlice } from './features/orders/orders-slice.ts';
import { createQuotaSlice, type QuotaSlice } from './features/quota/quota-slice.ts';
import { createSettingsSlice, type SettingsSlice } from './features/settings/settings-slice.ts';
import { createChangesSlice, type ChangesSlice } from './features/changes/changes-slice.ts';
import {
  createDeprecationsSlice,
  type DeprecationsSlice,
} from './features/notices/deprecations-slice.ts';
import {
  createDomainWatchSlice,
  type DomainWatchSlice,
} from './features/domains/domain-watch-slice.ts';

export type StoreState = EnvironmentsSlice &
  NavigationSlice &
  SettingsSlice &
  OrdersSlice &
  QuotaSlice &
  ConnectivitySlice &
  DomainsSlice &
  BulkCancelSlice &
  ChangesSlice &
  DeprecationsSlice &
  DomainWatchSlice;

/** A slice sees the whole store (to read and to call other slices' actions) and the API. */
export type SliceCreator<Slice> = (api: StoreAdminApi) => StateCreator<StoreState, [], [], Slice>;

export type AppStore = StoreApi<StoreState>;

/** `orderStreams`: where order lists arrive as columns (the page's ports; a test's own delivery). */
export function createAppStore(api: StoreAdminApi, orderStreams: OrderStreams): AppStore {
  return createStore<StoreState>()((...args) => ({
    ...createEnvironmentsSlice(api)(...args),
    ...createNavigationSlice(api)(...args),
    ...createSettingsSlice(api)(...args),
    ...createOrdersSlice(orderStreams)(api)(...args),
    ...createQuotaSlice(api)(...args),
    ...createConnectivitySlice(api)(...args),
    ...createDomainsSlice(api)(...args),
    ...createBulkCancelSlice(api)(...args),
    ...createChangesSlice(api)(...args),
    ...createDeprecationsSlice(api)(...args),
    ...createDomainWatchSlice(api)(...args),
  }));
}

/**
 * Feeds what the main process pushes into the store. Returns the unsubscribe,
 * for an effect's cleanup.
 */
export function connectEvents(api: StoreAdminApi, store: AppStore): () => void {
  const state = store.getState;
  const unsubscribes = [
    api.events.onQuotaChanged(({ environment, quota }) => state().applyQuota(environment, quota)),
    api.events.onConnectivityChanged((payload) => state().applyConnectivity(payload)),
    api.events.onOrdersProgress((payload) => state().applyOrdersProgress(payload)),
    api.events.onKeysChanged(({ environment, status }) => {
      state().applyKeyStatus(status);
      state().forgetKeyFailures(environment);
    }),
    api.events.onBulkCancelChanged((payload) => state().applyBulkCancel(payload)),
    api.events.onStorageChanged(({ problem }) => state().applyStorageProblem(problem)),
    api.events.onDeprecationsChanged((payload) => state().applyDeprecations(payload)),
    api.events.onDomainWatchChanged((payload) => state().applyDomainWatch(payload)),
    api.events.onShow((show) => {
      if (show.screen === 'domains') {
        state().chooseDomainProject(show.project);
        state().showDomains();
      } else {
        void state().selectEnvironment(show.environment);
        state().showOrders();
      }
    }),
    api.events.onAwake(() => void state().awake()),
  ];
  // The page's own word that the network is back (Chromium's), beside main's.
  const online = () => void state().awake();
  globalThis.addEventListener?.('online', online);
  return () => {
    unsubscribes.forEach((unsubscribe) => unsubscribe());
    globalThis.removeEventListener?.('online', online);
  };
}
