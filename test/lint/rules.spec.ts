// Each rule the lint promises (eslint.config.js, docs/architecture.md) fires on
// a small violating snippet, so a change to the configuration cannot turn one
// off unnoticed. A snippet is linted as the text of a file that does not exist,
// at a path in the folder under test (`lint-probe.ts`): the path decides which
// rules apply, and nothing is written to disk. The type-checked rules need a
// program for it; the tsconfigs do not list a file that is not there, so these
// paths are admitted to typescript-eslint's default project, built with the
// options of test/lint/tsconfig.probes.json. No real file is replaced and no snippet imports a probe,
// so no snippet sees another's text, and each test lints what it needs: alone
// or shuffled, it proves the same.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const IPC = 'Use the typed IPC wrappers (src/main/ipc/handle.ts, src/preload/index.ts).';
const SEND = 'Send events through emitTo in src/main/ipc/handle.ts.';
const EDGE =
  'Import values from electron only at the Electron edge (src/main/index.ts, window.ts, ipc/handle.ts, electron-*.ts, the preload); elsewhere import types only.';

/** Folders snippets are linted in, each named for the zone it stands for. */
const IN = {
  main: 'src/main',
  /** An Electron adapter (`src/main/**\/electron-*.ts`): part of the Electron edge. */
  edge: 'src/main/keys',
  renderer: 'src/renderer/src',
  shared: 'src/shared',
  cli: 'src/cli',
  harness: 'tools/harness',
  tools: 'tools/reliability',
  standin: 'tools/electron-standin',
  bench: 'bench',
  scripts: 'scripts',
} as const;
type Zone = keyof typeof IN;

/** The probe's name in a folder (the edge's adapters are named electron-*.ts). */
const probeName = (zone: Zone): string => (zone === 'edge' ? 'electron-lint-probe' : 'lint-probe');

// One linter (typescript-eslint's project service is one per process), admitting
// every probe path to the default project, whose options hold both Node and JSX.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: join(ROOT, 'eslint.config.js'),
  overrideConfig: {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: (Object.keys(IN) as Zone[]).map(
            (zone) => `${IN[zone]}/${probeName(zone)}.{ts,tsx}`,
          ),
          defaultProject: 'test/lint/tsconfig.probes.json',
          // A probe per folder and extension: a dozen small files, not a slow glob.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 30,
        },
      },
    },
  },
});

interface Finding {
  readonly rule: string | null;
  readonly message: string;
}

/** What the project's lint says about `code` as a new file in the zone's folder. */
async function lint(zone: Zone, code: string, ext: 'ts' | 'tsx' = 'ts'): Promise<Finding[]> {
  const file = join(ROOT, IN[zone], `${probeName(zone)}.${ext}`);
  return findingsOf(file, code);
}

/** What the project's lint says about a real file's own text. */
async function lintReal(file: string): Promise<Finding[]> {
  const path = join(ROOT, file);
  return findingsOf(path, readFileSync(path, 'utf8'));
}

async function findingsOf(filePath: string, code: string): Promise<Finding[]> {
  const [result] = await eslint.lintText(code, { filePath });
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
  zone: Zone,
  code: string,
  rule: string,
  message?: string,
  ext: 'ts' | 'tsx' = 'ts',
): Promise<Finding[]> {
  const findings = await lint(zone, code, ext);
  // no-restricted-imports puts its own words before the configured message.
  return findings.filter(
    (f) => f.rule === rule && (message === undefined || f.message.endsWith(message)),
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
  ])('ipcMain through %s, in main and in an Electron adapter', async (_form, code) => {
    expect(await fired('main', code, 'no-restricted-syntax', IPC)).not.toEqual([]);
    expect(await fired('edge', code, 'no-restricted-syntax', IPC)).not.toEqual([]);
  });

  it.each([['renderer'], ['shared'], ['cli']] as const)('ipcRenderer in %s', async (zone) => {
    const code = `import { ipcRenderer } from 'electron';\nexport const call = () => ipcRenderer.invoke('x');\n`;
    expect(await fired(zone, code, 'no-restricted-syntax', IPC)).not.toEqual([]);
  });

  it('the wrappers themselves may use them', async () => {
    for (const file of ['src/main/ipc/handle.ts', 'src/preload/index.ts']) {
      expect(readFileSync(join(ROOT, file), 'utf8')).toMatch(/ipc(Main|Renderer)/);
      const findings = await lintReal(file);
      expect(
        findings.filter((f) => f.rule === 'no-restricted-syntax'),
        file,
      ).toEqual([]);
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
  ])('webContents.send on %s, in main and in an Electron adapter', async (_form, code) => {
    expect(await fired('main', code, 'no-restricted-syntax', SEND)).toHaveLength(1);
    expect(await fired('edge', code, 'no-restricted-syntax', SEND)).toHaveLength(1);
  });
});

