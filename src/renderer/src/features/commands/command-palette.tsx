// The command palette (Ctrl+K): one field that finds what the window can do.
// Typed digits offer to go to that order in the active environment's list;
// words find the screens, Refresh, Find, the cancel log, Export, the
// shortcuts help and the environments to switch to. A combobox over a list:
// the arrow keys move through the list, Enter runs the highlighted entry,
// Escape closes. The palette closes before the entry runs, so the focus
// lands where the entry puts it.

import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { COMMAND_KEYS, type AppCommand } from '../../../../shared/app-commands.ts';
import {
  ENVIRONMENT_IDS,
  ENVIRONMENT_LABELS,
  type EnvironmentId,
} from '../../../../shared/environments.ts';
import { isInt64Text } from '../../../../shared/order.ts';
import { Dialog } from '../../components/dialog.tsx';
import { useAppStore } from '../../store-context.tsx';
import type { CommandName } from './command-registry.tsx';
import { keyText } from './shortcut-keys.ts';

export interface PaletteEntry {
  readonly id: string;
  readonly label: string;
  /** The entry's key, as the clerk reads it. */
  readonly keys?: string;
  /** A few words after the label, e.g. "not in the Sandbox list". */
  readonly note?: string;
  /** Other words it is found by. */
  readonly keywords: string;
  /** Why it cannot run now (shown as its note); undefined when it can. */
  readonly unavailable?: string;
  readonly command: CommandName | { readonly environment: EnvironmentId };
  readonly argument?: string;
}

const COMMAND_ENTRIES: readonly { command: AppCommand; keywords: string }[] = [
  { command: 'show-orders', keywords: 'screen list grid go' },
  { command: 'show-domains', keywords: 'screen custom domain dns certificate go' },
  { command: 'show-settings', keywords: 'screen address key preferences go' },
  { command: 'refresh', keywords: 'reload download update orders' },
  { command: 'find', keywords: 'search id pet' },
  { command: 'toggle-cancel-log', keywords: 'cancelled history journal open' },
  { command: 'export-view', keywords: 'csv download save spreadsheet' },
  { command: 'shortcuts-help', keywords: 'keys keyboard help' },
];

