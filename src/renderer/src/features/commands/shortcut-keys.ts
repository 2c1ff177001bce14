// The keys of the app's commands (src/shared/app-commands.ts) as the page
// meets them: which command a key press is, and how a key is written for the
// clerk ("Ctrl+K", or "⌘K" on a Mac). Keys are Electron accelerators, so the
// menu shows the same ones.

import { APP_COMMANDS, COMMAND_KEYS, type AppCommand } from '../../../../shared/app-commands.ts';

/** What a key press carries that the keys are matched on (a KeyboardEvent has it). */
export interface KeyPress {
  readonly key: string;
  readonly code?: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
}

export function isMacPlatform(platform: string): boolean {
  return /^mac/i.test(platform);
}

/** Whether the key press is `accelerator` (e.g. "CmdOrCtrl+F", "F5", "/"). */
export function matchesKey(press: KeyPress, accelerator: string, mac: boolean): boolean {
  const parts = accelerator.split('+');
  const key = parts.pop() ?? '';
  const wants = { ctrl: false, meta: false, alt: false, shift: false };
  for (const part of parts) {
    if (part === 'CmdOrCtrl') wants[mac ? 'meta' : 'ctrl'] = true;
    else if (part === 'Ctrl') wants.ctrl = true;
    else if (part === 'Cmd') wants.meta = true;
    else if (part === 'Alt') wants.alt = true;
    else if (part === 'Shift') wants.shift = true;
  }
  if (press.ctrlKey !== wants.ctrl || press.metaKey !== wants.meta || press.altKey !== wants.alt)
    return false;
  // Shift is part of typing some characters ("/" is Shift+7 on a German keyboard): only a key that names it must have it.
  if (wants.shift && !press.shiftKey) return false;
  if (press.key.toLowerCase() === key.toLowerCase()) return true;
  // Digits by their place, whatever the layout types there (Ctrl+1 on an AZERTY keyboard is Ctrl+&).
  return /^\d$/.test(key) && press.code === `Digit${key}`;
}

/** The command a key press runs, if any. */
export function commandOfKey(press: KeyPress, mac: boolean): AppCommand | undefined {
  return APP_COMMANDS.find((command) =>
    COMMAND_KEYS[command].keys.some((key) => matchesKey(press, key, mac)),
  );
}

const MAC_SYMBOLS: Readonly<Record<string, string>> = {
  CmdOrCtrl: '⌘',
  Cmd: '⌘',
  Ctrl: '⌃',
  Alt: '⌥',
  Shift: '⇧',
};

/** A key as the clerk reads it: "Ctrl+Shift+K" elsewhere, "⇧⌘K" on a Mac. */
export function keyText(accelerator: string, mac: boolean): string {
  const parts = accelerator.split('+');
  const key = parts.pop() ?? '';
  const named = key === 'Plus' ? '+' : key.length === 1 ? key.toUpperCase() : key;
  if (mac) return `${parts.map((part) => MAC_SYMBOLS[part] ?? part).join('')}${named}`;
  return [
    ...parts.map((part) => (part === 'CmdOrCtrl' || part === 'Cmd' ? 'Ctrl' : part)),
    named,
  ].join('+');
}

/** Whether the focus is where typing goes (a field), so a plain key like "/" is the field's. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(
    target.type,
  );
}
