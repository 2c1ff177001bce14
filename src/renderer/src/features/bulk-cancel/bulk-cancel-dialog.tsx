// Asks before a bulk cancel, naming the count and the environment
// (production in words and colour).

import { useRef, type RefObject } from 'react';
import { Dialog } from '../../components/dialog.tsx';
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
  const keepRef = useRef<HTMLButtonElement>(null);
  if (flow.step !== 'confirm' && flow.step !== 'starting') return null;
  const { environment, orderIds } = flow;
  const count = orderIds.length.toLocaleString();
  const starting = flow.step === 'starting';
  const production = environment === 'production';
  return (
    <Dialog
      title={`Cancel ${count} orders?`}
      onDismiss={dismiss}
      initialFocus={keepRef}
      {...(fallbackFocus ? { fallbackFocus } : {})}
      tone={production ? 'danger' : 'neutral'}
      busy={starting}
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
      <p role="status" aria-live="polite" className="dialog-progress">
        {starting ? 'Starting…' : ''}
      </p>
      <div className="dialog-actions">
        <button type="button" ref={keepRef} onClick={dismiss} aria-disabled={starting || undefined}>
          Keep the orders
        </button>
        <button
          type="button"
          className="danger-button"
          onClick={() => void confirm()}
          aria-disabled={starting || undefined}
        >
          {starting ? 'Starting…' : `Cancel ${count} orders`}
        </button>
      </div>
    </Dialog>
  );
}
