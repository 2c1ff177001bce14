// An order's own menu in the grid, on a right-click or the context-menu key
// (Shift+F10): copy its id, copy its row, open its details, and cancel it
// where it can still be cancelled. A menu of buttons: the arrow keys move
// between them, Enter runs one, Escape or Tab closes it and the focus goes
// back to the row.

import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { canStillCancel, statusOf, type RowStatus } from './row-status.ts';
import type { OrderTable } from './table/order-table.ts';
import { WaitingButton } from '../../components/waiting-button.tsx';

export interface RowMenuAt {
  /** The row's place in the view. */
  readonly position: number;
  /** Where it opens, in the window's coordinates. */
  readonly x: number;
  readonly y: number;
  readonly fromKeyboard?: boolean;
}

export interface RowMenuProps {
  readonly at: RowMenuAt;
  readonly table: OrderTable;
  /** The order's row in the table. */
  readonly row: number | undefined;
  readonly statuses: ReadonlyMap<string, RowStatus>;
  readonly cancelBlocked: string | undefined;
  readonly cancelBlockedId: string;
  readonly onOpenDetails: () => void;
  readonly onCancel: (orderId: string) => void;
  readonly onCopied: (message: string) => void;
  /** `focusRow`: the focus goes back to the row (Escape, Tab, a copy). */
  readonly onClose: (focusRow: boolean) => void;
}

/** The row as a spreadsheet takes it: its fields, tab-separated, the ship date as sent. */
export function rowText(table: OrderTable, row: number): string {
  const order = table.orderAt(row);
  return [
    order.id,
    order.petId,
    order.quantity,
    order.shipDate,
    order.complete === undefined ? undefined : order.complete ? 'Yes' : 'No',
  ]
    .map((value) => (value === undefined ? '' : String(value)))
    .join('\t');
}

export function RowMenu(props: RowMenuProps) {
  const { table, row, statuses, cancelBlocked } = props;
  const menuRef = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState({ left: props.at.x, top: props.at.y });
  const id = row === undefined ? undefined : table.idAt(row);
  // A complete order reads as shipped: the service refuses its cancel.
  const status = row === undefined ? undefined : statusOf(statuses, id, table.completeAt(row));
  const cancellable = id !== undefined && canStillCancel(status);

  // Inside the window, however near its edge the click was; the first item takes the focus.
  useLayoutEffect(() => {
    const menu = menuRef.current;
    if (!menu) return;
    const box = menu.getBoundingClientRect();
    const left = Math.max(4, Math.min(props.at.x, window.innerWidth - box.width - 4));
    const top = Math.max(4, Math.min(props.at.y, window.innerHeight - box.height - 4));
    if (left !== place.left || top !== place.top) setPlace({ left, top });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- placed once per opening
  }, [props.at]);
  useEffect(() => {
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [props.at]);

  const { onClose } = props;
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && !menuRef.current?.contains(event.target)) onClose(false);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, [onClose]);

  const copy = (text: string, said: string) => {
    props.onClose(true);
    navigator.clipboard.writeText(text).then(
      () => props.onCopied(said),
      () => props.onCopied('Store Admin could not copy to the clipboard.'),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => items[(index + items.length) % items.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        go(at + 1);
        break;
      case 'ArrowUp':
        go(at - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(items.length - 1);
        break;
      case 'Escape':
      case 'Tab':
        props.onClose(true);
        break;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  if (id === undefined || row === undefined) return null;
  return createPortal(
    <div
      ref={menuRef}
      role="menu"
      tabIndex={-1}
      aria-label={`Order ${id}`}
      className="row-menu"
      style={{ left: place.left, top: place.top }}
      onKeyDown={onKeyDown}
    >
      <button
        type="button"
        role="menuitem"
        tabIndex={-1}
        onClick={() => copy(id, `Copied order ID ${id}.`)}
      >
        Copy order ID
      </button>
      <button
        type="button"
        role="menuitem"
        tabIndex={-1}
        onClick={() => copy(rowText(table, row), `Copied order ${id}’s row (tab-separated).`)}
      >
        Copy row
      </button>
      <button
        type="button"
        role="menuitem"
        tabIndex={-1}
        onClick={() => {
          props.onClose(false);
          props.onOpenDetails();
        }}
      >
        Open details
      </button>
      {/* Only where the order can still be cancelled; its status chip in the row says why not. */}
      {cancellable && (
        <WaitingButton
          role="menuitem"
          tabIndex={-1}
          className="row-menu-danger"
          waitsFor={cancelBlocked}
          reasonId={props.cancelBlockedId}
          onPress={() => {
            props.onClose(false);
            props.onCancel(id);
          }}
        >
          Cancel order {id}…
        </WaitingButton>
      )}
    </div>,
    document.body,
  );
}
