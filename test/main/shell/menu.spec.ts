// The application menu and the text-field context menu, as templates; the
// zoom steps the View menu takes.

import type { MenuItemConstructorOptions } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildAppMenu, buildContextMenu } from '../../../src/main/desktop/menu.ts';
import {
  APP_COMMANDS,
  COMMAND_KEYS,
  nextZoomFactor,
  ZOOM_FACTORS,
} from '../../../src/shared/app-commands.ts';

function roles(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    ...(item.role ? [item.role] : []),
    ...(Array.isArray(item.submenu) ? roles(item.submenu) : []),
  ]);
}

function labels(items: MenuItemConstructorOptions[]): string[] {
  return items.flatMap((item) => [
    ...(item.label ? [item.label] : []),
    ...(Array.isArray(item.submenu) ? labels(item.submenu) : []),
  ]);
}

function submenu(items: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions[] {
  const found = items.find((item) => item.label === label || item.role === label);
  if (!found || !Array.isArray(found.submenu)) throw new Error(`no ${label} menu`);
  return found.submenu;
}

const actions = {
  openLogsFolder: vi.fn(),
  showAbout: vi.fn(),
  checkForUpdates: vi.fn(),
  sendCommand: vi.fn(),
  zoom: vi.fn(),
};
beforeEach(() => vi.clearAllMocks());

/** Every item with a label, across the submenus, visible or not. */
function items(menu: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return menu.flatMap((item) => [
    item,
    ...(Array.isArray(item.submenu) ? items(item.submenu) : []),
  ]);
}

const click = (item: MenuItemConstructorOptions | undefined) =>
  (item?.click as (() => void) | undefined)?.();

describe('the application menu', () => {
  it('has Edit, View, Window and Help, and no Reload or developer tools when packaged', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const menu = buildAppMenu({ platform, isPackaged: true, ...actions });
      expect(roles(submenu(menu, 'Edit'))).toEqual(
        expect.arrayContaining(['cut', 'copy', 'paste', 'selectAll']),
      );
      // Zoom is the app's own steps (up to 200%), not Electron's roles, which go on to 500%.
      expect(roles(submenu(menu, 'View'))).toEqual(['togglefullscreen']);
      expect(labels(submenu(menu, 'View'))).toEqual(
        expect.arrayContaining(['Actual Size', 'Zoom In', 'Zoom Out']),
      );
      expect(submenu(menu, 'Window').length).toBeGreaterThan(0);
      expect(labels(submenu(menu, 'help'))).toEqual([
        'Keyboard shortcuts',
        'Check for Updates…',
        'Open logs folder',
        'About Store Admin',
      ]);
      const everything = roles(menu);
      expect(everything).not.toContain('reload');
      expect(everything).not.toContain('forceReload');
      expect(everything).not.toContain('toggleDevTools');
    }
  });

  it('offers Reload and the developer tools in development only', () => {
    const menu = buildAppMenu({ platform: 'linux', isPackaged: false, ...actions });
    expect(roles(submenu(menu, 'View'))).toEqual(
      expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']),
    );
    // Ctrl+R is the list's Refresh; the page's reload takes another key.
    const reload = submenu(menu, 'View').find((item) => item.role === 'reload');
    expect(reload?.accelerator).not.toBe('CmdOrCtrl+R');
  });

  it('has the app menu first on macOS, and Quit under File elsewhere', () => {
    const mac = buildAppMenu({ platform: 'darwin', isPackaged: true, ...actions });
    expect(mac[0]?.label).toBe('Store Admin');
    expect(roles(submenu(mac, 'Store Admin'))).toContain('quit');
    const windows = buildAppMenu({ platform: 'win32', isPackaged: true, ...actions });
    expect(windows[0]?.label).toBe('File');
    expect(roles(submenu(windows, 'File'))).toEqual(['quit']);
  });

  it("shows every command's first key as its accelerator and sends the command to the page", () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const menu = items(buildAppMenu({ platform, isPackaged: true, ...actions }));
      for (const command of APP_COMMANDS) {
        actions.sendCommand.mockClear();
        const [key] = COMMAND_KEYS[command].keys;
        const item = menu.find(
          (candidate) =>
            candidate.click !== undefined &&
            (key === undefined
              ? candidate.label?.startsWith(COMMAND_KEYS[command].label)
              : candidate.accelerator === key),
        );
        expect(item, `${command} on ${platform}`).toBeDefined();
        click(item);
        expect(actions.sendCommand).toHaveBeenCalledExactlyOnceWith(command);
      }
      // No accelerator is claimed twice by visible items.
      const shown = menu.filter((item) => item.accelerator && item.visible !== false);
      const accelerators = shown.map((item) => String(item.accelerator));
      expect(new Set(accelerators).size).toBe(accelerators.length);
    }
    const view = submenu(buildAppMenu({ platform: 'linux', isPackaged: true, ...actions }), 'View');
    expect(view.filter((item) => item.label).map((item) => [item.label, item.accelerator])).toEqual(
      [
        ['Orders', 'CmdOrCtrl+1'],
        ['Domains', 'CmdOrCtrl+2'],
        ['Settings', 'CmdOrCtrl+3'],
        ['Refresh the list', 'CmdOrCtrl+R'],
        ['Cancel log', undefined],
        ['Command palette…', 'CmdOrCtrl+K'],
        ['Actual Size', 'CmdOrCtrl+0'],
        ['Zoom In', 'CmdOrCtrl+Plus'],
        ['Zoom In', 'CmdOrCtrl+='],
        ['Zoom Out', 'CmdOrCtrl+-'],
      ],
    );
  });

  it("steps the window's zoom from the View menu", () => {
    const view = submenu(buildAppMenu({ platform: 'linux', isPackaged: true, ...actions }), 'View');
    const byLabel = (label: string) => view.find((item) => item.label === label);
    click(byLabel('Zoom In'));
    click(byLabel('Zoom Out'));
    click(byLabel('Actual Size'));
    expect(actions.zoom.mock.calls).toEqual([['in'], ['out'], ['reset']]);
    // The hidden Ctrl+= item zooms in too.
    click(view.find((item) => item.accelerator === 'CmdOrCtrl+='));
    expect(actions.zoom).toHaveBeenLastCalledWith('in');
  });

  it('opens the shortcuts help, checks for updates, opens the logs folder and the About box from Help', () => {
    const menu = buildAppMenu({ platform: 'linux', isPackaged: true, ...actions });
    for (const item of submenu(menu, 'help')) click(item);
    expect(actions.sendCommand).toHaveBeenCalledExactlyOnceWith('shortcuts-help');
    expect(actions.checkForUpdates).toHaveBeenCalledTimes(1);
    expect(actions.openLogsFolder).toHaveBeenCalledTimes(1);
    expect(actions.showAbout).toHaveBeenCalledTimes(1);
  });
});

