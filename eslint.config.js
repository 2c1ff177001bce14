// @ts-check
// The lint enforces the architecture (docs/architecture.md): raw IPC only in its
// two wrappers, `electron` values only at the Electron edge, the renderer and
// src/shared kept apart from main and preload, tools, scripts and benchmarks
// apart from the tests, promises never dropped, and accessible JSX.
// test/lint/ proves each rule fires.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import globals from 'globals';

const IPC_WRAPPERS = 'Use the typed IPC wrappers (src/main/ipc/handle.ts, src/preload/index.ts).';
const SEND_WRAPPER = 'Send events through emitTo in src/main/ipc/handle.ts.';

/**
 * Every way to reach ipcMain/ipcRenderer: a named import, a member of the default or
 * namespace import or of require('electron'), a destructured require.
 */
const rawIpcSyntax = [
  {
    selector: 'ImportSpecifier[imported.name=/^ipc(Main|Renderer)$/]',
    message: IPC_WRAPPERS,
  },
  {
    selector: 'MemberExpression[property.name=/^ipc(Main|Renderer)$/]',
    message: IPC_WRAPPERS,
  },
  {
    selector: 'MemberExpression[object.name=/^ipc(Main|Renderer)$/]',
    message: IPC_WRAPPERS,
  },
  {
    selector: 'ObjectPattern > Property[key.name=/^ipc(Main|Renderer)$/]',
    message: IPC_WRAPPERS,
  },
];

/** `webContents.send(...)`, `window.webContents.send(...)`, `contents.send(...)` on a WebContents. */
const rawSendSyntax = [
  {
    selector: 'CallExpression[callee.property.name="send"][callee.object.name="webContents"]',
    message: SEND_WRAPPER,
  },
  {
    selector:
      'CallExpression[callee.property.name="send"][callee.object.type="MemberExpression"][callee.object.property.name="webContents"]',
    message: SEND_WRAPPER,
  },
];

const ELECTRON_EDGE =
  'Import values from electron only at the Electron edge (src/main/index.ts, window.ts, ipc/handle.ts, electron-*.ts, the preload); elsewhere import types only.';

/**
 * The Electron edge: the files that may import values from `electron`. Everything
 * else runs in plain Node, so it can be tested there (type-only imports are fine).
 */
const ELECTRON_EDGE_FILES = [
  'src/main/index.ts',
  'src/main/window.ts',
  'src/main/ipc/handle.ts',
  'src/main/**/electron-*.ts',
  'src/preload/**/*.ts',
];

/** The two typed IPC wrappers, the only files that may touch ipcMain/ipcRenderer. */
const IPC_WRAPPER_FILES = ['src/main/ipc/handle.ts', 'src/preload/index.ts'];

/**
 * The development and test stand-in for Electron implements the electron API
 * itself (ipcMain, webContents.send, ...), so the edge's rules do not apply to it.
 */
const ELECTRON_STANDIN = 'tools/electron-standin/**';

/** `require('electron')` and `import('electron')`, which no-restricted-imports does not see. */
const electronValueSyntax = [
  {
    selector: "CallExpression[callee.name='require'][arguments.0.value='electron']",
    message: ELECTRON_EDGE,
  },
  { selector: "ImportExpression[source.value='electron']", message: ELECTRON_EDGE },
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] }),
      ],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Chosen out of recommendedTypeChecked: the API objects are built from arrow
      // functions and never use `this`, and async functions without an await are how
      // a synchronous implementation meets a Promise-returning interface.
      '@typescript-eslint/unbound-method': 'off',
      // Re-raising a caught error or an abort signal's reason as it came is fine.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      '@typescript-eslint/require-await': 'off',
      'no-console': 'off',
      // Import boundaries: the renderer and src/shared run without Node or Electron,
      // the renderer talks to main only through window.storeAdmin.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/renderer',
              from: './',
              except: ['./src/renderer', './src/shared', './node_modules'],
              message: 'The renderer imports only from src/renderer and src/shared.',
            },
            {
              target: './src/shared',
              from: ['./src/main', './src/preload', './src/renderer', './src/cli'],
              message: 'src/shared imports nothing from main, preload, renderer or the CLI.',
            },
            {
              // The harness serves the real main services and the renderer's API to a
              // browser: it may reach the sandbox, main's services and src/shared.
              target: './tools/harness',
              from: './',
              except: ['./tools/harness', './src/main', './src/shared', './node_modules'],
              message:
                'The development harness imports only from tools/harness, src/main and src/shared.',
            },
            {
              // Engines that scripts, benchmarks and tests share live in tools/, so
              // a change to a test cannot break `npm run bench` or `npm run soak`.
              target: ['./bench', './scripts', './tools', './src'],
              from: './test',
              message:
                'bench/, scripts/, tools/ and src/ import nothing from test/: move what they share to tools/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Plain-JS entry points sit outside both tsconfigs.
    files: ['**/*.{js,cjs,mjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests read JSON from real servers and files and check its shape with expect.
    files: ['test/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'test/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/renderer/**/*.tsx'],
    ...jsxA11y.configs.recommended,
  },
  {
    // `electron` values only at the Electron edge; type-only imports anywhere. The
    // tests import the mocked module to drive it (test/support/electron-mock.ts).
    files: ['**/*.{ts,tsx,js,cjs,mjs}'],
    ignores: [...ELECTRON_EDGE_FILES, ELECTRON_STANDIN, 'test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', allowTypeImports: true, message: ELECTRON_EDGE }] },
      ],
    },
  },
  // no-restricted-syntax holds several rules in one option list, and a later block
  // replaces an earlier one's list: so one block per set of files.
  {
    // Raw IPC only inside the two typed wrappers (as GitHub Desktop enforces), and
    // no `require('electron')` or `import('electron')` off the edge.
    files: ['src/**/*.{ts,tsx}', 'tools/**/*.{ts,tsx}', 'scripts/**/*.ts', 'bench/**/*.ts'],
    ignores: [...ELECTRON_EDGE_FILES, ELECTRON_STANDIN],
    rules: {
      'no-restricted-syntax': ['error', ...rawIpcSyntax, ...rawSendSyntax, ...electronValueSyntax],
    },
  },
  {
    // The edge's other files reach Electron, but raw IPC only through the wrappers.
    files: ELECTRON_EDGE_FILES,
    ignores: IPC_WRAPPER_FILES,
    rules: {
      'no-restricted-syntax': ['error', ...rawIpcSyntax, ...rawSendSyntax],
    },
  },
);
