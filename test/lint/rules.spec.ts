// Each rule the lint promises (eslint.config.js, the README's design) fires on
// a small violating snippet, so a change to the configuration cannot turn one
// off unnoticed. A snippet is linted as the text of an existing file in the
// folder under test: the type-checked rules need a file the tsconfigs know (a
// made-up path is refused), and nothing is written to disk.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const IPC = 'Use the typed IPC wrappers (src/main/ipc/handle.ts, src/preload/index.ts).';
const SEND = 'Send events through emitTo in src/main/ipc/handle.ts.';

/** Files whose text a snippet stands in for, one per zone. */
const IN = {
  main: 'src/main/app-services.ts',
  window: 'src/main/window.ts',
  renderer: 'src/renderer/src/App.tsx',
  shared: 'src/shared/result.ts',
  harness: 'tools/harness/server.ts',
  cli: 'src/cli/run.ts',
} as const;

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfigFile: join(ROOT, 'eslint.config.js') });
});

interface Finding {
  readonly rule: string | null;
  readonly message: string;
}

/** What the project's lint says about `code` as the text of `file`. */
async function lint(file: string, code: string): Promise<Finding[]> {
  const path = join(ROOT, file);
  if (!existsSync(path)) throw new Error(`${file} is gone: pick another file in its folder`);
  const [result] = await eslint.lintText(code, { filePath: path });
  // The type checker now sees the snippet as that file; give it the file back, so a
  // later snippet importing from it sees what it really exports.
  await eslint.lintText(readFileSync(path, 'utf8'), { filePath: path });
  const findings = (result?.messages ?? []).map((m) => ({ rule: m.ruleId, message: m.message }));
  // A snippet that does not parse proves nothing about the rules.
  expect(
    findings.filter((f) => f.rule === null),
    'parsing errors',
  ).toEqual([]);
  return findings;
}

/** The findings of `rule` (and, when given, with that message). */
async function fired(
  file: string,
  code: string,
  rule: string,
  message?: string,
): Promise<Finding[]> {
  const findings = await lint(file, code);
  return findings.filter(
    (f) => f.rule === rule && (message === undefined || f.message === message),
  );
}

describe('raw IPC only inside its two wrappers', { timeout: 60_000 }, () => {
  it.each([
    ['a named import', `import { ipcMain } from 'electron';\nipcMain.handle('x', () => 1);\n`],
    ['a renamed import', `import { ipcMain as bus } from 'electron';\nbus.handle('x', () => 1);\n`],
    [
      'a namespace import',
      `import * as electron from 'electron';\nelectron.ipcMain.handle('x', () => 1);\n`,
    ],
    [
      'a default import',
      `import electron from 'electron';\nelectron.ipcMain.handle('x', () => 1);\n`,
    ],
    [
      'a destructured require',
      `// eslint-disable-next-line @typescript-eslint/no-require-imports\nconst { ipcMain } = require('electron') as typeof import('electron');\nipcMain.removeHandler('x');\n`,
    ],
    [
      'a member of require',
      `// eslint-disable-next-line @typescript-eslint/no-require-imports\n(require('electron') as typeof import('electron')).ipcMain.removeHandler('x');\n`,
    ],
  ])('ipcMain through %s, in main', async (_form, code) => {
    expect(await fired(IN.main, code, 'no-restricted-syntax', IPC)).not.toEqual([]);
  });

  it('ipcRenderer in the renderer, src/shared and the CLI', async () => {
    const code = `import { ipcRenderer } from 'electron';\nexport const call = () => ipcRenderer.invoke('x');\n`;
    for (const file of [IN.renderer, IN.shared, IN.cli])
      expect(await fired(file, code, 'no-restricted-syntax', IPC), file).not.toEqual([]);
  });

  it('the wrappers themselves may use them', async () => {
    for (const file of ['src/main/ipc/handle.ts', 'src/preload/index.ts']) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text).toMatch(/ipc(Main|Renderer)/);
      expect(await fired(file, text, 'no-restricted-syntax'), file).toEqual([]);
    }
  });
});

describe('events only through emitTo', { timeout: 60_000 }, () => {
  it.each([
    [
      "a window's webContents",
      `import type { BrowserWindow } from 'electron';\nexport const tell = (window: BrowserWindow) => window.webContents.send('x', 1);\n`,
    ],
    [
      'a webContents variable',
      `import type { WebContents } from 'electron';\nexport const tell = (webContents: WebContents) => webContents.send('x', 1);\n`,
    ],
  ])('webContents.send on %s', async (_form, code) => {
    expect(await fired(IN.window, code, 'no-restricted-syntax', SEND)).toHaveLength(1);
  });
});

