// What the start-up failure dialog says: the cause in one plain sentence,
// naming the file where a file is the cause (a page or a settings file that
// cannot be read), never a stack.

export function startupFailureText(error: unknown): string {
  const { code, path, message } = (error ?? {}) as {
    code?: unknown;
    path?: unknown;
    message?: unknown;
  };
  const where = typeof path === 'string' ? ` ${path}` : '';
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `Store Admin may not read or write${where || ' one of its files'}. Check the file's permissions, then start Store Admin again.`;
    case 'ENOENT':
      return `A file Store Admin needs is missing:${where || ' (unknown)'}. Install Store Admin again.`;
    case 'EISDIR':
      return `Store Admin expected a file but found a folder:${where}.`;
    case 'ENOSPC':
    case 'EROFS':
      return `Store Admin cannot write its files${where ? ` (${where.trim()})` : ''}: the disk is full or read-only.`;
    default:
      return typeof message === 'string' && message !== ''
        ? message.split('\n')[0]!
        : 'Something went wrong while starting.';
  }
}
