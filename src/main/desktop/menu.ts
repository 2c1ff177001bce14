// The application menu and the text-field context menu, as plain templates:
// Electron's default menu would ship Reload and the developer tools.

import type { MenuItemConstructorOptions } from 'electron';
import { PRODUCT_NAME } from './app-identity.ts';

export interface AppMenuOptions {
  readonly platform: NodeJS.Platform;
  /** Reload and the developer tools are offered only in development. */
  readonly isPackaged: boolean;
  readonly openLogsFolder: () => void;
  readonly showAbout: () => void;
  /** Help > Check for Updates (see src/main/updates). */
  readonly checkForUpdates: () => void;
}

export function buildAppMenu(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const about: MenuItemConstructorOptions = {
    label: `About ${PRODUCT_NAME}`,
    click: options.showAbout,
  };
  const developer: MenuItemConstructorOptions[] = options.isPackaged
    ? []
    : [
        { role: 'reload' },
        { role: 'forceReload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
      ];
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
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit', label: 'Quit' }] },
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
      ],
    },
    {
      label: 'View',
      submenu: [
        ...developer,
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
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
