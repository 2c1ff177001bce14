// The order list of each environment (the first rows of the last successful
// refresh, with the count), the download in progress, and the cancel flow.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import type { CancelOutcomeView, EventPayloads } from '../../../../shared/ipc-contract.ts';
import type { Order } from '../../../../shared/order.ts';
import { parseOrders } from '../../../../shared/parse-orders.ts';
import type { SliceCreator } from '../../store.ts';

/** Rows the simple table shows; the whole list stays in the main process's answer. */
export const SHOWN_ORDERS = 200;

export interface OrderListSummary {
  /** The first SHOWN_ORDERS orders, in the order the service sent them. */
  readonly shown: readonly Order[];
  readonly total: number;
  /** Epoch ms of the answer. */
  readonly receivedAt: number;
  readonly bytes: number;
}

export type OrdersLoad =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading'; readonly receivedBytes: number; readonly totalBytes?: number }
  | { readonly kind: 'failed'; readonly failure: Failure };

export interface EnvironmentOrders {
  /** The last successful refresh, kept while a new one runs or after it fails. */
  readonly list?: OrderListSummary;
  readonly load: OrdersLoad;
  /** Ids the service confirmed cancelled since that refresh. */
  readonly cancelledIds: readonly string[];
}

interface CancelTarget {
  readonly environment: EnvironmentId;
  readonly orderId: string;
}

/** The cancel flow, one step at a time: asking, sending, then what came back. */
export type CancelFlow =
  | { readonly step: 'idle' }
  | ({ readonly step: 'confirm' } & CancelTarget)
  | ({ readonly step: 'sending' } & CancelTarget)
  | ({ readonly step: 'answered'; readonly outcome: CancelOutcomeView } & CancelTarget)
  | ({ readonly step: 'failed'; readonly failure: Failure } & CancelTarget);

export interface OrdersSlice {
  readonly orders: Partial<Record<EnvironmentId, EnvironmentOrders>>;
  readonly cancelFlow: CancelFlow;
  refreshOrders(environment: EnvironmentId): Promise<void>;
  applyOrdersProgress(payload: EventPayloads['orders:progress']): void;
  askToCancel(environment: EnvironmentId, orderId: string): void;
  dismissCancel(): void;
  confirmCancel(): Promise<void>;
}

const EMPTY: EnvironmentOrders = { load: { kind: 'idle' }, cancelledIds: [] };

export const createOrdersSlice: SliceCreator<OrdersSlice> = (api) => (set, get) => {
  const update = (environment: EnvironmentId, change: Partial<EnvironmentOrders>) => {
    const current = get().orders[environment] ?? EMPTY;
    set({ orders: { ...get().orders, [environment]: { ...current, ...change } } });
  };

  return {
    orders: {},
    cancelFlow: { step: 'idle' },

    async refreshOrders(environment) {
      if (get().orders[environment]?.load.kind === 'loading') return;
      update(environment, { load: { kind: 'loading', receivedBytes: 0 } });
      const result = await api.orders.list(environment);
      if (!result.ok) {
        update(environment, { load: { kind: 'failed', failure: result.error } });
        return;
      }
      const { body, receivedAt, bytes } = result.value;
      const orders = parseOrders(body);
      update(environment, {
        list: { shown: orders.slice(0, SHOWN_ORDERS), total: orders.length, receivedAt, bytes },
        load: { kind: 'idle' },
        cancelledIds: [],
      });
    },

    applyOrdersProgress({ environment, receivedBytes, totalBytes }) {
      if (get().orders[environment]?.load.kind !== 'loading') return;
      update(environment, {
        load:
          totalBytes === undefined
            ? { kind: 'loading', receivedBytes }
            : { kind: 'loading', receivedBytes, totalBytes },
      });
    },

    askToCancel(environment, orderId) {
      if (get().cancelFlow.step === 'sending') return;
      set({ cancelFlow: { step: 'confirm', environment, orderId } });
    },

    dismissCancel() {
      // A cancel already sent cannot be called back; its answer is still shown.
      if (get().cancelFlow.step === 'sending') return;
      set({ cancelFlow: { step: 'idle' } });
    },

    async confirmCancel() {
      const flow = get().cancelFlow;
      if (flow.step !== 'confirm') return;
      const { environment, orderId } = flow;
      set({ cancelFlow: { step: 'sending', environment, orderId } });
      const result = await api.orders.cancel(environment, orderId);
      if (!result.ok) {
        set({ cancelFlow: { step: 'failed', environment, orderId, failure: result.error } });
        return;
      }
      const outcome: CancelOutcomeView = { kind: result.value.kind, message: result.value.message };
      set({ cancelFlow: { step: 'answered', environment, orderId, outcome } });
      // Only a confirmed cancel marks the row; "not found" and "shipped" leave it as it was.
      if (outcome.kind === 'cancelled') {
        const current = get().orders[environment] ?? EMPTY;
        update(environment, { cancelledIds: [...current.cancelledIds, orderId] });
      }
    },
  };
};
