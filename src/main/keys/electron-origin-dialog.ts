// Asks whether a key may go to a new address in Electron's native message box
// on the main window: a dialog the page cannot draw, answer or click through.

import { dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';
import { originQuestionText, type ConfirmKeyForOrigin } from './origin-confirmation.ts';

export function confirmKeyForOriginInDialog(
  window: () => BrowserWindow | undefined,
): ConfirmKeyForOrigin {
  return async (question) => {
    const text = originQuestionText(question);
    const options: MessageBoxOptions = {
      type: 'warning',
      title: text.title,
      message: text.message,
      detail: text.detail,
      buttons: [...text.buttons],
      // Enter and Escape both keep the key where it was.
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    };
    const parent = window();
    const { response } =
      parent && !parent.isDestroyed()
        ? await dialog.showMessageBox(parent, options)
        : await dialog.showMessageBox(options);
    return response === 1;
  };
}
