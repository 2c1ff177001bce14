import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Main-process, shared and CLI tests run in Node; renderer tests in jsdom.
// The `electron` module is the only thing mocked (test/support/electron-mock.ts).
export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'test/main/**/*.spec.ts',
            'test/shared/**/*.spec.ts',
            'test/cli/**/*.spec.ts',
            'test/packaging/**/*.spec.ts',
            'test/security/**/*.spec.ts',
            'test/reliability/**/*.spec.ts',
            'test/fuzz/**/*.spec.ts',
            'test/lint/**/*.spec.ts',
            'test/tools/**/*.spec.ts',
          ],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          // Whole flows in Debian's Chromium against the built renderer (npm run build first).
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.spec.ts'],
          testTimeout: 90_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // Every way into the app as a user takes it (npm start, npm run dev, the
          // harness, the packaged app), each from a fresh checkout, through the
          // Electron stand-in (tools/electron-standin). Heavy: each builds the app.
          name: 'ways-in',
          environment: 'node',
          include: ['test/ways-in/**/*.spec.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['test/renderer/**/*.spec.{ts,tsx}'],
          setupFiles: ['test/support/dom-setup.ts'],
        },
      },
    ],
  },
});
