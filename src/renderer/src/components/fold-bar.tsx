// A bar of one line (the header, a toolbar) that folds what does not fit into
// a "More" panel instead of cutting it off, as zoom or a narrow window leaves
// less room: the items fold one by one in a given order and come back as room
// returns. Each item is rendered once, in the bar or in the panel, so it keeps
// its own semantics and keys. The panel is a disclosure (a button and the
// group it shows), reached with Tab; Escape or a click elsewhere closes it,
// and so does choosing an action in it.
//
// Room is measured in the layout effect, before paint: an overflowing bar
// folds its next item; a bar with spare room (its width less what its items
// take) takes back the last folded one when that item's last measured width
// fits.

import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import './fold-bar.css';
import { useCloseOnPointerOutside } from './popover.tsx';

/** Room kept spare before a folded item comes back, so a bar at the edge does not flip. */
const SLACK_PX = 8;

export interface Fold<K extends string> {
  /** The bar's `ref`: the element whose one line the items share. */
  readonly attach: (element: HTMLElement | null) => void;
  readonly isFolded: (key: K) => boolean;
  readonly anyFolded: boolean;
}

/**
 * Which of `order`'s items are folded (the first ones first). In the bar,
 * each foldable item's element carries `data-fold="<key>"`, the element
 * that takes the spare room (if any) `data-fold-spacer`, and the More button
 * `data-fold-more`.
 */
export function useFold<K extends string>(items: readonly K[]): Fold<K> {
  // One order per set of items, however often the caller builds the list.
  const itemsKey = items.join(' ');
  const order = useMemo(() => itemsKey.split(' ').filter(Boolean), [itemsKey]);
  const [count, setCount] = useState(0);
  // Items whose panel (Filters, Columns) was open at the last measure: the clerk is using
  // them, so the bar folds the next ones instead (folding one would close its panel).
  const [held, setHeld] = useState<readonly string[]>([]);
  const foldable = useMemo(() => order.filter((key) => !held.includes(key)), [order, held]);
  const [bar, setBar] = useState<HTMLElement | null>(null);
  const widths = useRef(new Map<string, number>());
  // Bounded steps per change of size, so content that changes with its place cannot loop.
  const steps = useRef(0);

  const measure = useCallback(() => {
    if (!bar) return;
    const open: string[] = [];
    for (const item of bar.querySelectorAll<HTMLElement>(':scope > [data-fold]')) {
      const key = item.dataset['fold'] ?? '';
      widths.current.set(key, item.getBoundingClientRect().width);
      if (item.querySelector('[aria-expanded="true"]')) open.push(key);
    }
    if (open.join(' ') !== held.join(' ')) {
      setHeld(open);
      return;
    }
    if (steps.current > foldable.length * 2 + 4) return;
    // Its items' own boxes, not its scroll width: an open panel of one of them (Filters,
    // Columns), placed over the screen, is no reason to fold that item and close it.
    const items = [...bar.children] as HTMLElement[];
    const end =
      bar.getBoundingClientRect().right - (parseFloat(getComputedStyle(bar).paddingRight) || 0);
    const overflowing = items.some((item) => item.getBoundingClientRect().right > end + 0.5);
    if (overflowing) {
      if (count < foldable.length) {
        steps.current++;
        setCount(count + 1);
      }
      return;
    }
    if (count === 0) return;
    const last = widths.current.get(foldable[count - 1]!);
    if (last === undefined) return;
    const gap = parseFloat(getComputedStyle(bar).columnGap) || 0;
    const more = bar.querySelector<HTMLElement>(':scope > [data-fold-more]');
    const spare =
      freeRoom(bar, end) +
      // The last folded item coming back takes the More button away.
      (count === 1 && more ? more.getBoundingClientRect().width + gap : 0);
    if (last + gap + SLACK_PX <= spare) {
      steps.current++;
      setCount(count - 1);
    }
  }, [bar, count, foldable, held]);

  // After every render, before paint: what was drawn may no longer fit (a longer text, a new item).
  // Measuring and then setting state here is what a layout effect is for: the fold shows in the same frame.
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useLayoutEffect(measure);

  useEffect(() => {
    if (!bar || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => {
      steps.current = 0;
      measure();
    });
    observer.observe(bar);
    for (const child of bar.children) observer.observe(child);
    return () => observer.disconnect();
  }, [bar, measure, count]);

  const folded = new Set<string>(foldable.slice(0, count));
  return {
    attach: setBar,
    isFolded: (key) => folded.has(key),
    anyFolded: count > 0,
  };
}

