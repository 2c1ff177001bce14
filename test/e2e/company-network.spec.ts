// The app's real main bundle on a company's network, on Linux: main's
// requests go through net.fetch, which Chromium routes by the environment's
// proxy variables there (the stand-in as Chromium does,
// tools/electron-standin/electron/net.ts; macOS and Windows take the
// system's proxy settings instead). A proxy on loopback records each CONNECT
// tunnel; no_proxy holds <-loopback> (so localhost is proxied, as a company
// host would be) and 127.0.0.1 (the built-in sandbox, which goes direct).
// Staging is the sandbox over TLS, trusted through NODE_EXTRA_CA_CERTS (the
// stand-in's system store: a real Electron trusts the OS's, so that test
// needs the stand-in); Production is one whose CA nobody trusts. Needs
// `npm run build` first.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import { makeSandboxTls } from '../../src/main/sandbox/tls.ts';
import { startConnectProxy, type ConnectProxy } from '../support/connect-proxy.ts';
import {
  appHome,
  canRunApp,
  itNeedsStandin,
  launchApp,
  type AppHome,
  type AppRun,
} from './support/electron-app.ts';
import { openSettingsOf, saveAddress, saveKey } from './support/settings-screen.ts';

let staging: Sandbox;
let untrusted: Sandbox;
let proxy: ConnectProxy;
let folder: string;
let home: AppHome;
let run: AppRun;
let page: Page;

/** The app's tunnels: the stand-in's Chromium sends its own background requests to the same proxy. */
const appTunnels = () =>
  proxy.tunnels().filter((t) => t.startsWith('localhost:') || t.startsWith('127.0.0.1:'));

async function setAddressAndKey(environment: 'Staging' | 'Production', baseUrl: string) {
  await openSettingsOf(page, environment);
  await saveAddress(page, baseUrl);
  await saveKey(page, 'demo-pro', /Key saved for \w+\./);
}

describe.skipIf(!canRunApp || process.platform !== 'linux')(
  "the app through a company proxy and CA, on Linux (the environment's proxy)",
  () => {
    beforeAll(async () => {
      const trusted = await makeSandboxTls();
      const stranger = await makeSandboxTls();
      staging = await startSandbox({ port: 0, orders: 40, tls: trusted });
      untrusted = await startSandbox({ port: 0, orders: 40, tls: stranger });
      proxy = await startConnectProxy();
      folder = mkdtempSync(join(tmpdir(), 'store-admin-company-'));
      const caFile = join(folder, 'company-ca.pem');
      writeFileSync(caFile, trusted.ca);
      home = appHome({
        https_proxy: proxy.url,
        no_proxy: '<-loopback>, 127.0.0.1',
        NODE_EXTRA_CA_CERTS: caFile,
      });
      run = await launchApp({ home });
      page = await run.page();
    });
    afterAll(async () => {
      await run?.stop();
      await Promise.all([staging?.close(), untrusted?.close(), proxy?.close()]);
      home?.remove();
      rmSync(folder, { recursive: true, force: true });
    });

    it('reaches the built-in sandbox directly (127.0.0.1 is in no_proxy)', async () => {
      await expect
        .poll(() => page.locator('.view-count').textContent(), { timeout: 30_000 })
        .toBe('Showing 1,000 of 1,000 orders');
      expect(appTunnels()).toEqual([]);
    });

    itNeedsStandin(
      'lists Staging through a CONNECT tunnel, trusting the company CA',
      "the CA is trusted through NODE_EXTRA_CA_CERTS, the stand-in's system store; Electron's is the OS's",
      async () => {
        await setAddressAndKey('Staging', `https://localhost:${staging.port}/v1`);
        await page.getByRole('radio', { name: 'Staging' }).check();
        await page.getByRole('button', { name: 'Orders' }).click();
        await expect
          .poll(() => page.locator('.view-count').textContent(), { timeout: 30_000 })
          .toBe('Showing 40 of 40 orders');
        const tunnels = appTunnels();
        expect(tunnels.length).toBeGreaterThan(0);
        expect(new Set(tunnels)).toEqual(new Set([`localhost:${staging.port}`]));
        expect(staging.requestLog.some((r) => r.path === '/v1/store/orders')).toBe(true);
      },
    );

    it('says in one sentence that a certificate is not trusted, naming the host', async () => {
      await setAddressAndKey('Production', `https://localhost:${untrusted.port}/v1`);
      await page.getByRole('radio', { name: 'Production' }).check();
      await page.getByRole('button', { name: 'Orders' }).click();
      const sentence = `The store service at localhost:${untrusted.port} showed a certificate this computer does not trust, so nothing was sent.`;
      // The notice of a service that cannot be reached holds it behind Details, said once.
      const notice = page.locator('[data-notice="unreachable"]');
      await notice.waitFor({ timeout: 30_000 });
      await notice.getByText('Details').click();
      await expect
        .poll(() => notice.locator('.notice-details p').allTextContents())
        .toEqual([sentence]);
      expect(await page.getByText(sentence).count()).toBe(1);
      expect(untrusted.requestLog).toEqual([]);
      expect(appTunnels()).toContain(`localhost:${untrusted.port}`);
    });
  },
);
