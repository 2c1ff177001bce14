// Where the window's commands come in and go out: the keys the clerk presses
// (the page takes them first, so the menu's accelerators never run a command
// twice), the application menu's `app:command` events, and the command
// palette and shortcuts help it opens. Nothing runs while a dialog is open:
// a decision on screen keeps the keys.

import { useEffect, useState, type ReactNode } from 'react';
import { isAppCommand } from '../../../../shared/app-commands.ts';
import type { EventPayloads } from '../../../../shared/ipc-contract.ts';
import { useAppStore } from '../../store-context.tsx';
import { CommandPalette } from './command-palette.tsx';
import {
  CommandProvider,
  createCommandRegistry,
  useCommandHandler,
  useCommands,
  type CommandName,
} from './command-registry.tsx';
import { commandOfKey, isMacPlatform, isTypingTarget } from './shortcut-keys.ts';
import { ShortcutsHelp } from './shortcuts-help.tsx';
import './commands.css';

/** Commands the orders screen runs: asked for elsewhere, they open it first. */
const ORDERS_COMMANDS: ReadonlySet<CommandName> = new Set([
  'find',
  'export-view',
  'toggle-cancel-log',
  'go-to-order',
  'open-order',
]);

export interface CommandCenterProps {
  /** The application menu's commands (main's `app:command` event); none in a plain browser. */
  readonly onMenuCommand?: (
    listener: (payload: EventPayloads['app:command']) => void,
  ) => () => void;
  readonly children: ReactNode;
}

function modalOpen(): boolean {
  return document.querySelector('dialog[open], [aria-modal="true"]') !== null;
}

function platform(): string {
  const data = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData;
  return data?.platform ?? navigator.platform;
}

export function CommandCenter({ onMenuCommand, children }: CommandCenterProps) {
  const showOrders = useAppStore((state) => state.showOrders);
  const [registry] = useState(() =>
    createCommandRegistry((command) => {
      if (!ORDERS_COMMANDS.has(command)) return false;
      showOrders();
      return true;
    }),
  );
  const [mac] = useState(() => isMacPlatform(platform()));

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || modalOpen()) return;
      const command = commandOfKey(event, mac);
      if (!command) return;
      // "/" is typed into fields; with Ctrl or Cmd a key is a command wherever the focus is.
      if (event.key === '/' && !event.ctrlKey && !event.metaKey && isTypingTarget(event.target))
        return;
      event.preventDefault();
      registry.run(command);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [registry, mac]);

  useEffect(
    () =>
      onMenuCommand?.(({ command }) => {
        if (isAppCommand(command) && !modalOpen()) registry.run(command);
      }),
    [onMenuCommand, registry],
  );

  return (
    <CommandProvider registry={registry}>
      <WindowCommands mac={mac} />
      {children}
    </CommandProvider>
  );
}

/** The commands the window runs itself, and the palette and help they open. */
function WindowCommands({ mac }: { mac: boolean }) {
  const [open, setOpen] = useState<'palette' | 'help' | undefined>();
  const active = useAppStore((state) => state.activeEnvironment);
  const showOrders = useAppStore((state) => state.showOrders);
  const showDomains = useAppStore((state) => state.showDomains);
  const showSettings = useAppStore((state) => state.showSettings);
  const refreshOrders = useAppStore((state) => state.refreshOrders);
  const registry = useCommands();

  useCommandHandler('show-orders', showOrders);
  useCommandHandler('show-domains', showDomains);
  useCommandHandler('show-settings', () => showSettings());
  useCommandHandler('refresh', () => void refreshOrders(active));
  useCommandHandler('command-palette', () => setOpen('palette'));
  useCommandHandler('shortcuts-help', () => setOpen('help'));

  return (
    <>
      {open === 'palette' && (
        <CommandPalette
          mac={mac}
          onClose={() => setOpen(undefined)}
          onRun={(command, argument) => registry.run(command, argument)}
        />
      )}
      {open === 'help' && <ShortcutsHelp mac={mac} onClose={() => setOpen(undefined)} />}
    </>
  );
}