/**
 * The bar's room that no item takes: its inner width less the span from its
 * first item's left edge to its last one's right edge, plus what the spacer
 * holds. Read from the bar's own box, so it is right whether the spacer grows
 * or a stylesheet keeps it at nothing (the items then pack to one side, the
 * room after them); an item's own margins count as taken.
 */
function freeRoom(bar: HTMLElement, end: number): number {
  const style = getComputedStyle(bar);
  const start = bar.getBoundingClientRect().left + (parseFloat(style.paddingLeft) || 0);
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let spacer = 0;
  for (const item of bar.children as HTMLCollectionOf<HTMLElement>) {
    // Out of the line (a visually hidden live region) or not drawn: it takes no room.
    const position = getComputedStyle(item).position;
    if (position === 'absolute' || position === 'fixed') continue;
    const box = item.getBoundingClientRect();
    if ('foldSpacer' in item.dataset) spacer = box.width;
    if (box.width === 0 && box.height === 0 && !('foldSpacer' in item.dataset)) continue;
    left = Math.min(left, box.left);
    right = Math.max(right, box.right);
  }
  if (!Number.isFinite(left)) return end - start;
  return end - start - (right - left) + spacer;
}

export interface MoreMenuProps {
  /** The button's and the panel's name, starting with the button's words: "More of the header". */
  readonly label: string;
  /** The button's words. */
  readonly button?: string;
  readonly className?: string;
  /** What is folded, rendered only while the panel is open. */
  readonly children: ReactNode;
}

/** The button that opens what a bar folded, and the panel it shows (at the bar's end, right-aligned). */
export function MoreMenu({ label, button = 'More', className, children }: MoreMenuProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useCloseOnPointerOutside(open, rootRef, () => setOpen(false));

  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) buttonRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    close(true);
  };

  // An action chosen in the panel (not a toggle that opens more, nor anything in a panel it opened) closes it.
  const onPanelClick = (event: MouseEvent<HTMLDivElement>) => {
    const target = event.target instanceof Element ? event.target : null;
    const action = target?.closest('button:not([aria-expanded]), input[type="radio"]');
    if (!action || action.closest('.popover-panel, .more-menu-panel') !== event.currentTarget)
      return;
    // The action's own handler has run; the focus waits on the More button (a dialog it opened takes it from there).
    close(true);
  };

  return (
    // eslint-disable-next-line jsx-a11y-x/no-static-element-interactions -- Escape from the button or the panel inside closes it
    <div
      ref={rootRef}
      className={['more-menu', className].filter(Boolean).join(' ')}
      data-fold-more=""
      onKeyDown={onKeyDown}
    >
      <button
        ref={buttonRef}
        type="button"
        className="more-menu-button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={label}
        onClick={() => setOpen(!open)}
      >
        {button}
        <span aria-hidden="true" className="more-menu-caret">
          ▾
        </span>
      </button>
      {/* eslint-disable-next-line jsx-a11y-x/click-events-have-key-events, jsx-a11y-x/no-noninteractive-element-interactions -- the click only closes the panel after an action, which keys reach the same way */}
      <div
        id={panelId}
        className="more-menu-panel popover-panel"
        role="group"
        aria-label={label}
        tabIndex={-1}
        hidden={!open}
        onClick={onPanelClick}
      >
        {open && children}
      </div>
    </div>
  );
}
