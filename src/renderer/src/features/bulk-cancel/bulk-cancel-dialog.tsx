// Asks before a bulk cancel, naming the count and the environment
// (production in words and colour).

import type { RefObject } from 'react';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { EnvironmentBand, EnvironmentTag } from '../environments/environment-band.tsx';
import { ENVIRONMENT_NAMES } from '../environments/environment-words.ts';

export function BulkCancelDialog({
  fallbackFocus,
}: {
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const flow = useAppStore((state) => state.bulkFlow);
  const dismiss = useAppStore((state) => state.dismissBulkCancel);
  const confirm = useAppStore((state) => state.confirmBulkCancel);
  if (flow.step !== 'confirm' && flow.step !== 'starting') return null;
  const { environment, orderIds } = flow;
  const count = formatCount(orderIds.length);
  const production = environment === 'production';
  return (
    <ConfirmDialog
      title={`Cancel ${count} orders?`}
      keepLabel="Keep the orders"
      confirmLabel={`Cancel ${count} orders`}
      busyLabel="Starting…"
      progress="Starting…"
      onConfirm={() => void confirm()}
      onDismiss={dismiss}
      tone={production ? 'danger' : 'neutral'}
      busy={flow.step === 'starting'}
      {...(fallbackFocus ? { fallbackFocus } : {})}
    >
      <EnvironmentBand environment={environment} />
      <p>
        This asks the{' '}
        <EnvironmentTag environment={environment}>{ENVIRONMENT_NAMES[environment]}</EnvironmentTag>{' '}
        store service to cancel <strong>{count} orders</strong>
        {production ? ', real customer orders' : ''}. Cancels cannot be undone. Orders that have
        already shipped cannot be cancelled; they are reported as such.
      </p>
      <p>
        Store Admin sends them at the pace your quota allows, keeping some requests free for your
        own work, so the key is never rate-limited. You can pause or stop at any time; if Store
        Admin closes, it carries on where it was.
      </p>
    </ConfirmDialog>
  );
}
