import { describe, expect, it } from 'vitest';
import { startupFailureText } from '../../../src/main/desktop/startup-failure.ts';

const fsError = (code: string, path?: string) =>
  Object.assign(new Error(`${code}: something`), { code, ...(path ? { path } : {}) });

describe('startupFailureText', () => {
  it('names the file a file system error is about, in one sentence', () => {
    expect(startupFailureText(fsError('EACCES', '/data/api-keys.json'))).toBe(
      "Store Admin may not read or write /data/api-keys.json. Check the file's permissions, then start Store Admin again.",
    );
    expect(startupFailureText(fsError('EISDIR', '/data/api-keys.json'))).toBe(
      'Store Admin expected a file but found a folder: /data/api-keys.json.',
    );
    expect(startupFailureText(fsError('ENOENT', '/app/out/renderer/index.html'))).toBe(
      'A file Store Admin needs is missing: /app/out/renderer/index.html. Install Store Admin again.',
    );
  });

  it('gives the first line of any other error, and never a stack', () => {
    const error = new Error('The store is broken\n    at somewhere (file.js:1:1)');
    expect(startupFailureText(error)).toBe('The store is broken');
    expect(startupFailureText(undefined)).toBe('Something went wrong while starting.');
  });
});
