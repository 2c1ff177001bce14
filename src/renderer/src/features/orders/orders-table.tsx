// A plain table of the first orders of the list. (A later milestone replaces
// it with a virtualized view of the whole list.)

import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import type { Order } from '../../../../shared/order.ts';
import { formatCount, formatDateTime } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';

export interface OrdersTableProps {
  readonly environment: EnvironmentId;
  readonly orders: readonly Order[];
  readonly total: number;
  readonly cancelledIds: readonly string[];
}

/** A field the service left out: a dash on screen, words for screen readers. */
const MISSING = (
  <span className="missing">
    <span aria-hidden="true">—</span>
    <span className="visually-hidden">not given</span>
  </span>
);

export function OrdersTable({ environment, orders, total, cancelledIds }: OrdersTableProps) {
  const askToCancel = useAppStore((state) => state.askToCancel);
  const cancelled = new Set(cancelledIds);

  return (
    <div className="table-wrap">
      <table className="orders-table">
        <caption>
          {ENVIRONMENT_LABELS[environment]} orders: showing {formatCount(orders.length)} of{' '}
          {formatCount(total)}
        </caption>
        <thead>
          <tr>
            <th scope="col">Order ID</th>
            <th scope="col">Pet ID</th>
            <th scope="col" className="numeric">
              Quantity
            </th>
            <th scope="col">Ship date</th>
            <th scope="col">Complete</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order, index) => (
            <tr key={`${index}:${order.id ?? ''}`}>
              <th scope="row" className="mono">
                {order.id ?? MISSING}
              </th>
              <td className="mono">{order.petId ?? MISSING}</td>
              <td className="numeric">{order.quantity ?? MISSING}</td>
              <td>
                {order.shipDate ? (
                  <time dateTime={order.shipDate} title={order.shipDate}>
                    {formatDateTime(order.shipDate)}
                  </time>
                ) : (
                  MISSING
                )}
              </td>
              <td>{order.complete === undefined ? MISSING : order.complete ? 'Yes' : 'No'}</td>
              <td>
                {order.id === undefined ? (
                  <span className="muted">No ID to cancel</span>
                ) : cancelled.has(order.id) ? (
                  <span className="cancelled-mark">Cancelled</span>
                ) : (
                  <button
                    type="button"
                    className="small-button"
                    aria-label={`Cancel order ${order.id}`}
                    onClick={() => order.id !== undefined && askToCancel(environment, order.id)}
                  >
                    Cancel…
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
