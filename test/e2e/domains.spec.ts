// The custom-domain assistant in Chromium, against the real main process and
// a real DNS server on loopback: a subdomain walked to a ready DNS check, and
// a leftover A record found. Its main steps and the removal dialog are
// checked with axe-core and photographed in both themes.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDnsTestServer, type DnsTestServer } from '../../tools/loopback/dns-test-server.ts';
import { startE2EApp, type E2EApp, describeOnHarness } from './support/app.ts';
import { axeSummary, checkScreen } from './support/screens.ts';

const TARGET = 'edge.petstore-platform.invalid';
const ZONE = 'pets-example.invalid';

let dns: DnsTestServer;
let app: E2EApp;

describeOnHarness('domain assistant in Chromium', () => {
  beforeAll(async () => {
    dns = await startDnsTestServer({
      records: [
        { name: TARGET, type: 'A', data: '203.0.113.10' },
        { name: `shop.${ZONE}`, type: 'CNAME', data: TARGET },
        { name: `leftover.${ZONE}`, type: 'CNAME', data: TARGET },
        { name: `leftover.${ZONE}`, type: 'A', data: '192.0.2.99' },
      ],
      zones: [{ name: ZONE, soaTtl: 900, minimum: 300 }],
    });
    app = await startE2EApp();
  });
  afterAll(async () => {
    console.log(axeSummary('domains'));
    await app?.close();
    await dns?.close();
  });

  it('walks a subdomain from the preconditions to a ready DNS check, then finds a leftover A record', async () => {
    const { page } = app;
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Domains' })
      .click();
    // The first visit asks which published project the domains are for.
    await page.getByLabel('Project name').waitFor();
    await checkScreen(page, 'domains-first-visit');
    await page.getByLabel('Project name').fill('Pet Shop');
    await page.getByRole('button', { name: 'Add the project' }).click();
    await page.getByRole('button', { name: 'Add a domain' }).click();
    await page.getByRole('checkbox', { name: /paid plan \(Pro or above\)/ }).check();
    await page.getByRole('checkbox', { name: /change the DNS settings/ }).check();
    await page.getByRole('checkbox', { name: /deployed successfully/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByLabel('Domain or subdomain').fill(`shop.${ZONE}`);
    await expect
      .poll(() => page.getByText(/is a subdomain of/).textContent())
      .toContain(`subdomain of ${ZONE}`);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByLabel('Platform target').fill(TARGET);
    await page.getByRole('button', { name: 'Save target' }).click();
    await page.getByRole('table').waitFor();
    await checkScreen(page, 'domains-record');
    await page.getByRole('button', { name: 'I have created the record: continue' }).click();

    await page.getByText(/^How to check/).click();
    await page.getByLabel('DNS server').fill(dns.address);
    await page.getByRole('button', { name: 'Save how to check' }).click();
    await page.getByText(`How to check: DNS server ${dns.address}`, { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Check DNS' }).click();
    const result = page.getByRole('status', { name: 'DNS check result' });
    await result.getByText(/^Ready: DNS is set up/).waitFor();
    expect(await result.locator('[data-code="cname-ok"]').count()).toBe(1);
    expect(dns.asked.some((q) => q.name === `shop.${ZONE}` && q.type === 'CNAME')).toBe(true);
    await checkScreen(page, 'domains-check-ready');

    // A second domain whose zone still has an A record next to the CNAME.
    await page.getByRole('button', { name: 'Back to all domains' }).click();
    await page.getByRole('button', { name: 'Add a domain' }).click();
    for (const box of [/paid plan/, /change the DNS settings/, /deployed successfully/]) {
      await page.getByRole('checkbox', { name: box }).check();
    }
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Domain or subdomain').fill(`leftover.${ZONE}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'I have created the record: continue' }).click();
    await page.getByRole('button', { name: 'Check DNS' }).click();
    await result.locator('[data-code="conflicting-a-record"]').waitFor();
    expect(await result.textContent()).toContain('192.0.2.99');
    await checkScreen(page, 'domains-check-conflict');

    // Removing a domain asks first (the one confirmation dialog of the app).
    await page.getByRole('button', { name: 'Back to all domains' }).click();
    await page.getByRole('button', { name: `Remove leftover.${ZONE}…` }).click();
    const dialog = page.getByRole('dialog', { name: `Remove leftover.${ZONE}?` });
    await dialog.waitFor();
    await checkScreen(page, 'remove-domain-confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});