describe('the zoom steps', () => {
  it('go up to 200% and no further, down to 80%, and back to 100%', () => {
    const climbed: number[] = [];
    let factor = 1;
    for (let i = 0; i < 10; i++) climbed.push((factor = nextZoomFactor(factor, 'in')));
    expect(climbed).toEqual([1.1, 1.25, 1.5, 1.75, 2, 2, 2, 2, 2, 2]);
    const fell: number[] = [];
    for (let i = 0; i < 9; i++) fell.push((factor = nextZoomFactor(factor, 'out')));
    expect(fell).toEqual([1.75, 1.5, 1.25, 1.1, 1, 0.9, 0.8, 0.8, 0.8]);
    expect(nextZoomFactor(1.75, 'reset')).toBe(1);
    expect(Math.max(...ZOOM_FACTORS)).toBe(2);
  });

  it('take a factor set elsewhere to the next step, and one past 200% back to it', () => {
    expect(nextZoomFactor(1.3, 'in')).toBe(1.5);
    expect(nextZoomFactor(1.3, 'out')).toBe(1.25);
    expect(nextZoomFactor(1.0000001, 'in')).toBe(1.1);
    expect(nextZoomFactor(3, 'out')).toBe(2);
    expect(nextZoomFactor(3, 'in')).toBe(2);
  });
});

describe('the context menu', () => {
  const flags = { canCut: true, canCopy: true, canPaste: true, canSelectAll: true };

  it('offers Cut, Copy, Paste and Select all in a text field, enabled as the field allows', () => {
    const menu = buildContextMenu({
      isEditable: true,
      selectionText: '',
      editFlags: { ...flags, canCut: false, canCopy: false },
    });
    expect(menu.map((item) => [item.role ?? item.type, item.enabled])).toEqual([
      ['cut', false],
      ['copy', false],
      ['paste', true],
      ['separator', undefined],
      ['selectAll', true],
    ]);
  });

  it('offers Copy on selected text, and nothing on the rest of the page', () => {
    expect(
      buildContextMenu({ isEditable: false, selectionText: 'Order 42', editFlags: flags }).map(
        (item) => item.role,
      ),
    ).toEqual(['copy']);
    expect(buildContextMenu({ isEditable: false, selectionText: ' ', editFlags: flags })).toEqual(
      [],
    );
  });
});
