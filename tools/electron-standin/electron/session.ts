// session.defaultSession (docs/api/session.md): the permission handlers and
// webRequest listeners are kept as Electron keeps them, and a test reads
// them through the control channel. The stand-in does not apply them to
// Chromium's traffic (see the README: the DevTools protocol cannot intercept
// file:// responses, which is all a packaged app loads).

type PermissionRequestHandler = Parameters<Electron.Session['setPermissionRequestHandler']>[0];
type PermissionCheckHandler = Parameters<Electron.Session['setPermissionCheckHandler']>[0];
type Listener = ((details: unknown, callback: (response: unknown) => void) => void) | null;

export class StandinSession {
  permissionRequestHandler: PermissionRequestHandler = null;
  permissionCheckHandler: PermissionCheckHandler = null;
  readonly webRequestListeners = new Map<string, Listener>();
  readonly webRequest = {
    onBeforeRequest: (...args: unknown[]) => this.#listen('onBeforeRequest', args),
    onBeforeSendHeaders: (...args: unknown[]) => this.#listen('onBeforeSendHeaders', args),
    onHeadersReceived: (...args: unknown[]) => this.#listen('onHeadersReceived', args),
  };

  setPermissionRequestHandler(handler: PermissionRequestHandler): void {
    this.permissionRequestHandler = handler;
  }

  setPermissionCheckHandler(handler: PermissionCheckHandler): void {
    this.permissionCheckHandler = handler;
  }

  async clearCache(): Promise<void> {}
  async clearStorageData(): Promise<void> {}

  #listen(event: string, args: unknown[]): void {
    // Electron's forms: (listener) and (filter, listener); null removes it.
    const listener = (args.length > 1 ? args[1] : args[0]) as Listener;
    this.webRequestListeners.set(event, listener);
  }
}

const partitions = new Map<string, StandinSession>();

export const session = {
  defaultSession: new StandinSession(),
  /** A session of its own per partition (electron-updater downloads in one, "electron-updater"). */
  fromPartition(partition: string, _options?: Electron.FromPartitionOptions): StandinSession {
    if (partition === '') return session.defaultSession;
    let found = partitions.get(partition);
    if (!found) {
      found = new StandinSession();
      partitions.set(partition, found);
    }
    return found;
  },
};
