// Who runs each command. A command comes from a key, the application menu or
// the command palette, and is run by whichever part of the window can: the
// window itself (screens, refresh, the palette) or the screen that shows
// what it works on (the search field for Find, the orders screen for Export).
// Such a part registers its handler while it is shown; a command whose part
// is not shown goes to the screen that has it and runs once that screen is up.

import { createContext, useContext, useEffect, useEffectEvent, type ReactNode } from 'react';
import type { AppCommand } from '../../../../shared/app-commands.ts';

/**
 * The app's commands; "go to order" (the palette's: the list searched for
 * that id, its details open) and "open order" (Enter on an id typed in full
 * in the search field: its details open), each with the order's id.
 */
export type CommandName = AppCommand | 'go-to-order' | 'open-order';
type Handler = (argument?: string) => void;

/** How long a command waits for its screen to come up, in ms. */
const PENDING_MS = 2_000;

export interface CommandRegistry {
  run(command: CommandName, argument?: string): void;
  /** Returns the unregister. */
  register(command: CommandName, handler: Handler): () => void;
}

/**
 * `bringUp` shows the screen that handles a command nobody handles now
 * (false when none does); the command then waits for its handler.
 */
export function createCommandRegistry(
  bringUp: (command: CommandName) => boolean,
  now: () => number = Date.now,
): CommandRegistry {
  const handlers = new Map<CommandName, Handler>();
  let pending: { command: CommandName; argument?: string; until: number } | undefined;
  return {
    run(command, argument) {
      pending = undefined;
      const handler = handlers.get(command);
      if (handler) {
        handler(argument);
        return;
      }
      if (bringUp(command)) pending = { command, argument, until: now() + PENDING_MS };
    },
    register(command, handler) {
      handlers.set(command, handler);
      const waiting = pending;
      if (waiting?.command === command) {
        pending = undefined;
        if (now() <= waiting.until) handler(waiting.argument);
      }
      return () => {
        if (handlers.get(command) === handler) handlers.delete(command);
      };
    },
  };
}

const CommandContext = createContext<CommandRegistry | undefined>(undefined);

export function CommandProvider({
  registry,
  children,
}: {
  registry: CommandRegistry;
  children: ReactNode;
}) {
  return <CommandContext value={registry}>{children}</CommandContext>;
}

const NO_COMMANDS: CommandRegistry = { run: () => undefined, register: () => () => undefined };

/** The window's commands (none outside a <CommandProvider>, as in a test of one part). */
export function useCommands(): CommandRegistry {
  return useContext(CommandContext) ?? NO_COMMANDS;
}

/** Runs `handler` for `command` while the component is shown (the latest handler, each time). */
export function useCommandHandler(command: CommandName, handler: Handler): void {
  const registry = useContext(CommandContext);
  const onCommand = useEffectEvent(handler);
  useEffect(
    () => registry?.register(command, (argument) => onCommand(argument)),
    [registry, command],
  );
}