/** The order id typed, when the text is one (a leading "#" allowed). */
export function typedOrderId(text: string): string | undefined {
  const digits = text.trim().replace(/^#/, '');
  return /^\d{1,20}$/.test(digits) && isInt64Text(digits) ? digits : undefined;
}

/** Whether every word typed starts a word of the entry (its label and keywords). */
export function entryMatches(entry: PaletteEntry, text: string): boolean {
  const words = `${entry.label} ${entry.keywords}`.toLowerCase().split(/[^a-z0-9]+/);
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((typed) => words.some((word) => word.startsWith(typed)));
}

export interface PaletteContext {
  readonly active: EnvironmentId;
  readonly mac: boolean;
  /** Whether the active list holds the order: undefined while there is no list. */
  readonly hasOrder: (id: string) => boolean | undefined;
}

/** What the palette lists for `text`, best first. */
export function paletteEntries(text: string, context: PaletteContext): PaletteEntry[] {
  const label = ENVIRONMENT_LABELS[context.active];
  const entries: PaletteEntry[] = [];
  const id = typedOrderId(text);
  if (id !== undefined) {
    const found = context.hasOrder(id);
    entries.push({
      id: 'go-to-order',
      label: `Go to order ${id}`,
      keywords: '',
      command: 'go-to-order',
      argument: id,
      ...(found === true
        ? { note: `in the ${label} list` }
        : {
            unavailable: found === undefined ? `no ${label} list yet` : `not in the ${label} list`,
          }),
    });
  }
  const others: PaletteEntry[] = [
    ...COMMAND_ENTRIES.map(({ command, keywords }): PaletteEntry => {
      const [key] = COMMAND_KEYS[command].keys;
      return {
        id: command,
        label: COMMAND_KEYS[command].label,
        keywords,
        command,
        ...(key ? { keys: keyText(key, context.mac) } : {}),
      };
    }),
    ...ENVIRONMENT_IDS.map((environment): PaletteEntry => ({
      id: `switch-${environment}`,
      label: `Switch to ${ENVIRONMENT_LABELS[environment]}${environment === 'production' ? ' — live' : ''}`,
      keywords: 'environment',
      command: { environment },
      ...(environment === context.active ? { unavailable: 'in use now' } : {}),
    })),
  ];
  const words = id === undefined ? text : '';
  return [...entries, ...others.filter((entry) => entryMatches(entry, words))];
}

export interface CommandPaletteProps {
  readonly mac: boolean;
  readonly onClose: () => void;
  readonly onRun: (command: CommandName, argument?: string) => void;
}

export function CommandPalette({ mac, onClose, onRun }: CommandPaletteProps) {
  const active = useAppStore((state) => state.activeEnvironment);
  const table = useAppStore((state) => state.orders[state.activeEnvironment]?.list?.table);
  const selectEnvironment = useAppStore((state) => state.selectEnvironment);
  const [text, setText] = useState('');
  const [highlighted, setHighlighted] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const hintId = useId();

  const entries = useMemo(
    () =>
      paletteEntries(text, {
        active,
        mac,
        hasOrder: (id) => (table ? table.rowOfId(id) !== undefined : undefined),
      }),
    [text, active, mac, table],
  );
  const at = Math.min(highlighted, Math.max(entries.length - 1, 0));
  const current = entries[at];

  const choose = (entry: PaletteEntry | undefined) => {
    if (!entry || entry.unavailable !== undefined) return;
    onClose();
    if (typeof entry.command === 'object') void selectEnvironment(entry.command.environment);
    else onRun(entry.command, entry.argument);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = entries.length - 1;
    const move: Record<string, number> = {
      ArrowDown: at >= last ? 0 : at + 1,
      ArrowUp: at <= 0 ? last : at - 1,
      PageDown: last,
      PageUp: 0,
    };
    if (event.key in move) {
      event.preventDefault();
      setHighlighted(Math.max(move[event.key]!, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(current);
    }
  };

  const optionId = (entry: PaletteEntry) => `${listId}-${entry.id}`;

  return (
    <Dialog title="Command palette" onDismiss={onClose} initialFocus={inputRef}>
      <div className="palette">
        <input
          ref={inputRef}
          type="text"
          role="combobox"
          className="palette-input"
          aria-label="Command or order ID"
          aria-describedby={hintId}
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current) : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder="Type a command, or an order ID to go to it"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setHighlighted(0);
          }}
          onKeyDown={onKeyDown}
        />
        <p id={hintId} className="palette-hint">
          ↑ ↓ to choose, Enter to run, Escape to close.
        </p>
        <ul id={listId} role="listbox" aria-label="Commands" className="palette-list">
          {entries.map((entry, index) => (
            // The field keeps the focus and the keys (aria-activedescendant); a click runs the entry.
            // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events
            <li
              key={entry.id}
              id={optionId(entry)}
              role="option"
              aria-selected={index === at}
              aria-disabled={entry.unavailable !== undefined || undefined}
              className="palette-option"
              onClick={() => choose(entry)}
              onPointerMove={() => index !== at && setHighlighted(index)}
            >
              <span className="palette-label">{entry.label}</span>
              {(entry.unavailable ?? entry.note) && (
                <span className="palette-note">{entry.unavailable ?? entry.note}</span>
              )}
              {entry.keys && <kbd className="palette-keys">{entry.keys}</kbd>}
            </li>
          ))}
          {entries.length === 0 && (
            <li role="option" aria-disabled="true" aria-selected="false" className="palette-none">
              Nothing matches “{text.trim()}”.
            </li>
          )}
        </ul>
      </div>
    </Dialog>
  );
}
