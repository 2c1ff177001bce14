// The commands a clerk reaches from the keyboard, the menus and the command
// palette, declared once with their keys: main's menu shows each first key as
// its accelerator and sends the command to the page; the page runs the same
// keys itself and lists them in its shortcuts help, so the three cannot
// disagree. Keys are written as Electron accelerators ("CmdOrCtrl+F": Cmd on
// macOS, Ctrl elsewhere).

export const APP_COMMANDS = [
  'find',
  'refresh',
  'show-orders',
  'show-domains',
  'show-settings',
  'command-palette',
  'shortcuts-help',
  'toggle-cancel-log',
  'export-view',
] as const;
export type AppCommand = (typeof APP_COMMANDS)[number];

export interface CommandKeys {
  /** What the menu, the palette and the help call it. */
  readonly label: string;
  /** Every key that runs it; the first is the one the menu shows. */
  readonly keys: readonly string[];
}

export const COMMAND_KEYS: { readonly [C in AppCommand]: CommandKeys } = {
  find: { label: 'Find an order', keys: ['CmdOrCtrl+F', '/'] },
  refresh: { label: 'Refresh the list', keys: ['CmdOrCtrl+R', 'F5'] },
  'show-orders': { label: 'Orders', keys: ['CmdOrCtrl+1'] },
  'show-domains': { label: 'Domains', keys: ['CmdOrCtrl+2'] },
  'show-settings': { label: 'Settings', keys: ['CmdOrCtrl+3'] },
  'command-palette': { label: 'Command palette…', keys: ['CmdOrCtrl+K'] },
  'shortcuts-help': { label: 'Keyboard shortcuts', keys: ['CmdOrCtrl+/'] },
  'toggle-cancel-log': { label: 'Cancel log', keys: [] },
  'export-view': { label: 'Export the list shown as CSV', keys: [] },
};

export function isAppCommand(value: unknown): value is AppCommand {
  return typeof value === 'string' && (APP_COMMANDS as readonly string[]).includes(value);
}

/** The zoom factors the View menu steps through: up to 200%, where every control still fits at 1,100 px. */
export const ZOOM_FACTORS = [0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2] as const;

/** The next zoom factor from `current`, never past the ends of ZOOM_FACTORS. */
export function nextZoomFactor(current: number, change: 'in' | 'out' | 'reset'): number {
  if (change === 'reset') return 1;
  // A factor set elsewhere (between two steps) goes to the next step in that direction.
  const epsilon = 0.001;
  if (change === 'in') {
    return ZOOM_FACTORS.find((factor) => factor > current + epsilon) ?? ZOOM_FACTORS.at(-1)!;
  }
  return ZOOM_FACTORS.findLast((factor) => factor < current - epsilon) ?? ZOOM_FACTORS[0];
}
