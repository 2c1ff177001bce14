// Asks before an order is cancelled, naming the order and the environment
// (production in words and colour), and stays open while the request runs.

import type { RefObject } from 'react';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { formatDateTime } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { EnvironmentBand, EnvironmentTag } from '../environments/environment-band.tsx';
import { ENVIRONMENT_NAMES } from '../environments/environment-words.ts';

export function CancelOrderDialog({
  fallbackFocus,
}: {
  fallbackFocus: RefObject<HTMLElement | null>;
}) {
  const flow = useAppStore((state) => state.cancelFlow);
  const dismissCancel = useAppStore((state) => state.dismissCancel);
  const confirmCancel = useAppStore((state) => state.confirmCancel);
  const table = useAppStore((state) =>
    flow.step === 'idle' ? undefined : state.orders[flow.environment]?.list?.table,
  );

  if (flow.step !== 'confirm' && flow.step !== 'sending') return null;
  const { environment, orderId } = flow;
  const row = table?.rowOfId(orderId);
  const order = row === undefined ? undefined : table?.orderAt(row);
  const production = environment === 'production';

  return (
    <ConfirmDialog
      title={`Cancel order ${orderId}?`}
      keepLabel="Keep the order"
      confirmLabel={`Cancel order ${orderId}`}
      busyLabel="Cancelling…"
      progress={`Cancelling order ${orderId}…`}
      onConfirm={() => void confirmCancel()}
      onDismiss={dismissCancel}
      fallbackFocus={fallbackFocus}
      tone={production ? 'danger' : 'neutral'}
      busy={flow.step === 'sending'}
    >
      <EnvironmentBand environment={environment} />
      <p>
        This asks the{' '}
        <EnvironmentTag environment={environment}>{ENVIRONMENT_NAMES[environment]}</EnvironmentTag>{' '}
        store service to cancel order <strong className="numeric-text">{orderId}</strong>
        {production ? ', a real customer order' : ''}. Only pending orders can be cancelled, and a
        cancel cannot be undone.
      </p>
      {order && (
        <dl className="order-facts">
          <dt>Pet ID</dt>
          <dd className="numeric-text">{order.petId ?? 'not given'}</dd>
          <dt>Quantity</dt>
          <dd>{order.quantity ?? 'not given'}</dd>
          <dt>Ship date</dt>
          <dd>{order.shipDate ? formatDateTime(order.shipDate) : 'not given'}</dd>
        </dl>
      )}
    </ConfirmDialog>
  );
}
