// Asks before a bulk cancel, naming the count and the environment
// (production in words and colour). When the orders sent differ from the
// ticks, it says what it leaves out and why (shipped, cancelled already, no
// longer there), and which ticked orders the search hides. More than
// PRODUCTION_TYPED_OVER orders in Production wait for the clerk to type the
// number. Sending the failed cancels of the last bulk cancel again asks the
// same way.

import { useId, useState, type RefObject } from 'react';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { TextField } from '../../components/text-field.tsx';
import { formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';
import { EnvironmentBand, EnvironmentTag } from '../environments/environment-band.tsx';
import { ENVIRONMENT_NAMES } from '../environments/environment-words.ts';
import type { LeftOutReason, TickedOrders } from './bulk-cancel-slice.ts';

/** Above this many orders, a bulk cancel in Production waits for the number to be typed. */
export const PRODUCTION_TYPED_OVER = 100;

/** "1 order", "1,234 orders". */
export function ordersWord(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'order' : 'orders'}`;
}

/** Why orders are left out, counted: "2 have already shipped". */
const LEFT_OUT_WORDS: Readonly<Record<LeftOutReason, (count: number) => string>> = {
  shipped: (n) => `${formatCount(n)} ${n === 1 ? 'has' : 'have'} already shipped`,
  cancelled: (n) => `${formatCount(n)} ${n === 1 ? 'was' : 'were'} cancelled from here already`,
  gone: (n) => `${formatCount(n)} ${n === 1 ? 'is' : 'are'} no longer in the service`,
  'no-id': (n) => `${formatCount(n)} ${n === 1 ? 'has' : 'have'} no ID`,
};
const REASONS: readonly LeftOutReason[] = ['shipped', 'cancelled', 'gone', 'no-id'];

/**
 * What the ticks hold besides the orders sent, in sentences; empty when the
 * orders sent are exactly the ticked ones, all shown.
 */
export function tickWords(ticks: TickedOrders, sent: number): string[] {
  const lines: string[] = [];
  const reasons = REASONS.filter((reason) => (ticks.leftOut[reason] ?? 0) > 0);
  const leftOut = ticks.ticked - sent;
  const why = reasons.map((reason) => LEFT_OUT_WORDS[reason](ticks.leftOut[reason]!));
  const ticked = `${ordersWord(ticks.ticked)} ticked`;
  if (leftOut > 0 && sent === 0) {
    lines.push(`None of the ${ticked} can be cancelled: ${why.join(', ')}.`);
  } else if (leftOut > 0 && why.length === 1) {
    lines.push(`Of the ${ticked}, ${why[0]!} and ${leftOut === 1 ? 'is' : 'are'} left out.`);
  } else if (leftOut > 0) {
    lines.push(`Of the ${ticked}, ${formatCount(leftOut)} are left out: ${why.join(', ')}.`);
  }
  if (ticks.notShown > 0 && sent > 0) {
    lines.push(
      ticks.notShown === 1
        ? 'One ticked order is not shown with the search and filters now; it is included.'
        : `${formatCount(ticks.notShown)} ticked orders are not shown with the search and filters now; they are included.`,
    );
  }
  return lines;
}

/** The digits typed, read whatever grouping the clerk used ("1,234", "1 234", "1234"). */
function typedCount(text: string): number | undefined {
  const digits = text.replace(/[\s.,'’_\u00a0\u202f]/g, '');
  return /^\d{1,9}$/.test(digits) ? Number(digits) : undefined;
}

export function BulkCancelDialog({
  fallbackFocus,
}: {
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const flow = useAppStore((state) => state.bulkFlow);
  const dismiss = useAppStore((state) => state.dismissBulkCancel);
  const confirm = useAppStore((state) => state.confirmBulkCancel);
  if (flow.step !== 'confirm' && flow.step !== 'starting') return null;
  const { environment, orderIds, ask } = flow;
  const props = {
    environment,
    count: orderIds.length,
    busy: flow.step === 'starting',
    onConfirm: () => void confirm(),
    onDismiss: dismiss,
    ...(fallbackFocus ? { fallbackFocus } : {}),
  };
  if (ask.kind === 'retry-failed') return <RetryFailedDialog {...props} />;
  if (orderIds.length === 0 && ask.ticks) return <NothingToCancel {...props} ticks={ask.ticks} />;
  // A new dialog per opening: nothing typed for one bulk cancel carries over to the next.
  return <TickedDialog key={orderIds.length} {...props} ticks={ask.ticks} />;
}

interface AskProps {
  readonly environment: EnvironmentId;
  readonly count: number;
  readonly busy: boolean;
  readonly onConfirm: () => void;
  readonly onDismiss: () => void;
  readonly fallbackFocus?: RefObject<HTMLElement | null>;
}

function TickedDialog({
  environment,
  count,
  ticks,
  ...rest
}: AskProps & { readonly ticks: TickedOrders | undefined }) {
  const production = environment === 'production';
  const mustType = production && count > PRODUCTION_TYPED_OVER;
  const [typed, setTyped] = useState('');
  const [tried, setTried] = useState(false);
  const typedId = useId();
  const matches = typedCount(typed) === count;
  const orders = ordersWord(count);
  return (
    <ConfirmDialog
      title={`Cancel ${orders}?`}
      keepLabel="Keep the orders"
      confirmLabel={`Cancel ${orders}`}
      busyLabel="Starting…"
      progress="Starting…"
      tone={production ? 'danger' : 'neutral'}
      confirmWaitsFor={mustType && !matches ? typedId : undefined}
      onConfirmWaiting={() => setTried(true)}
      {...rest}
    >
      <EnvironmentBand environment={environment} />
      <p>
        This asks the{' '}
        <EnvironmentTag environment={environment}>{ENVIRONMENT_NAMES[environment]}</EnvironmentTag>{' '}
        store service to cancel <strong>{orders}</strong>
        {production ? ', real customer orders' : ''}. Cancels cannot be undone. Orders that have
        already shipped cannot be cancelled; they are reported as such.
      </p>
      {ticks &&
        tickWords(ticks, count).map((line) => (
          <p key={line} className="dialog-note">
            {line}
          </p>
        ))}
      <p>
        Store Admin sends them at the pace your quota allows, keeping some requests free for your
        own work, so the key is never rate-limited. You can pause or stop at any time; if Store
        Admin closes, it carries on where it was.
      </p>
      {mustType && (
        <div id={typedId}>
          <TextField
            label={`To cancel ${orders} in Production, type the number: ${formatCount(count)}`}
            inputMode="numeric"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            message={
              tried && !matches
                ? { tone: 'error', text: `Type ${formatCount(count)} to cancel these orders.` }
                : undefined
            }
          />
        </div>
      )}
    </ConfirmDialog>
  );
}

function RetryFailedDialog({ environment, count, ...rest }: AskProps) {
  const orders = ordersWord(count);
  return (
    <ConfirmDialog
      title={`Send ${count === 1 ? 'the failed cancel' : `${formatCount(count)} failed cancels`} again?`}
      keepLabel="Leave them"
      confirmLabel={`Send ${count === 1 ? 'it' : `${formatCount(count)}`} again`}
      busyLabel="Starting…"
      progress="Starting…"
      tone={environment === 'production' ? 'danger' : 'neutral'}
      {...rest}
    >
      <EnvironmentBand environment={environment} />
      <p>
        The last bulk cancel could not cancel <strong>{orders}</strong> in{' '}
        <EnvironmentTag environment={environment}>{ENVIRONMENT_NAMES[environment]}</EnvironmentTag>:
        the service refused them, or answered with a problem. This asks it again for each, as a new
        bulk cancel at the pace your quota allows. Cancels cannot be undone.
      </p>
    </ConfirmDialog>
  );
}

function NothingToCancel({
  ticks,
  onDismiss,
  fallbackFocus,
}: AskProps & { readonly ticks: TickedOrders }) {
  return (
    <Dialog
      title="Nothing to cancel"
      onDismiss={onDismiss}
      {...(fallbackFocus ? { fallbackFocus } : {})}
    >
      {tickWords(ticks, 0).map((line) => (
        <p key={line}>{line}</p>
      ))}
      <div className="dialog-actions">
        <button type="button" onClick={onDismiss}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
