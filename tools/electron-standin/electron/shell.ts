// Electron's shell (docs/api/shell.md): nothing is opened on the machine
// running the stand-in; each call is recorded for tests, answered as
// Electron answers success.

export interface ShellCall {
  readonly method: 'openExternal' | 'openPath' | 'showItemInFolder' | 'trashItem' | 'beep';
  readonly target: string;
}

export const shellCalls: ShellCall[] = [];

export const shell = {
  async openExternal(url: string): Promise<void> {
    shellCalls.push({ method: 'openExternal', target: url });
  },
  async openPath(path: string): Promise<string> {
    shellCalls.push({ method: 'openPath', target: path });
    return '';
  },
  showItemInFolder(path: string): void {
    shellCalls.push({ method: 'showItemInFolder', target: path });
  },
  async trashItem(path: string): Promise<void> {
    shellCalls.push({ method: 'trashItem', target: path });
  },
  beep(): void {
    shellCalls.push({ method: 'beep', target: '' });
  },
};
