import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/**
 * The dev server's page only (npm run dev): Vite injects React's refresh
 * preamble as an inline script and every stylesheet as a <style>, and talks
 * to its client over a WebSocket, all of which the shipped policy refuses.
 * Vite marks what it injects with this nonce (html.cspNonce), and the policy
 * of the served page allows that nonce and the socket. The built page keeps
 * index.html's policy as written.
 */
const DEV_NONCE = 'store-admin-dev-server';
const devServerPolicy = (): Plugin => ({
  name: 'store-admin-dev-server-policy',
  apply: 'serve',
  transformIndexHtml: (html) =>
    html.replace(
      /(http-equiv="Content-Security-Policy"\s+content=")([^"]*)"/,
      (_match, head: string, policy: string) =>
        `${head}${policy
          .replace("script-src 'self'", `script-src 'self' 'nonce-${DEV_NONCE}'`)
          .replace("style-src 'self'", `style-src 'self' 'nonce-${DEV_NONCE}'`)
          .replace("connect-src 'self'", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*")}"`,
    ),
});

// Main runs as ESM (Electron 45). The preload is CommonJS because a sandboxed
// preload cannot be an ES module. Main's dependencies (ky, zod, electron-store,
// write-file-atomic, tldts, electron-log, dns-packet) are bundled into out/main,
// so the packaged app carries no node_modules (test/packaging checks it).
export default defineConfig(({ command }) => ({
  main: {
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          // Large lists are scanned on a thread of its own, which loads this script beside main's.
          'list-scanner-worker': resolve(
            import.meta.dirname,
            'src/main/store-api/list-scanner-worker.ts',
          ),
        },
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
    ...(command === 'serve' ? { html: { cspNonce: DEV_NONCE } } : {}),
    plugins: [react(), devServerPolicy()],
  },
}));
