// The seams of the Domains screen in Chromium, against the real main process
// through the harness and a real DNS server on loopback: the DNS server
// field's rule, renaming a draft, a domain walked to live (the certificate
// check asking the chosen DNS server), the grouped DNS result and why Verify
// is out of reach, a redirect to a domain that is not served, and "Add a
// redirect first" saved with the removal. axe-core runs on every step and
// dialog, in both themes; the steps the other tests do not photograph are
// photographed here.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDnsTestServer, type DnsTestServer } from '../../tools/loopback/dns-test-server.ts';
import type { DomainWorkspace } from '../../src/shared/domain-assistant.ts';
import { describedText } from './support/description.ts';
import { startE2EApp, type E2EApp, describeOnHarness } from './support/app.ts';
import { axeSummary, checkScreen } from './support/screens.ts';

const TARGET = 'edge.petstore-platform.invalid';
const ZONE = 'pets-example.invalid';

let dns: DnsTestServer;
let app: E2EApp;
/**
 * axe-core in both themes; a screenshot under `screenshot`'s name when the
 * step is not photographed elsewhere.
 */
async function axeOn(page: Page, screenshot?: string): Promise<void> {
  await checkScreen(page, screenshot ?? 'domains step', { screenshot: screenshot !== undefined });
}

/** What a screen reader reads as the element's description. */
function description(page: Page, name: string, role: 'textbox' | 'button' = 'textbox') {
  return describedText(page.getByRole(role, { name, exact: true }));
}

async function workspace(page: Page): Promise<DomainWorkspace> {
  const result = await page.evaluate<{ ok: boolean; value: DomainWorkspace }>(
    `window.storeAdmin.domains.workspace('pet-shop')`,
  );
  expect(result.ok).toBe(true);
  return result.value;
}

async function addDomain(page: Page, domain: string, check = false): Promise<void> {
  await page.getByRole('button', { name: 'Add a domain' }).click();
  if (check) await axeOn(page, 'domains-preconditions');
  for (const box of [/paid plan/, /change the DNS settings/, /deployed successfully/]) {
    await page.getByRole('checkbox', { name: box }).check();
  }
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Domain or subdomain').fill(domain);
  if (check) await axeOn(page, 'domains-add');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Step 3 of 7: Create the DNS record' }).waitFor();
}

