// The shortcuts help (Ctrl+/): every key the window answers, from the same
// table the menu's accelerators come from, then the keys of the list and of
// the fields, which belong to them and have no menu item.

import { COMMAND_KEYS, type AppCommand } from '../../../../shared/app-commands.ts';
import { Dialog } from '../../components/dialog.tsx';
import { keyText } from './shortcut-keys.ts';

const WINDOW_COMMANDS: readonly AppCommand[] = [
  'command-palette',
  'find',
  'refresh',
  'show-orders',
  'show-domains',
  'show-settings',
  'shortcuts-help',
];

/** Keys that belong to a part of the window: what they do, and the keys, as Electron writes them. */
const PART_KEYS: readonly {
  readonly section: string;
  readonly rows: readonly [string, string[]][];
}[] = [
  {
    section: 'In the search field',
    rows: [
      ['Open the order whose ID is typed in full', ['Enter']],
      ['Clear the search', ['Escape']],
    ],
  },
  {
    section: 'In the list of orders',
    rows: [
      ['Move between orders', ['Up', 'Down', 'PageUp', 'PageDown', 'Home', 'End']],
      ['Tick or untick the order', ['Space']],
      ['Open the order’s details', ['Enter']],
      ['The order’s menu: copy, details, cancel', ['ContextMenu', 'Shift+F10']],
    ],
  },
  {
    section: 'Zoom (View menu)',
    rows: [
      ['Zoom in, up to 200%', ['CmdOrCtrl+Plus']],
      ['Zoom out', ['CmdOrCtrl+-']],
      ['Actual size', ['CmdOrCtrl+0']],
    ],
  },
];

const KEY_NAMES: Readonly<Record<string, string>> = {
  Up: '↑',
  Down: '↓',
  PageUp: 'Page Up',
  PageDown: 'Page Down',
  ContextMenu: 'Menu key',
};

function Keys({ keys, mac }: { keys: readonly string[]; mac: boolean }) {
  return (
    <>
      {keys.map((key, index) => (
        <span key={key}>
          {index > 0 && <span className="shortcut-or"> or </span>}
          <kbd>{KEY_NAMES[key] ?? keyText(key, mac)}</kbd>
        </span>
      ))}
    </>
  );
}

export function ShortcutsHelp({ mac, onClose }: { mac: boolean; onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" onDismiss={onClose}>
      {/* A region of its own, reached with Tab, so the keys scroll from the keyboard too. */}
      {/* eslint-disable-next-line jsx-a11y-x/no-noninteractive-tabindex -- a scrolling region takes the focus to scroll */}
      <div className="shortcuts" role="region" aria-label="Shortcuts" tabIndex={0}>
        <table className="shortcuts-table">
          <caption>Anywhere in the window</caption>
          <tbody>
            {WINDOW_COMMANDS.map((command) => (
              <tr key={command}>
                <th scope="row">{COMMAND_KEYS[command].label}</th>
                <td>
                  <Keys keys={COMMAND_KEYS[command].keys} mac={mac} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {PART_KEYS.map(({ section, rows }) => (
          <table key={section} className="shortcuts-table">
            <caption>{section}</caption>
            <tbody>
              {rows.map(([what, keys]) => (
                <tr key={what}>
                  <th scope="row">{what}</th>
                  <td>
                    <Keys keys={keys} mac={mac} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
