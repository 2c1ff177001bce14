// The selected order in full, in the side panel beside the grid: every field
// (the ship date in local time and as sent), what this computer knows from
// cancels, the way to cancel it, and the clerk's local review mark and note.

import {
  useEffect,
  useId,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import { MAX_NOTE_LENGTH, type ReviewMark } from '../../../../shared/orders-local.ts';
import { formatClock, formatCount, formatDateTime, formatMoment } from '../../format.ts';
import { useNow } from '../../components/use-now.ts';
import { useAppStore } from '../../store-context.tsx';
import { ChangeNote, changedClass, WasValue } from '../changes/changed-fields.tsx';
import { useChangeLookup } from '../changes/use-changes.ts';
import type { OrderTable } from './table/order-table.ts';
import { MISSING } from './orders-grid.tsx';
import { canStillCancel, ROW_STATUS_WORDS, statusOf, type RowStatus } from './row-status.ts';
import { WaitingButton } from '../../components/waiting-button.tsx';

export interface OrderDetailsProps {
  readonly environment: EnvironmentId;
  readonly table: OrderTable;
  /** The selected row, if any. */
  readonly row: number | undefined;
  /** Whether the selected row is in the current view. */
  readonly inView: boolean;
  readonly statuses: ReadonlyMap<string, RowStatus>;
  readonly cancelBlocked: string | undefined;
  readonly cancelBlockedId: string;
  readonly headingRef: RefObject<HTMLHeadingElement | null>;
  /** Counts up each time the details are asked for (Enter in the list): the heading then takes the focus. */
  readonly focusRequest: number;
  /** Escape: back to the list. */
  readonly onLeave: () => void;
  /** Closes the panel, giving the grid the width. */
  readonly onClose: () => void;
}

export function OrderDetails(props: OrderDetailsProps) {
  const { environment, table, row, statuses, cancelBlocked } = props;
  const headingId = useId();
  const askToCancel = useAppStore((state) => state.askToCancel);
  const id = row === undefined ? undefined : table.idAt(row);
  const mark = useAppStore((state) =>
    id === undefined ? undefined : state.orders[environment]?.marks[id],
  );

  const changes = useChangeLookup(environment);
  // "(09:12)" becomes "(21 Nov 09:12)" once the day has turned.
  const now = useNow(60_000);
  const { headingRef, focusRequest } = props;
  useEffect(() => {
    if (focusRequest > 0) headingRef.current?.focus();
  }, [focusRequest, headingRef]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    props.onLeave();
  };

  const head = (title: string) => (
    <div className="side-panel-head">
      <h3 id={headingId} ref={headingRef} tabIndex={-1}>
        {title}
      </h3>
      <button
        type="button"
        className="small-button"
        aria-label="Close order details"
        onClick={props.onClose}
      >
        Close
      </button>
    </div>
  );

  if (row === undefined) {
    return (
      // eslint-disable-next-line jsx-a11y-x/no-noninteractive-element-interactions -- Escape from any control inside goes back to the list
      <aside aria-labelledby={headingId} className="side-panel order-details" onKeyDown={onKeyDown}>
        {head('Order details')}
        <p className="muted">Select an order in the list to see its details here.</p>
      </aside>
    );
  }

  const order = table.orderAt(row);
  const status = statusOf(statuses, id, order.complete);
  const cancellable = id !== undefined && canStillCancel(status);
  const complete = order.complete;
  const changed = changes?.changedOf(row);

  return (
    // eslint-disable-next-line jsx-a11y-x/no-noninteractive-element-interactions -- Escape from any control inside goes back to the list
    <aside aria-labelledby={headingId} className="side-panel order-details" onKeyDown={onKeyDown}>
      {head(id === undefined ? 'Order without an ID' : `Order ${id}`)}
      {!props.inView && (
        <p className="note">This order is not in the list as searched and filtered now.</p>
      )}
      {changes && (
        <ChangeNote
          mark={changes.markOf(row)}
          since={formatMoment(changes.view.summary.since, now)}
        />
      )}
      <dl className="order-facts">
        <dt>Order ID</dt>
        <dd className="numeric-text">{order.id ?? MISSING}</dd>
        <dt>Pet ID</dt>
        <dd className={changedClass(changed, 'petId', 'numeric-text')}>
          {order.petId ?? MISSING}
          <WasValue changed={changed} field="petId" />
        </dd>
        <dt>Quantity</dt>
        <dd className={changedClass(changed, 'quantity')}>
          {order.quantity === undefined ? MISSING : formatCount(order.quantity)}
          <WasValue changed={changed} field="quantity" />
        </dd>
        <dt>Ship date</dt>
        <dd className={changedClass(changed, 'shipDate')}>
          {order.shipDate ? (
            <>
              <time dateTime={order.shipDate}>{formatDateTime(order.shipDate)}</time>
              <br />
              <span className="mono muted">{order.shipDate}</span>
            </>
          ) : (
            MISSING
          )}
          <WasValue changed={changed} field="shipDate" />
        </dd>
        <dt>Complete</dt>
        <dd className={changedClass(changed, 'complete')}>
          {complete === undefined ? MISSING : complete ? 'Yes' : 'No'}
          <WasValue changed={changed} field="complete" />
        </dd>
        <dt>Status</dt>
        <dd>
          {status
            ? ROW_STATUS_WORDS[status]
            : // The list has no status: only whether the order is complete (and so shipped). One
              // not complete may still have shipped; its cancel's answer (409) says so.
              complete === false
              ? 'Not complete (a cancel says if it has shipped)'
              : 'Not known (a cancel says if it has shipped)'}
        </dd>
      </dl>

      {cancellable && id !== undefined && (
        <div className="details-actions">
          <WaitingButton
            className="danger-button"
            aria-keyshortcuts="Delete"
            waitsFor={cancelBlocked}
            reasonId={props.cancelBlockedId}
            onPress={() => askToCancel(environment, id)}
          >
            Cancel order {id}…
          </WaitingButton>
        </div>
      )}

      {id === undefined ? (
        <p className="muted">An order without an ID cannot be marked or cancelled.</p>
      ) : (
        // A new form per order: a draft never carries over to another order.
        <ReviewForm
          key={`${environment}:${id}`}
          environment={environment}
          orderId={id}
          mark={mark}
        />
      )}
    </aside>
  );
}

function ReviewForm({
  environment,
  orderId,
  mark,
}: {
  environment: EnvironmentId;
  orderId: string;
  mark: ReviewMark | undefined;
}) {
  const saveReviewMark = useAppStore((state) => state.saveReviewMark);
  const [reviewed, setReviewed] = useState(mark?.reviewed ?? false);
  const [note, setNote] = useState(mark?.note ?? '');
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | undefined>();
  const headingId = useId();
  const localId = useId();
  const noteId = useId();
  const countId = useId();
  const changed = reviewed !== (mark?.reviewed ?? false) || note !== (mark?.note ?? '');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    const result = await saveReviewMark(environment, orderId, { reviewed, note });
    setSaving(false);
    setOutcome(
      result.ok
        ? { tone: 'success', text: `Saved on this computer at ${formatClock(Date.now())}.` }
        : { tone: 'error', text: `Not saved: ${result.error.message}` },
    );
  };

  return (
    <form
      className="review-form"
      aria-labelledby={headingId}
      aria-describedby={localId}
      onSubmit={(event) => void onSubmit(event)}
    >
      <h4 id={headingId}>Review mark</h4>
      <p id={localId} className="local-note">
        Only on this computer — not sent to the store service.
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={reviewed}
          onChange={(event) => setReviewed(event.target.checked)}
        />
        Reviewed
      </label>
      <label htmlFor={noteId}>Note</label>
      <textarea
        id={noteId}
        value={note}
        maxLength={MAX_NOTE_LENGTH}
        rows={3}
        aria-describedby={countId}
        onChange={(event) => setNote(event.target.value.slice(0, MAX_NOTE_LENGTH))}
      />
      <p id={countId} className="hint">
        {formatCount(note.length)} of {formatCount(MAX_NOTE_LENGTH)} characters
      </p>
      <div className="field-row">
        <button type="submit" aria-disabled={saving || undefined}>
          {saving ? 'Saving…' : 'Save review mark'}
        </button>
        {changed && !saving && <span className="muted">Not saved yet</span>}
      </div>
      <p
        role="status"
        className={outcome ? `form-outcome form-outcome-${outcome.tone}` : 'form-outcome'}
      >
        {outcome?.text}
      </p>
    </form>
  );
}
