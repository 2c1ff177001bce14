// The DNS and certificate results say each thing once: the summary of a DNS
// check that waits does not repeat what its Waiting item says, a certificate's
// verdict is not said again under the badge that already says it, and the
// names a certificate covers are listed once.

import { render, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { CertificateReport } from '../../../../src/shared/domains.ts';
import { CertificateResult } from '../../../../src/renderer/src/features/domains/certificate-step.tsx';
import { startTestApp } from '../../support/test-app.tsx';
import { NEGATIVE_TTL_WORDS, startDnsServer, ZONE, type DnsServer } from './dns-server.ts';
import {
  dnsResult,
  expectStep,
  openDomains,
  saveCheckSettings,
  saveProgress,
} from './domains-kit.tsx';

// Main's certificate check and the TLS server of its tests need Node's types, which the web
// tsconfig does not load: imported at run time by path (as dns-server.ts does), typed here.
const CERTIFICATE_CHECK = '../../../../src/main/domains/certificate-check.ts';
const TLS_TEST_SERVER = '../../../main/domains/tls-test-server.ts';

interface Pem {
  readonly key: string;
  readonly cert: string;
}
interface TlsTestServer {
  readonly port: number;
  close(): Promise<void>;
}
interface TlsServerModule {
  makeCa(): Promise<Pem>;
  makeLeaf(options: { readonly names: readonly string[]; readonly ca?: Pem }): Promise<Pem>;
  startTlsTestServer(options: { readonly fallback: Pem }): Promise<TlsTestServer>;
}
interface CertificateCheckModule {
  checkCertificate(options: {
    readonly domain: string;
    readonly host: string;
    readonly port: number;
    readonly timeoutMs: number;
  }): Promise<CertificateReport>;
}

const MINUTE = 60_000;
let dns: DnsServer;
let tls: TlsTestServer;
beforeAll(async () => {
  dns = await startDnsServer();
  // Another site's certificate, as a platform's default one is when it has none for the domain yet.
  const { makeCa, makeLeaf, startTlsTestServer } = (await import(
    /* @vite-ignore */ TLS_TEST_SERVER
  )) as TlsServerModule;
  tls = await startTlsTestServer({
    fallback: await makeLeaf({
      names: ['default.platform.invalid', 'www.platform.invalid'],
      ca: await makeCa(),
    }),
  });
});
afterAll(async () => {
  await dns.close();
  await tls.close();
});

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

test('a DNS check that waits says the wait and what to do once, in its Waiting item', async () => {
  const app = await startTestApp();
  await saveCheckSettings(app, dns.address);
  await saveProgress(app, { domain: `new.${ZONE}`, step: 'check-dns' });
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: `Resume new.${ZONE}` }));
  await user.click(await screen.findByRole('button', { name: 'Check DNS' }));

  const result = dnsResult();
  expect(await within(result).findByText(/^Not there yet/)).toBeTruthy();
  const text = result.textContent ?? '';
  expect(count(text, '48 hours')).toBe(1);
  expect(count(text, `up to ${NEGATIVE_TTL_WORDS}`)).toBe(1);
  expect(count(text, 'If you have just')).toBe(1);
  expect(result.querySelector('[data-code="not-found"]')?.textContent).toContain('48 hours');
});

test('under the badge that says the site cannot be reached, the result does not say it again', async () => {
  const app = await startTestApp();
  await saveProgress(app, {
    domain: `shop.${ZONE}`,
    step: 'certificate',
    verifiedAt: Date.now() - 2 * MINUTE,
  });
  const { user } = await openDomains(app);
  await user.click(screen.getByRole('button', { name: `Resume shop.${ZONE}` }));
  const heading = await expectStep(6, 'Certificate');
  const step = heading.closest('section')!;
  await user.click(await screen.findByRole('button', { name: 'Check certificate' }));
  const result = screen.getByRole('status', { name: 'Certificate check result' });
  await within(result).findAllByRole('listitem', {}, { timeout: 15_000 });
  // Main keeps one verdict: the clerk's check is the badge's too.
  const badge = await within(step).findByText('Site not reachable', {}, { timeout: 15_000 });
  expect(badge.className).toContain('domain-badge');

  expect(within(step).queryByText(/could not be reached over https/)).toBeNull();
  expect(result.textContent).toMatch(/^Checked https:\/\/shop\./);
});

test('the names a certificate covers are listed once', async () => {
  const { checkCertificate } = (await import(
    /* @vite-ignore */ CERTIFICATE_CHECK
  )) as CertificateCheckModule;
  const report = await checkCertificate({
    domain: 'shop.example.com',
    host: '127.0.0.1',
    port: tls.port,
    timeoutMs: 5000,
  });
  expect(report.findings.map((finding) => finding.code)).toContain('certificate-name-mismatch');

  render(<CertificateResult check={{ kind: 'done', report }} verdictShown={false} />);
  const result = screen.getByRole('status', { name: 'Certificate check result' });
  expect(count(result.textContent ?? '', 'default.platform.invalid')).toBe(1);
  expect(count(result.textContent ?? '', 'www.platform.invalid')).toBe(1);
  // Without a badge beside it, the verdict is said, once.
  expect(count(result.textContent ?? '', 'has a problem')).toBe(1);
});
