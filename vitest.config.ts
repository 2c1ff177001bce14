import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Two tiers (docs/testing.md). The fast one, `npm test`: the `node` and `dom`
// projects, on injected clocks, no build needed. The heavy one, `npm run
// test:heavy` (and `npm run test:all` for both): the `heavy` and `e2e`
// projects, whole folders, so a new file in one of them lands in its tier
// without an edit here.
// The `electron` module is the only thing mocked (test/support/electron-mock.ts).

/** Loops, soaks, packaging and the lint's own tests: minutes of processes and builds. */
const HEAVY = [
  'test/reliability/**/*.spec.ts',
  'test/packaging/**/*.spec.ts',
  'test/lint/**/*.spec.ts',
  'test/security/electronegativity.spec.ts',
  // Real store-admin processes racing for locks, and a shell loop on a read-only and a full disk.
  'test/cli/bulk-cancel-lock.spec.ts',
  'test/cli/gate-on-a-bad-disk.spec.ts',
  'test/main/local-data/file-lock.spec.ts',
  // Debian's nginx in front of the sandbox (tools/nginx): gateways, compression, retries, TLS.
  'test/gateway/**/*.spec.ts',
];
/** Whole flows in Debian's Chromium, through the harness or the Electron stand-in. */
const E2E = ['test/e2e/**/*.spec.ts'];
/** Every command a user starts the app with, each from a fresh checkout (each builds the app). */
const WAYS_IN = ['test/ways-in/**/*.spec.ts'];

export default defineConfig({
  plugins: [react()],
  test: {
    // Most tests wait on loopback I/O, not on the CPU: three workers keep two
    // cores busy (measured in docs/testing.md); vitest's default here is one.
    maxWorkers: 3,
    // expect.poll waits for an outcome over real loopback I/O: a bound for a busy
    // machine, not a target (its default of 1 s failed here under a load of 9).
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          // Main, shared, the CLI, and the renderer's plain logic (its .spec.ts files).
          name: 'node',
          environment: 'node',
          // Worker threads, not child processes, in the fast tier: its tests took
          // 110 s (210 s of CPU) in threads against 164 s (341 s) in processes.
          pool: 'threads',
          include: ['test/**/*.spec.ts'],
          exclude: [...configDefaults.exclude, ...HEAVY, ...E2E, ...WAYS_IN],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          // The renderer's components, rendered in jsdom (its .spec.tsx files).
          name: 'dom',
          environment: 'jsdom',
          pool: 'threads',
          include: ['test/renderer/**/*.spec.tsx'],
          setupFiles: ['test/support/dom-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'heavy',
          environment: 'node',
          include: HEAVY,
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Against the built app (npm run build first), one file at a time: each drives Chromium.
          name: 'e2e',
          environment: 'node',
          include: E2E,
          testTimeout: 90_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // npm start, npm run dev, the harness and the packaged app, through the
          // Electron stand-in (tools/electron-standin), one at a time.
          name: 'ways-in',
          environment: 'node',
          include: WAYS_IN,
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