describeOnHarness('domain seams in Chromium', () => {
  beforeAll(async () => {
    dns = await startDnsTestServer({
      records: [
        // Loopback: the certificate check connects there and is refused at once.
        { name: TARGET, type: 'A', data: '127.0.0.1' },
        { name: `shop.${ZONE}`, type: 'CNAME', data: TARGET },
        { name: `leftover.${ZONE}`, type: 'CNAME', data: TARGET },
        { name: `leftover.${ZONE}`, type: 'A', data: '192.0.2.99' },
      ],
      zones: [{ name: ZONE, soaTtl: 900, minimum: 300 }],
    });
    app = await startE2EApp();
    await app.page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Domains' })
      .click();
    await app.page.getByLabel('Project name').fill('Pet Shop');
    await app.page.getByRole('button', { name: 'Add the project' }).click();
    await app.page.getByRole('heading', { name: 'In progress' }).waitFor();
  });
  afterAll(async () => {
    console.log(axeSummary('domains-seams'));
    await app?.close();
    await dns?.close();
  });

  it('renaming a draft renames it, and the DNS server field takes only what its hint says', async () => {
    const { page } = app;
    await axeOn(page);
    await addDomain(page, `shpo.${ZONE}`, true);
    await page.getByLabel('Platform target').fill(TARGET);
    await page.getByRole('button', { name: 'Save target' }).click();
    await page.getByRole('table').waitFor();
    await axeOn(page);
    // A typo, put right in step 2.
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByLabel('Domain or subdomain').fill(`shop.${ZONE}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Step 3 of 7: Create the DNS record' }).waitFor();
    await expect
      .poll(async () => Object.keys((await workspace(page)).progress))
      .toEqual([`shop.${ZONE}`]);

    await page.getByRole('button', { name: 'I have created the record: continue' }).click();
    // No check has said Ready yet (main's own ask the system's DNS, which knows no .invalid name):
    // the reason is a first check, or what main's own found if it has answered already.
    expect(await description(page, 'Continue to Verify', 'button')).toMatch(
      /^(Check DNS first|The last check )/,
    );
    await page.getByText(/^How to check/).click();
    const server = page.getByLabel('DNS server');
    await server.fill('dns.google');
    await page.getByRole('button', { name: 'Save how to check' }).click();
    expect(await description(page, 'DNS server')).toContain(
      '"dns.google" is a name, not an IP address',
    );
    expect(await server.getAttribute('aria-invalid')).toBe('true');
    expect((await workspace(page)).settings.resolver).toBeUndefined();
    await axeOn(page, 'domains-dns-server-refused');
    await server.fill(dns.address);
    await page.getByRole('button', { name: 'Save how to check' }).click();
    await expect.poll(() => description(page, 'DNS server')).toContain('Saved.');
    expect((await workspace(page)).settings.resolver).toBe(dns.address);
  });

  it('walks the domain to live: Verify says why it waits, the certificate check asks the chosen DNS server, the list moves it to Live', async () => {
    const { page } = app;
    // Main checks again by itself once the DNS server is saved: its Ready unlocks Verify, and says so.
    await page.getByText(/^Store Admin checks the DNS by itself:/).waitFor();
    await expect
      .poll(() => page.locator('.own-checks').textContent())
      .toMatch(/Ready checked at \d{1,2}:\d\d(?:\s[AP]M)?/);
    expect(await description(page, 'Continue to Verify', 'button')).toBe('');
    await page.getByRole('button', { name: 'Check DNS' }).click();
    const result = page.getByRole('status', { name: 'DNS check result' });
    await result.getByRole('group', { name: /^Fine/ }).waitFor();
    await axeOn(page);
    await page.getByRole('button', { name: 'Continue to Verify' }).click();
    await page.getByRole('heading', { name: 'Step 5 of 7: Verify in the dashboard' }).waitFor();
    await axeOn(page, 'domains-verify');
    await page.getByRole('button', { name: 'Verification succeeded' }).click();
    await page.getByRole('heading', { name: 'Step 6 of 7: Certificate' }).waitFor();

    const asked = dns.asked.length;
    await page.getByRole('button', { name: 'Check certificate' }).click();
    const certificate = page.getByRole('status', { name: 'Certificate check result' });
    await certificate.getByText(/Could not connect to/).waitFor({ timeout: 15_000 });
    expect(dns.asked.slice(asked).some((q) => q.name === `shop.${ZONE}` && q.type === 'A')).toBe(
      true,
    );
    expect(await certificate.textContent()).toContain(`https://shop.${ZONE} at 127.0.0.1`);
    await axeOn(page, 'domains-certificate');
    await page.getByRole('button', { name: 'The certificate is in place: continue' }).click();
    await page.getByRole('heading', { name: 'Step 7 of 7: Live' }).waitFor();
    await axeOn(page, 'domains-live');
    await page.getByRole('button', { name: 'Done: back to all domains' }).click();

    const live = page.getByRole('region', { name: 'Live' });
    await live.getByText(/^Live since /).waitFor();
    expect(await live.getByRole('listitem').count()).toBe(1);
    expect(await page.getByRole('region', { name: 'In progress' }).textContent()).toContain(
      'No domain in progress.',
    );
  });

  it('groups the DNS result and says why Verify is out of reach', async () => {
    const { page } = app;
    await addDomain(page, `leftover.${ZONE}`);
    await page.getByRole('button', { name: 'I have created the record: continue' }).click();
    await page.getByRole('button', { name: 'Check DNS' }).click();
    const result = page.getByRole('status', { name: 'DNS check result' });
    const mustFix = result.getByRole('group', { name: /^Must fix/ });
    await mustFix.waitFor();
    expect(await mustFix.locator('[data-code]').getAttribute('data-code')).toBe(
      'conflicting-a-record',
    );
    expect(await result.getByRole('group', { name: /^Fine/ }).locator('[data-code]').count()).toBe(
      2,
    );
    await expect
      .poll(() => description(page, 'Continue to Verify', 'button'))
      .toBe('The last check found something to fix.');
    await axeOn(page);
    await page.getByRole('button', { name: 'Back to all domains' }).click();
  });

  it('warns about a redirect to a domain that is not served, and saves "Add a redirect first" with the removal', async () => {
    const { page } = app;
    const section = page.getByRole('region', { name: 'Several domains' });
    await section.getByLabel('Primary domain').fill(`shop.${ZONE}`);
    await section.getByRole('button', { name: 'Add a redirect' }).click();
    // Nothing is said about a field nobody has typed in.
    expect(await description(page, 'Redirect 1: from')).toBe('');
    await section.getByLabel('Redirect 1: from').fill(`www.${ZONE}`);
    await section.getByLabel('Redirect 1: to').fill('elsewhere.example.com');
    expect(await description(page, 'Redirect 1: to')).toContain(
      'elsewhere.example.com is neither the primary nor a live domain here',
    );
    await axeOn(page, 'domains-redirect-warning');
    await section.getByRole('button', { name: 'Remove redirect 1' }).click();
    await section.getByRole('button', { name: 'Save configuration' }).click();
    await section.getByText(/^Configuration saved/).waitFor();

    await page.getByRole('button', { name: `Remove leftover.${ZONE}…` }).click();
    const dialog = page.getByRole('dialog', { name: `Remove leftover.${ZONE}?` });
    await dialog.waitFor();
    await axeOn(page);
    await dialog.getByRole('button', { name: 'Add a redirect first' }).click();
    const to = dialog.getByRole('textbox', { name: `Redirect leftover.${ZONE} to` });
    expect(await to.inputValue()).toBe(`shop.${ZONE}`);
    expect(await to.getAttribute('aria-invalid')).toBeNull();
    await axeOn(page, 'remove-domain-redirect');
    await dialog
      .getByRole('button', { name: `Save the redirect and remove leftover.${ZONE}` })
      .click();
    await dialog.waitFor({ state: 'detached' });

    const saved = await workspace(page);
    expect(saved.config).toEqual({
      primary: `shop.${ZONE}`,
      redirects: [{ from: `leftover.${ZONE}`, to: `shop.${ZONE}`, status: 301 }],
    });
    expect(Object.keys(saved.progress)).toEqual([`shop.${ZONE}`]);
    await axeOn(page, 'domains-overview');
  });
});