describe('import boundaries', { timeout: 60_000 }, () => {
  const boundary = 'import-x/no-restricted-paths';
  const importing = (from: string) =>
    `import * as imported from '${from}';\nexport const reached = imported;\n`;

  it.each([
    ['main', '../../main/app-services.ts'],
    ['the preload', '../../preload/index.ts'],
    ['the CLI', '../../cli/args.ts'],
    ['the tests', '../../../test/support/tmpfs.ts'],
  ])('the renderer may not import from %s', async (_zone, from) => {
    expect(await fired(IN.renderer, importing(from), boundary)).toHaveLength(1);
  });

  it.each([
    ['main', '../main/app-services.ts'],
    ['the preload', '../preload/index.ts'],
    ['the renderer', '../renderer/src/format.ts'],
    ['the CLI', '../cli/args.ts'],
  ])('src/shared may not import from %s', async (_zone, from) => {
    expect(await fired(IN.shared, importing(from), boundary)).toHaveLength(1);
  });

  it.each([
    ['the renderer', '../../src/renderer/src/format.ts'],
    ['the CLI', '../../src/cli/args.ts'],
    ['the tests', '../../test/support/tmpfs.ts'],
  ])('the harness may not import from %s', async (_zone, from) => {
    expect(await fired(IN.harness, importing(from), boundary)).toHaveLength(1);
  });

  it('the harness may reach main and src/shared, the renderer src/shared', async () => {
    for (const from of ['../../src/main/app-services.ts', '../../src/shared/result.ts'])
      expect(await fired(IN.harness, importing(from), boundary), from).toEqual([]);
    expect(await fired(IN.renderer, importing('../../shared/result.ts'), boundary)).toEqual([]);
  });
});

describe('promises are never dropped', { timeout: 60_000 }, () => {
  it('a call whose promise nobody awaits', async () => {
    const code = `async function save(): Promise<void> {}\nexport function click(): void {\n  save();\n}\n`;
    expect(await fired(IN.main, code, '@typescript-eslint/no-floating-promises')).toHaveLength(1);
  });

  it('an async function where a void callback is expected', async () => {
    const code = `export function poll(): void {\n  setInterval(async () => {\n    await Promise.resolve();\n  }, 10);\n}\n`;
    expect(await fired(IN.main, code, '@typescript-eslint/no-misused-promises')).toHaveLength(1);
  });
});

describe('accessible JSX', { timeout: 60_000 }, () => {
  it('an image without alt text', async () => {
    const code = `export function Logo() {\n  return <img src="logo.png" />;\n}\n`;
    expect(await fired(IN.renderer, code, 'jsx-a11y-x/alt-text')).toHaveLength(1);
  });

  it('a clickable div that no keyboard can reach', async () => {
    const code = `export function Row({ open }: { open: () => void }) {\n  return <div onClick={open}>Order 1</div>;\n}\n`;
    const findings = await lint(IN.renderer, code);
    expect(findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining([
        'jsx-a11y-x/click-events-have-key-events',
        'jsx-a11y-x/no-static-element-interactions',
      ]),
    );
  });
});

describe('code that keeps the rules passes', { timeout: 60_000 }, () => {
  it('main: a promise awaited, events through emitTo', async () => {
    const code = [
      `import type { WebContents } from 'electron';`,
      `import { emitTo } from './ipc/handle.ts';`,
      `import type { Emit } from './ipc/handlers.ts';`,
      `import { ok, type Result } from '../shared/result.ts';`,
      ``,
      `async function save(): Promise<void> {}`,
      `export const events = (contents: WebContents): Emit => emitTo(() => contents);`,
      `export async function saved(): Promise<Result<number>> {`,
      `  await save();`,
      `  return ok(1);`,
      `}`,
      ``,
    ].join('\n');
    expect(await lint(IN.main, code)).toEqual([]);
  });

  it('the renderer: shared code and accessible JSX', async () => {
    const code = [
      `import { ok } from '../../shared/result.ts';`,
      ``,
      `export function Row({ open }: { open: () => void }) {`,
      `  return (`,
      `    <button type="button" onClick={open}>`,
      `      <img src="logo.png" alt="" /> Order {String(ok(1).ok)}`,
      `    </button>`,
      `  );`,
      `}`,
      ``,
    ].join('\n');
    expect(await lint(IN.renderer, code)).toEqual([]);
  });
});
