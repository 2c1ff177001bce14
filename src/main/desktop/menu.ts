// The application menu and the text-field context menu, as plain templates:
// Electron's default menu would ship Reload and the developer tools. The
// app's own commands (find, refresh, the screens, the palette) show their
// keys as accelerators and are sent to the page, which runs them; the page
// handles the same keys itself first (a key it takes never reaches the menu),
// so a command runs once whichever way it came.

import type { MenuItemConstructorOptions } from 'electron';
import { COMMAND_KEYS, type AppCommand } from '../../shared/app-commands.ts';
import { PRODUCT_NAME } from './app-identity.ts';

export interface AppMenuOptions {
  readonly platform: NodeJS.Platform;
  /** Reload and the developer tools are offered only in development. */
  readonly isPackaged: boolean;
  readonly openLogsFolder: () => void;
  readonly showAbout: () => void;
  /** Help > Check for Updates (see src/main/updates). */
  readonly checkForUpdates: () => void;
  /** Sends a command to the page (the `app:command` event). */
  readonly sendCommand: (command: AppCommand) => void;
  /** Steps the window's zoom (see nextZoomFactor: never past 200%). */
  readonly zoom: (change: 'in' | 'out' | 'reset') => void;
}

export function buildAppMenu(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const about: MenuItemConstructorOptions = {
    label: `About ${PRODUCT_NAME}`,
    click: options.showAbout,
  };
  const command = (id: AppCommand, label = COMMAND_KEYS[id].label): MenuItemConstructorOptions => {
    const [accelerator] = COMMAND_KEYS[id].keys;
    return {
      label,
      ...(accelerator ? { accelerator } : {}),
      click: () => options.sendCommand(id),
    };
  };
  // Ctrl+R refreshes the list, so the page's own reload (development only) takes another key.
  const developer: MenuItemConstructorOptions[] = options.isPackaged
    ? []
    : [
        { role: 'reload', accelerator: 'Alt+CmdOrCtrl+R' },
        { role: 'forceReload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
      ];
  const zoom = (
    label: string,
    change: 'in' | 'out' | 'reset',
    accelerator: string,
    visible = true,
  ): MenuItemConstructorOptions => ({
    label,
    accelerator,
    visible,
    click: () => options.zoom(change),
  });
  return [
    ...(mac
      ? [
          {
            label: PRODUCT_NAME,
            submenu: [
              about,
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    {
      label: 'File',
      submenu: [
        command('export-view', 'Export the list shown as CSV…'),
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit', label: 'Quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
        { type: 'separator' },
        command('find', 'Find an order…'),
      ],
    },
    {
      label: 'View',
      submenu: [
        command('show-orders'),
        command('show-domains'),
        command('show-settings'),
        { type: 'separator' },
        command('refresh'),
        command('toggle-cancel-log'),
        command('command-palette'),
        { type: 'separator' },
        ...developer,
        zoom('Actual Size', 'reset', 'CmdOrCtrl+0'),
        zoom('Zoom In', 'in', 'CmdOrCtrl+Plus'),
        // Ctrl+= is Zoom In on keyboards where + needs Shift; not shown twice.
        zoom('Zoom In', 'in', 'CmdOrCtrl+=', false),
        zoom('Zoom Out', 'out', 'CmdOrCtrl+-'),
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: 'Window',
      submenu: mac
        ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
        : [{ role: 'minimize' }, { role: 'close' }],
    },
    {
      role: 'help',
      submenu: [
        command('shortcuts-help'),
        { type: 'separator' },
        { label: 'Check for Updates…', click: options.checkForUpdates },
        { label: 'Open logs folder', click: options.openLogsFolder },
        about,
      ],
    },
  ];
}

/** What the menu needs of Electron's context-menu parameters. */
export interface ContextMenuParams {
  readonly isEditable: boolean;
  readonly selectionText: string;
  readonly editFlags: {
    readonly canCut: boolean;
    readonly canCopy: boolean;
    readonly canPaste: boolean;
    readonly canSelectAll: boolean;
  };
}

/** Cut, Copy, Paste in text fields (clerks paste API keys); Copy on selected text; nothing elsewhere. */
export function buildContextMenu(params: ContextMenuParams): MenuItemConstructorOptions[] {
  if (params.isEditable) {
    return [
      { role: 'cut', enabled: params.editFlags.canCut },
      { role: 'copy', enabled: params.editFlags.canCopy },
      { role: 'paste', enabled: params.editFlags.canPaste },
      { type: 'separator' },
      { role: 'selectAll', enabled: params.editFlags.canSelectAll },
    ];
  }
  if (params.selectionText.trim() !== '') return [{ role: 'copy' }];
  return [];
}
