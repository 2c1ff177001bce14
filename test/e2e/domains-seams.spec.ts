// The seams of the Domains screen in Chromium, against the real main process
// through the harness and a real DNS server on loopback: the DNS server
// field's rule, renaming a draft, a domain walked to live (the certificate
// check asking the chosen DNS server), the grouped DNS result and why Verify
// is out of reach, a redirect to a domain that is not served, and "Add a
// redirect first" saved with the removal. axe-core runs on every step and
// dialog, in both colour schemes.

import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsTestServer, type DnsTestServer } from '../main/domains/dns-test-server.ts';
import type { DomainWorkspace } from '../../src/shared/domain-assistant.ts';
import { seriousAxeFindings, type AxeFinding } from './support/axe.ts';
import { describedText } from './support/description.ts';
import { hasChromium } from './support/browser.ts';
import { SCREENSHOTS, startE2EApp, type E2EApp } from './support/app.ts';

const TARGET = 'edge.petstore-platform.invalid';
const ZONE = 'pets-example.invalid';

let dns: DnsTestServer;
let app: E2EApp;
const findings: AxeFinding[] = [];

async function axeOn(page: Page, where: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const found = await seriousAxeFindings(page, ['.domains-screen', '[role="dialog"]']);
    findings.push(
      ...found.map((finding) => ({
        ...finding,
        help: `${where} (${colorScheme}): ${finding.help}`,
      })),
    );
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** What a screen reader reads as the element's description. */
function description(page: Page, name: string, role: 'textbox' | 'button' = 'textbox') {
  return describedText(page.getByRole(role, { name, exact: true }));
}

async function workspace(page: Page): Promise<DomainWorkspace> {
  const result = (await page.evaluate(`window.storeAdmin.domains.workspace('sandbox')`)) as {
    ok: boolean;
    value: DomainWorkspace;
  };
  expect(result.ok).toBe(true);
  return result.value;
}

async function addDomain(page: Page, domain: string, axeWhere?: string): Promise<void> {
  await page.getByRole('button', { name: 'Add a domain' }).click();
  if (axeWhere) await axeOn(page, `${axeWhere}: step 1`);
  for (const box of [/paid plan/, /change the DNS settings/, /deployed successfully/]) {
    await page.getByRole('checkbox', { name: box }).check();
  }
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Domain or subdomain').fill(domain);
  if (axeWhere) await axeOn(page, `${axeWhere}: step 2`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Step 3 of 7: Create the DNS record' }).waitFor();
}

describe.skipIf(!hasChromium)(
  'domain seams in Chromium (skipped when /usr/bin/chromium is missing)',
  () => {
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
      await app.page.getByRole('heading', { name: 'In progress' }).waitFor();
    });
    afterAll(async () => {
      await app?.close();
      await dns?.close();
    });

    it('renaming a draft renames it, and the DNS server field takes only what its hint says', async () => {
      const { page } = app;
      await axeOn(page, 'overview, empty');
      await addDomain(page, `shpo.${ZONE}`, 'new domain');
      await page.getByLabel('Platform target').fill(TARGET);
      await page.getByRole('button', { name: 'Save target' }).click();
      await page.getByRole('table').waitFor();
      await axeOn(page, 'step 3');
      // A typo, put right in step 2.
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByLabel('Domain or subdomain').fill(`shop.${ZONE}`);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Step 3 of 7: Create the DNS record' }).waitFor();
      await expect
        .poll(async () => Object.keys((await workspace(page)).progress))
        .toEqual([`shop.${ZONE}`]);

      await page.getByRole('button', { name: 'I have created the record: continue' }).click();
      await page.getByText(/^How to check/).click();
      const server = page.getByLabel('DNS server');
      await server.fill('dns.google');
      await page.getByRole('button', { name: 'Save how to check' }).click();
      expect(await description(page, 'DNS server')).toContain(
        '"dns.google" is a name, not an IP address',
      );
      expect(await server.getAttribute('aria-invalid')).toBe('true');
      expect((await workspace(page)).settings.resolver).toBeUndefined();
      await axeOn(page, 'step 4, DNS server refused');
      await server.fill(dns.address);
      await page.getByRole('button', { name: 'Save how to check' }).click();
      await expect.poll(() => description(page, 'DNS server')).toContain('Saved.');
      expect((await workspace(page)).settings.resolver).toBe(dns.address);
    });

    it('walks the domain to live: Verify says why it waits, the certificate check asks the chosen DNS server, the list moves it to Live', async () => {
      const { page } = app;
      expect(await description(page, 'Continue to Verify', 'button')).toMatch(/^Check DNS first/);
      await page.getByRole('button', { name: 'Check DNS' }).click();
      const result = page.getByRole('status', { name: 'DNS check result' });
      await result.getByRole('group', { name: /^Fine/ }).waitFor();
      await axeOn(page, 'step 4, ready');
      await page.getByRole('button', { name: 'Continue to Verify' }).click();
      await page.getByRole('heading', { name: 'Step 5 of 7: Verify in the dashboard' }).waitFor();
      await axeOn(page, 'step 5');
      await page.getByRole('button', { name: 'Verification succeeded' }).click();
      await page.getByRole('heading', { name: 'Step 6 of 7: Certificate' }).waitFor();

      const asked = dns.asked.length;
      await page.getByRole('button', { name: 'Check certificate' }).click();
      const certificate = page.getByRole('status', { name: 'Certificate check result' });
      await certificate.getByText(/could not be reached/).waitFor({ timeout: 15_000 });
      expect(dns.asked.slice(asked).some((q) => q.name === `shop.${ZONE}` && q.type === 'A')).toBe(
        true,
      );
      expect(await certificate.textContent()).toContain(`https://shop.${ZONE} at 127.0.0.1`);
      await axeOn(page, 'step 6');
      await page.getByRole('button', { name: 'The certificate is in place: continue' }).click();
      await page.getByRole('heading', { name: 'Step 7 of 7: Live' }).waitFor();
      await axeOn(page, 'step 7');
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
      expect(
        await result.getByRole('group', { name: /^Fine/ }).locator('[data-code]').count(),
      ).toBe(2);
      await expect
        .poll(() => description(page, 'Continue to Verify', 'button'))
        .toBe('The last check found something to fix.');
      await axeOn(page, 'step 4, needs a change');
      for (const [width, height] of [
        [1280, 800],
        [1920, 1080],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.screenshot({ path: join(SCREENSHOTS, `domains-check-grouped-${width}.png`) });
      }
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
      await axeOn(page, 'overview, configuration with a warning');
      await section.getByRole('button', { name: 'Remove redirect 1' }).click();
      await section.getByRole('button', { name: 'Save configuration' }).click();
      await section.getByText(/^Configuration saved/).waitFor();

      await page.getByRole('button', { name: `Remove leftover.${ZONE}…` }).click();
      const dialog = page.getByRole('dialog', { name: `Remove leftover.${ZONE}?` });
      await dialog.waitFor();
      await axeOn(page, 'remove dialog');
      await dialog.getByRole('button', { name: 'Add a redirect first' }).click();
      const to = dialog.getByRole('textbox', { name: `Redirect leftover.${ZONE} to` });
      expect(await to.inputValue()).toBe(`shop.${ZONE}`);
      expect(await to.getAttribute('aria-invalid')).toBeNull();
      await axeOn(page, 'remove dialog, redirect');
      await page.screenshot({ path: join(SCREENSHOTS, 'domains-redirect-first.png') });
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
      await axeOn(page, 'overview, live domain and configuration');
      for (const [width, height] of [
        [1280, 800],
        [1920, 1080],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.screenshot({ path: join(SCREENSHOTS, `domains-${width}.png`) });
      }

      console.info(`axe-core, Domains: ${findings.length} serious or critical findings`);
      expect(findings).toEqual([]);
    });
  },
);
