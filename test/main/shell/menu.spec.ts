// The application menu and the text-field context menu, as templates.

import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { buildAppMenu, buildContextMenu } from '../../../src/main/desktop/menu.ts';

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

const actions = { openLogsFolder: vi.fn(), showAbout: vi.fn(), checkForUpdates: vi.fn() };

describe('the application menu', () => {
  it('has Edit, View, Window and Help, and no Reload or developer tools when packaged', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const menu = buildAppMenu({ platform, isPackaged: true, ...actions });
      expect(roles(submenu(menu, 'Edit'))).toEqual(
        expect.arrayContaining(['cut', 'copy', 'paste', 'selectAll']),
      );
      expect(roles(submenu(menu, 'View'))).toEqual([
        'resetZoom',
        'zoomIn',
        'zoomOut',
        'togglefullscreen',
      ]);
      expect(submenu(menu, 'Window').length).toBeGreaterThan(0);
      expect(labels(submenu(menu, 'help'))).toEqual([
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
  });

  it('has the app menu first on macOS, and Quit under File elsewhere', () => {
    const mac = buildAppMenu({ platform: 'darwin', isPackaged: true, ...actions });
    expect(mac[0]?.label).toBe('Store Admin');
    expect(roles(submenu(mac, 'Store Admin'))).toContain('quit');
    const windows = buildAppMenu({ platform: 'win32', isPackaged: true, ...actions });
    expect(windows[0]?.label).toBe('File');
    expect(roles(submenu(windows, 'File'))).toEqual(['quit']);
  });

  it('checks for updates, opens the logs folder and the About box from Help', () => {
    const menu = buildAppMenu({ platform: 'linux', isPackaged: true, ...actions });
    for (const item of submenu(menu, 'help')) (item.click as () => void)();
    expect(actions.checkForUpdates).toHaveBeenCalledTimes(1);
    expect(actions.openLogsFolder).toHaveBeenCalledTimes(1);
    expect(actions.showAbout).toHaveBeenCalledTimes(1);
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
