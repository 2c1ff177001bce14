// The whole app (the real main bundle, opened through Playwright's Electron
// driver) behind Debian's nginx: main's requests go through net.fetch, which
// is Chromium's network on Electron (the stand-in models it with Node's), so
// on a real Electron this proves what Chromium makes of a gateway:
// - a list sent compressed with its compressed length declared (gzip_static,
//   slowed by limit_rate): the progress bar shows the bytes read without a
//   total, never "5.4 MB of 0.8 MB" with the bar full early; photographed at
//   1280×800 and 1920×1080 in both themes;
// - a gateway's own 429 (limit_req, an HTML page without rate-limit headers):
//   the notice says a gateway is limiting requests, for seconds, with "Try
//   now", and the quota meter keeps the service's figures (nothing used up).
// Linux only: the gateway is Debian's nginx. Needs `npm run build` first.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server.ts';
import {
  NGINX_RUNS_ON,
  nginxInstalled,
  nginxRunsHere,
  startNginx,
  type Nginx,
} from '../../tools/nginx/nginx.ts';
import { describedText } from './support/description.ts';
import {
  appHome,
  canRunApp,
  launchApp,
  type AppHome,
  type AppRun,
} from './support/electron-app.ts';
import { axeSummary, checkScreen } from './support/screens.ts';
import type { Page } from 'playwright-core';
import { openSettingsOf, saveKey } from './support/settings-screen.ts';

/** 60,000 orders: about 5.4 MB as JSON, some 0.8 MB compressed. */
const ORDERS = 60_000;

let home: AppHome;
let run: AppRun;
let page: Page;
let service: Sandbox;
let nginx: Nginx;
let list: Buffer;

/**
 * Points Staging at `baseUrl` with the demo Pro key, and shows its orders. The
 * key goes in before the address, so saving it sends nothing: the gateway's one
 * request a minute is the list's.
 */
async function useStaging(page: Page, baseUrl: string): Promise<void> {
  await openSettingsOf(page, 'Staging');
  await saveKey(page, 'demo-pro');
  await page.getByLabel('Address', { exact: true }).fill(baseUrl);
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect
    .poll(() => describedText(page.getByLabel('Address', { exact: true })))
    .toContain('Saved.');
  await page.getByRole('radio', { name: 'Staging' }).check();
  await page.getByRole('button', { name: 'Orders' }).click();
}

