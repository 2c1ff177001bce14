import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Main runs as ESM (Electron 45). The preload is CommonJS because a sandboxed
// preload cannot be an ES module. Main's dependencies (ky, zod, electron-store,
// write-file-atomic, tldts, electron-log, dns-packet) are bundled into out/main,
// so the packaged app carries no node_modules (test/packaging checks it).
export default defineConfig({
  main: {
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/main/index.ts') },
        onwarn(warning, warn) {
          // local-data/lazy-schema.ts loads zod late for the CLI's sake; main has it anyway.
          if (warning.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && warning.message.includes('zod'))
            return;
          warn(warning);
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    build: {
      // Shipped minified: the page parses less before its first rows.
      minify: true,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/renderer/index.html') },
      },
    },
    plugins: [react()],
  },
});
