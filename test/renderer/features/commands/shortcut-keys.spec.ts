// The keys of the window's commands: which command a key press is (Cmd on a
// Mac, Ctrl elsewhere; digits by their place on any layout), how a key is
// written for the clerk, the palette's entries, and a command that waits for
// its screen (on an injected clock).

import { describe, expect, it, vi } from 'vitest';
import { APP_COMMANDS, COMMAND_KEYS } from '../../../../src/shared/app-commands.ts';
import {
  entryMatches,
  paletteEntries,
  typedOrderId,
} from '../../../../src/renderer/src/features/commands/command-palette.tsx';
import { createCommandRegistry } from '../../../../src/renderer/src/features/commands/command-registry.tsx';
import {
  commandOfKey,
  isMacPlatform,
  keyText,
  matchesKey,
  type KeyPress,
} from '../../../../src/renderer/src/features/commands/shortcut-keys.ts';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('which command a key press is', () => {
  it('reads CmdOrCtrl as Ctrl elsewhere and Cmd on a Mac', () => {
    expect(commandOfKey(press('k', { ctrlKey: true }), false)).toBe('command-palette');
    expect(commandOfKey(press('k', { metaKey: true }), false)).toBeUndefined();
    expect(commandOfKey(press('k', { metaKey: true }), true)).toBe('command-palette');
    expect(commandOfKey(press('k', { ctrlKey: true }), true)).toBeUndefined();
    expect(commandOfKey(press('K', { ctrlKey: true, shiftKey: true }), false)).toBe(
      'command-palette',
    );
  });

  it('knows the keys a desktop clerk tries first', () => {
    const mac = false;
    expect(commandOfKey(press('f', { ctrlKey: true }), mac)).toBe('find');
    expect(commandOfKey(press('/'), mac)).toBe('find');
    expect(commandOfKey(press('F5'), mac)).toBe('refresh');
    expect(commandOfKey(press('r', { ctrlKey: true }), mac)).toBe('refresh');
    expect(commandOfKey(press('1', { ctrlKey: true, code: 'Digit1' }), mac)).toBe('show-orders');
    expect(commandOfKey(press('2', { ctrlKey: true, code: 'Digit2' }), mac)).toBe('show-domains');
    expect(commandOfKey(press('3', { ctrlKey: true, code: 'Digit3' }), mac)).toBe('show-settings');
    expect(commandOfKey(press('/', { ctrlKey: true }), mac)).toBe('shortcuts-help');
    // Plain letters, Alt combinations and other Ctrl keys are the page's.
    expect(commandOfKey(press('f'), mac)).toBeUndefined();
    expect(commandOfKey(press('f', { ctrlKey: true, altKey: true }), mac)).toBeUndefined();
    expect(commandOfKey(press('c', { ctrlKey: true }), mac)).toBeUndefined();
    expect(commandOfKey(press('4', { ctrlKey: true, code: 'Digit4' }), mac)).toBeUndefined();
  });

  it('finds the digits by their place on any layout, and "/" however it is typed', () => {
    // Ctrl+1 on an AZERTY keyboard types "&".
    expect(commandOfKey(press('&', { ctrlKey: true, code: 'Digit1' }), false)).toBe('show-orders');
    // "/" is Shift+7 on a German keyboard.
    expect(commandOfKey(press('/', { shiftKey: true, code: 'Digit7' }), false)).toBe('find');
    expect(matchesKey(press('K', { ctrlKey: true }), 'CmdOrCtrl+Shift+K', false)).toBe(false);
  });

  it('gives each key to one command only', () => {
    const keys = APP_COMMANDS.flatMap((command) => COMMAND_KEYS[command].keys);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('writes keys as the clerk reads them', () => {
    expect(keyText('CmdOrCtrl+K', false)).toBe('Ctrl+K');
    expect(keyText('CmdOrCtrl+K', true)).toBe('⌘K');
    expect(keyText('CmdOrCtrl+Shift+K', true)).toBe('⌘⇧K');
    expect(keyText('CmdOrCtrl+/', false)).toBe('Ctrl+/');
    expect(keyText('CmdOrCtrl+Plus', false)).toBe('Ctrl++');
    expect(keyText('F5', false)).toBe('F5');
    expect(keyText('Escape', true)).toBe('Escape');
    expect(isMacPlatform('MacIntel')).toBe(true);
    expect(isMacPlatform('macOS')).toBe(true);
    expect(isMacPlatform('Linux x86_64')).toBe(false);
  });
});

describe('the palette', () => {
  const context = {
    active: 'sandbox' as const,
    mac: false,
    hasOrder: (id: string) => (id === '42' ? true : false),
  };

  it('offers to go to an order typed as digits, first, saying whether the list has it', () => {
    expect(typedOrderId(' #42 ')).toBe('42');
    expect(typedOrderId('42a')).toBeUndefined();
    expect(typedOrderId('99999999999999999999')).toBeUndefined(); // past int64
    const [found] = paletteEntries('42', context);
    expect(found).toMatchObject({ label: 'Go to order 42', note: 'in the Sandbox list' });
    expect(found?.unavailable).toBeUndefined();
    const [missing] = paletteEntries('7', context);
    expect(missing).toMatchObject({
      label: 'Go to order 7',
      unavailable: 'not in the Sandbox list',
    });
    const [noList] = paletteEntries('7', { ...context, hasOrder: () => undefined });
    expect(noList?.unavailable).toBe('no Sandbox list yet');
  });

  it('finds commands by the start of their words, and marks the environment in use', () => {
    const labels = (text: string) => paletteEntries(text, context).map((entry) => entry.label);
    expect(labels('csv')).toEqual(['Export the list shown as CSV']);
    expect(labels('switch prod')).toEqual(['Switch to Production — live']);
    expect(labels('zzz')).toEqual([]);
    expect(labels('')).toHaveLength(APP_COMMANDS.length - 1 + 3);
    const sandbox = paletteEntries('sandbox', context)[0];
    expect(sandbox).toMatchObject({ label: 'Switch to Sandbox', unavailable: 'in use now' });
    expect(entryMatches(sandbox!, 'san')).toBe(true);
    expect(entryMatches(sandbox!, 'box')).toBe(false);
  });

  it('shows each command with its first key', () => {
    const refresh = paletteEntries('refresh', context)[0];
    expect(refresh?.keys).toBe('Ctrl+R');
    expect(paletteEntries('refresh', { ...context, mac: true })[0]?.keys).toBe('⌘R');
  });
});

describe('a command whose screen is not shown', () => {
  it('brings the screen up and runs once its handler is there', () => {
    const now = 1_000;
    const bringUp = vi.fn((command: string) => command === 'find');
    const registry = createCommandRegistry(bringUp, () => now);
    const find = vi.fn();

    registry.run('find');
    expect(bringUp).toHaveBeenCalledWith('find');
    registry.register('find', find);
    expect(find).toHaveBeenCalledTimes(1);

    // Once it is there, it runs at once, and registering again does not run it twice.
    registry.run('find');
    expect(find).toHaveBeenCalledTimes(2);
    registry.register('find', find);
    expect(find).toHaveBeenCalledTimes(2);
    expect(bringUp).toHaveBeenCalledTimes(1);
  });

  it('forgets a command whose screen came too late or that another command replaced', () => {
    let now = 1_000;
    const registry = createCommandRegistry(
      () => true,
      () => now,
    );
    const find = vi.fn();
    registry.run('find');
    now += 2_001;
    registry.register('find', find)();
    expect(find).not.toHaveBeenCalled();

    const exported = vi.fn();
    registry.run('export-view');
    registry.run('find');
    registry.register('export-view', exported);
    expect(exported).not.toHaveBeenCalled();
    // Nothing brings up a screen for a command nobody runs.
    const none = createCommandRegistry(() => false);
    none.run('refresh');
    const refresh = vi.fn();
    none.register('refresh', refresh);
    expect(refresh).not.toHaveBeenCalled();
  });
});