describe.skipIf(!canRunApp || !nginxRunsHere)(`the app behind a gateway (${NGINX_RUNS_ON})`, () => {
  beforeAll(async () => {
    if (!nginxInstalled()) throw new Error('Debian’s nginx is needed: apt-get install nginx-light');
    service = await startSandbox({ port: 0, orders: ORDERS });
    const response = await fetch(`${service.baseUrl}/store/orders`, {
      headers: { authorization: 'Bearer demo-pro' },
    });
    list = Buffer.from(await response.arrayBuffer());
    nginx = await startNginx({
      files: {
        'static/v1/store/orders.gz': gzipSync(list),
        'static/v1/store/orders': list,
      },
      http: ({ port, prefix }) => `
  limit_req_zone $binary_remote_addr zone=gateway:1m rate=1r/m;
  server {
    listen 127.0.0.1:${port};
    # A pre-compressed list (a CDN, gzip_static), its compressed length declared, sent slowly.
    location = /compressed/v1/store/orders {
      alias ${prefix}/static/v1/store/orders;
      gzip_static on;
      default_type application/json;
      limit_rate 40k;
    }
    # The service behind a gateway that lets one request a minute through (its 429 asks for 20 s).
    location /limited/ {
      limit_req zone=gateway;
      limit_req_status 429;
      add_header Retry-After 20 always;
      proxy_pass http://127.0.0.1:${service.port}/;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }`,
    });
    home = appHome();
    run = await launchApp({ home });
    page = await run.page();
    await page.setViewportSize({ width: 1280, height: 800 });
  });
  afterAll(async () => {
    console.log(axeSummary('behind-a-gateway'));
    await run?.stop();
    home?.remove();
    await nginx?.stop();
    await service?.close();
  });

  it('a compressed list with its size declared: the bytes read, no total, the bar never full early', async () => {
    await useStaging(page, `${nginx.origin}/compressed/v1`);
    const progress = page.locator('#orders-progress');
    await progress.waitFor({ timeout: 30_000 });
    const text = page.locator('.progress-text');
    // Some rows in: the bar shows what arrived, as bytes read of no stated total.
    await expect
      .poll(
        async () =>
          Number(
            /, ([\d,]+) orders/.exec((await text.textContent()) ?? '')?.[1]?.replaceAll(',', '') ??
              0,
          ),
        {
          timeout: 30_000,
        },
      )
      .toBeGreaterThan(1_000);
    const early = await progress.evaluate((bar: HTMLProgressElement) => ({
      determinate: bar.hasAttribute('value'),
      text: bar.getAttribute('aria-valuetext'),
    }));
    console.log(`compressed list, progress while it arrives: ${JSON.stringify(early)}`);
    expect(early.determinate).toBe(false);
    expect(early.text).toMatch(/^[\d.]+ (KB|MB) received, [\d,]+ orders \(total size not known\)$/);
    expect(early.text).not.toMatch(/ of /);
    await checkScreen(page, 'orders-compressed-arriving');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, 'orders-compressed-arriving-1920');
    await page.setViewportSize({ width: 1280, height: 800 });
    // And the whole list, all of it.
    await expect
      .poll(() => page.locator('.view-count').textContent(), { timeout: 60_000 })
      .toMatch(
        new RegExp(
          `^Showing ${ORDERS.toLocaleString('en')} of ${ORDERS.toLocaleString('en')} orders$`,
        ),
      );
    const sent = (await nginx.accessLog()).filter((e) => e.uri === '/compressed/v1/store/orders');
    expect(sent.at(-1)).toMatchObject({ status: 200, contentEncoding: 'gzip' });
    expect(sent.at(-1)!.bodyBytes).toBeLessThan(list.length / 4);
  }, 120_000);

  it('a gateway’s own 429: said as a gateway limiting requests, for seconds, with Try now; the quota is the service’s', async () => {
    await useStaging(page, `${nginx.origin}/limited/v1`);
    // The minute's one request is the list; the refresh after it meets the gateway's 429.
    await expect
      .poll(() => page.locator('.view-count').textContent(), { timeout: 60_000 })
      .toMatch(/^Showing [\d,]+ of [\d,]+ orders$/);
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    const notices = page.getByRole('region', { name: 'Notices' });
    await expect
      .poll(() => notices.textContent(), { timeout: 30_000 })
      .toContain('Requests paused');
    const sentence = (await notices.locator('.notice-text').first().textContent()) ?? '';
    console.log(`gateway 429, the app's notice: ${sentence}`);
    expect(sentence).toContain(
      'A gateway between this computer and the store service is limiting requests.',
    );
    expect(sentence).not.toContain('quota for this period is used up');
    expect(await notices.getByRole('button', { name: 'Try now…' }).count()).toBe(1);
    // The hold is the gateway's Retry-After, seconds: its countdown never shows minutes.
    expect(sentence).toMatch(/\(in 0:[0-2]\d\)/);
    const quota = (await page.getByRole('region', { name: 'Quota' }).textContent()) ?? '';
    expect(quota).not.toContain('used up');
    const log = await nginx.accessLog();
    const limited = log.filter((e) => e.uri.startsWith('/limited/'));
    console.log(
      `gateway 429, nginx: ${limited.map((e) => `${e.method} ${e.uri} ${e.status}`).join('; ')}`,
    );
    expect(limited.filter((e) => e.status === 429).length).toBeGreaterThanOrEqual(1);
    await checkScreen(page, 'gateway-limited');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await checkScreen(page, 'gateway-limited-1920');
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 120_000);
});