describe('electron values only at the Electron edge', { timeout: 60_000 }, () => {
  it.each([
    ['a named import', `import { app } from 'electron';\nexport const name = app.getName();\n`],
    [
      'a named import beside a type',
      `import { dialog, type BrowserWindow } from 'electron';\nexport const ask = (w: BrowserWindow) => dialog.showMessageBox(w, { message: 'x' });\n`,
    ],
    [
      'a default import',
      `import electron from 'electron';\nexport const name = electron.app.getName();\n`,
    ],
    [
      'a namespace import',
      `import * as electron from 'electron';\nexport const name = electron.app.getName();\n`,
    ],
    ['a re-export', `export { shell } from 'electron';\n`],
  ])('%s, in main', async (_form, code) => {
    expect(await fired('main', code, 'no-restricted-imports', EDGE)).toHaveLength(1);
  });

  it.each([
    [
      'require',
      `// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const electron = require('electron') as typeof import('electron');\n`,
    ],
    ['a dynamic import', `export const electron = () => import('electron');\n`],
  ])('through %s, in main', async (_form, code) => {
    expect(await fired('main', code, 'no-restricted-syntax', EDGE)).toHaveLength(1);
  });

  it.each([['shared'], ['cli'], ['tools'], ['bench'], ['scripts']] as const)(
    'in %s',
    async (zone) => {
      const code = `import { app } from 'electron';\nexport const name = app.getName();\n`;
      expect(await fired(zone, code, 'no-restricted-imports', EDGE)).toHaveLength(1);
    },
  );

  it('in the renderer', async () => {
    const code = `import { shell } from 'electron';\nexport const open = () => shell.openExternal('https://example.com');\n`;
    expect(await fired('renderer', code, 'no-restricted-imports', EDGE)).toHaveLength(1);
  });

  it('types may come from electron anywhere', async () => {
    const code = [
      `import type { BrowserWindow } from 'electron';`,
      `import { type WebContents } from 'electron';`,
      `export const idOf = (window: BrowserWindow, contents: WebContents) => [window.id, contents.id];`,
      ``,
    ].join('\n');
    for (const zone of ['main', 'shared', 'cli', 'tools'] as const)
      expect(await fired(zone, code, 'no-restricted-imports'), zone).toEqual([]);
  });

  it('the edge and the Electron stand-in may import values', async () => {
    const code = `import { app } from 'electron';\nexport const name = app.getName();\n`;
    expect(await lint('edge', code)).toEqual([]);
    expect(await fired('standin', code, 'no-restricted-imports')).toEqual([]);
    for (const file of [
      'src/main/index.ts',
      'src/main/window.ts',
      'src/main/ipc/handle.ts',
      'src/main/keys/electron-key-store.ts',
      'src/preload/index.ts',
    ]) {
      expect(readFileSync(join(ROOT, file), 'utf8')).toMatch(/from 'electron'/);
      expect(
        (await lintReal(file)).filter((f) => f.message.endsWith(EDGE)),
        file,
      ).toEqual([]);
    }
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
    // From the tests, two zones say so: the renderer's and the tests' own.
    expect(await fired('renderer', importing(from), boundary)).not.toEqual([]);
  });

  it.each([
    ['main', '../main/app-services.ts'],
    ['the preload', '../preload/index.ts'],
    ['the renderer', '../renderer/src/format.ts'],
    ['the CLI', '../cli/args.ts'],
  ])('src/shared may not import from %s', async (_zone, from) => {
    expect(await fired('shared', importing(from), boundary)).toHaveLength(1);
  });

  it.each([
    ['the renderer', '../../src/renderer/src/format.ts'],
    ['the CLI', '../../src/cli/args.ts'],
    ['the tests', '../../test/support/tmpfs.ts'],
  ])('the harness may not import from %s', async (_zone, from) => {
    expect(await fired('harness', importing(from), boundary)).not.toEqual([]);
  });

  it.each([
    ['bench', '../test/support/tmpfs.ts'],
    ['scripts', '../test/support/tmpfs.ts'],
    ['tools', '../../test/support/tmpfs.ts'],
    ['main', '../../test/support/tmpfs.ts'],
    ['cli', '../../test/support/tmpfs.ts'],
  ] as const)('%s may not import from the tests', async (zone, from) => {
    expect(await fired(zone, importing(from), boundary)).toHaveLength(1);
  });

  it('the harness may reach main and src/shared, the renderer src/shared, bench and scripts tools/', async () => {
    for (const from of ['../../src/main/app-services.ts', '../../src/shared/result.ts'])
      expect(await fired('harness', importing(from), boundary), from).toEqual([]);
    expect(await fired('renderer', importing('../../shared/result.ts'), boundary)).toEqual([]);
    expect(await fired('bench', importing('../tools/browser/chromium.ts'), boundary)).toEqual([]);
    expect(await fired('scripts', importing('../tools/reliability/soak.ts'), boundary)).toEqual([]);
  });
});

describe('promises are never dropped', { timeout: 60_000 }, () => {
  it('a call whose promise nobody awaits', async () => {
    const code = `async function save(): Promise<void> {}\nexport function click(): void {\n  save();\n}\n`;
    expect(await fired('main', code, '@typescript-eslint/no-floating-promises')).toHaveLength(1);
  });

  it('an async function where a void callback is expected', async () => {
    const code = `export function poll(): void {\n  setInterval(async () => {\n    await Promise.resolve();\n  }, 10);\n}\n`;
    expect(await fired('main', code, '@typescript-eslint/no-misused-promises')).toHaveLength(1);
  });
});

describe('accessible JSX', { timeout: 60_000 }, () => {
  it('an image without alt text', async () => {
    const code = `export function Logo() {\n  return <img src="logo.png" />;\n}\n`;
    expect(await fired('renderer', code, 'jsx-a11y-x/alt-text', undefined, 'tsx')).toHaveLength(1);
  });

  it('a clickable div that no keyboard can reach', async () => {
    const code = `export function Row({ open }: { open: () => void }) {\n  return <div onClick={open}>Order 1</div>;\n}\n`;
    const findings = await lint('renderer', code, 'tsx');
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
    expect(await lint('main', code)).toEqual([]);
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
    expect(await lint('renderer', code, 'tsx')).toEqual([]);
  });
});
