// Main's own question, through the shared mock of Electron's dialog: it names
// both hosts, defaults to keeping the key where it was, sits on the main
// window, and only the "send" button says yes.

import { describe, expect, it, vi } from 'vitest';

const electron = await vi.hoisted(async () => {
  const { createElectronMock } = await import('../../support/electron-mock.ts');
  return createElectronMock();
});
vi.mock('electron', () => electron);

const { confirmKeyForOriginInDialog } =
  await import('../../../src/main/keys/electron-origin-dialog.ts');

const question = {
  environment: 'production',
  from: 'https://api.old.example',
  to: 'https://api.new.example',
} as const;

describe('the dialog that lets a key go to a new address', () => {
  it('asks on the main window, naming both hosts, with refusing as the default', async () => {
    const window = new electron.BrowserWindow();
    electron.dialog.answerWith(0);
    const confirm = confirmKeyForOriginInDialog(() => window as never);
    expect(await confirm(question)).toBe(false);
    const shown = electron.dialog.shown.at(-1);
    expect(shown?.parent).toBe(window);
    expect(shown?.options).toMatchObject({
      type: 'warning',
      title: 'Send the Production key to api.new.example?',
      message:
        'The Production API key was entered for api.old.example. The Production address now points to api.new.example.',
      buttons: ['Don’t send the key', 'Send the key to api.new.example'],
      defaultId: 0,
      cancelId: 0,
    });
    expect(String(shown?.options.detail)).toContain('api.new.example');
  });

  it('says yes only for the send button', async () => {
    const confirm = confirmKeyForOriginInDialog(() => undefined);
    electron.dialog.answerWith(1);
    expect(await confirm(question)).toBe(true);
    // No window (closed meanwhile): still asked, as an app-modal box.
    expect(electron.dialog.shown.at(-1)?.parent).toBeUndefined();
    electron.dialog.answerWith(2);
    expect(await confirm(question)).toBe(false);
  });
});
