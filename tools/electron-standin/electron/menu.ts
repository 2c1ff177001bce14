// Electron's Menu and MenuItem (docs/api/menu.md, docs/api/menu-item.md):
// templates become menus whose items keep their label, role, accelerator and
// click. No native menu is drawn; a test clicks an item through the control
// channel by its labels (["File", "Quit"]), and an item's role does what
// Electron's role does (docs/api/menu-item.md, "Roles").

import { app } from './app.ts';
import { BrowserWindow } from './browser-window.ts';

type Template = Electron.MenuItemConstructorOptions;

const ROLE_LABELS: Record<string, string> = {
  quit: 'Quit',
  close: 'Close',
  reload: 'Reload',
  forceReload: 'Force Reload',
  toggleDevTools: 'Toggle Developer Tools',
  resetZoom: 'Actual Size',
  zoomIn: 'Zoom In',
  zoomOut: 'Zoom Out',
  togglefullscreen: 'Toggle Full Screen',
  minimize: 'Minimize',
  undo: 'Undo',
  redo: 'Redo',
  cut: 'Cut',
  copy: 'Copy',
  paste: 'Paste',
  selectAll: 'Select All',
  help: 'Help',
  about: 'About',
};

export class MenuItem {
  readonly label: string;
  readonly role: string | undefined;
  readonly type: string;
  readonly accelerator: string | undefined;
  enabled: boolean;
  visible: boolean;
  readonly submenu: Menu | undefined;
  readonly #click: Template['click'];

  constructor(options: Template) {
    this.role = options.role;
    this.type = options.type ?? (options.submenu ? 'submenu' : 'normal');
    this.label = options.label ?? (options.role ? (ROLE_LABELS[options.role] ?? options.role) : '');
    this.accelerator = options.accelerator;
    this.enabled = options.enabled ?? true;
    this.visible = options.visible ?? true;
    this.submenu = options.submenu
      ? options.submenu instanceof Menu
        ? options.submenu
        : Menu.buildFromTemplate(options.submenu as Template[])
      : undefined;
    this.#click = options.click;
  }

  /** What Electron does on a click: the item's click, or its role's action. */
  click(): void {
    if (!this.enabled) return;
    const focused = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
    if (this.#click) {
      this.#click(this as never, focused as never, {
        shiftKey: false,
        ctrlKey: false,
        altKey: false,
        metaKey: false,
        triggeredByAccelerator: false,
      });
      return;
    }
    const contents = focused?.webContents;
    switch (this.role?.toLowerCase()) {
      case 'quit':
        app.quit();
        return;
      case 'close':
        focused?.close();
        return;
      case 'minimize':
        focused?.minimize();
        return;
      case 'reload':
      case 'forcereload':
        contents?.reload();
        return;
      case 'resetzoom':
        contents?.setZoomFactor(1);
        return;
      case 'zoomin':
        contents?.setZoomFactor((contents.getZoomFactor() ?? 1) + 0.1);
        return;
      case 'zoomout':
        contents?.setZoomFactor(Math.max(0.25, (contents.getZoomFactor() ?? 1) - 0.1));
        return;
      case 'togglefullscreen':
        focused?.setFullScreen(!focused.isFullScreen());
        return;
    }
  }

  /** A plain description for the control channel. */
  describe(): Record<string, unknown> {
    return {
      label: this.label,
      ...(this.role ? { role: this.role } : {}),
      type: this.type,
      ...(this.accelerator ? { accelerator: this.accelerator } : {}),
      enabled: this.enabled,
      ...(this.submenu ? { submenu: this.submenu.items.map((i) => i.describe()) } : {}),
    };
  }
}

let applicationMenu: Menu | null = null;
/** Context menus that popped up (tests read them). */
export const popups: Menu[] = [];

export class Menu {
  readonly items: MenuItem[] = [];

  static buildFromTemplate(template: readonly (Template | MenuItem | Electron.MenuItem)[]): Menu {
    const menu = new Menu();
    for (const entry of template)
      menu.append(entry instanceof MenuItem ? entry : new MenuItem(entry as Template));
    return menu;
  }

  static setApplicationMenu(menu: Menu | null): void {
    applicationMenu = menu;
  }

  static getApplicationMenu(): Menu | null {
    return applicationMenu;
  }

  append(item: MenuItem): void {
    this.items.push(item);
  }

  popup(): void {
    popups.push(this);
  }

  closePopup(): void {}

  /** The item at a path of labels, e.g. ["File", "Quit"]. */
  find(path: readonly string[]): MenuItem | undefined {
    const [first, ...rest] = path;
    const item = this.items.find((i) => i.label.replace(/&/g, '') === first && i.visible);
    if (!item || rest.length === 0) return item;
    return item.submenu?.find(rest);
  }
}
