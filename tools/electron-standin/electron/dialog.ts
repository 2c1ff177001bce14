// Electron's dialog (docs/api/dialog.md). Native dialogs cannot be shown by
// the stand-in, so each one is published on the control channel and waits
// for the answer a test gives there (control.ts). Without a control channel
// (someone running the app by hand) a message box is printed and answered
// with its cancelId, the choice Escape makes in Electron; file dialogs are
// answered "canceled".

import { EventEmitter } from 'node:events';

export interface PendingDialog {
  readonly id: number;
  readonly kind: 'message-box' | 'error-box' | 'open' | 'save';
  readonly window: number | undefined;
  readonly options: Record<string, unknown>;
}

type Answer = Record<string, unknown>;

/** What the control channel listens to, and answers through. */
export const dialogs = new (class extends EventEmitter {
  readonly pending = new Map<number, { dialog: PendingDialog; answer: (a: Answer) => void }>();
  readonly shown: PendingDialog[] = [];
  answered = true;
  /** Set when a control channel is there to answer. */
  controlled = false;
  #next = 0;

  ask(
    kind: PendingDialog['kind'],
    window: number | undefined,
    options: Record<string, unknown>,
    fallback: Answer,
  ): Promise<Answer> {
    const dialog: PendingDialog = { id: ++this.#next, kind, window, options };
    this.shown.push(dialog);
    if (!this.controlled) {
      if (kind === 'message-box')
        console.error(
          `[electron-standin] dialog: ${JSON.stringify(options['message'] ?? options['title'] ?? '')} ${JSON.stringify(options['detail'] ?? options['content'] ?? '')} (answered: ${JSON.stringify(fallback)})`,
        );
      return Promise.resolve(fallback);
    }
    return new Promise((resolve) => {
      this.pending.set(dialog.id, { dialog, answer: resolve });
      this.emit('shown', dialog);
    });
  }

  answer(id: number | undefined, answer: Answer): boolean {
    const target = id === undefined ? [...this.pending.values()][0] : this.pending.get(id);
    if (!target) return false;
    this.pending.delete(target.dialog.id);
    target.answer(answer);
    return true;
  }
})();

interface WindowLike {
  readonly id: number;
}

function split<T>(windowOrOptions: unknown, options: T | undefined): [number | undefined, T] {
  if (options === undefined) return [undefined, windowOrOptions as T];
  return [(windowOrOptions as WindowLike | null)?.id, options];
}

export const dialog = {
  async showMessageBox(
    windowOrOptions: unknown,
    maybeOptions?: Electron.MessageBoxOptions,
  ): Promise<Electron.MessageBoxReturnValue> {
    const [window, options] = split(windowOrOptions, maybeOptions);
    const buttons = options.buttons ?? ['OK'];
    const cancelId =
      options.cancelId ??
      Math.max(
        0,
        buttons.findIndex((b) => /^(cancel|no)$/i.test(b)),
      );
    const answer = await dialogs.ask(
      'message-box',
      window,
      { ...options, buttons },
      {
        response: cancelId,
        checkboxChecked: options.checkboxChecked ?? false,
      },
    );
    return {
      response: Number(answer['response'] ?? cancelId),
      checkboxChecked: Boolean(answer['checkboxChecked'] ?? options.checkboxChecked ?? false),
    };
  },
  /** Also on stderr, as Electron on Linux prints it where it cannot draw it (docs/api/dialog.md). */
  showErrorBox(title: string, content: string): void {
    console.error(`${title}\n${content}`);
    void dialogs.ask('error-box', undefined, { title, content }, {});
  },
  async showOpenDialog(
    windowOrOptions: unknown,
    maybeOptions?: Electron.OpenDialogOptions,
  ): Promise<Electron.OpenDialogReturnValue> {
    const [window, options] = split(windowOrOptions, maybeOptions);
    const answer = await dialogs.ask(
      'open',
      window,
      { ...options },
      { canceled: true, filePaths: [] },
    );
    return {
      canceled: Boolean(answer['canceled']),
      filePaths: (answer['filePaths'] as string[]) ?? [],
    };
  },
  async showSaveDialog(
    windowOrOptions: unknown,
    maybeOptions?: Electron.SaveDialogOptions,
  ): Promise<Electron.SaveDialogReturnValue> {
    const [window, options] = split(windowOrOptions, maybeOptions);
    const answer = await dialogs.ask('save', window, { ...options }, { canceled: true });
    return {
      canceled: Boolean(answer['canceled']),
      ...(typeof answer['filePath'] === 'string'
        ? { filePath: answer['filePath'] }
        : { filePath: '' }),
    };
  },
};
