import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DomainWorkspaceStore } from '../../../src/main/domains/workspace-store.ts';
import type { DomainProgress } from '../../../src/shared/domain-assistant.ts';
import { startDnsTestServer } from '../../../tools/loopback/dns-test-server.ts';
import { startInProcessApp } from '../../support/in-process-app.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'domains-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const progress = (domain: string, step: DomainProgress['step']): DomainProgress => ({
  domain,
  step,
  preconditions: { paidPlan: true, dnsAccess: true, deployed: true },
  updatedAt: 1,
});

describe('DomainWorkspaceStore', () => {
  it('keeps progress, settings and config per environment across restarts', async () => {
    const first = new DomainWorkspaceStore(dir);
    await first.saveSettings('production', { target: 'proxy.platform.example' });
    await first.saveProgress('production', progress('shop.example.com', 'check-dns'));
    await first.saveProgress('staging', progress('stage.example.com', 'verify'));
    await first.saveConfig('production', {
      primary: 'shop.example.com',
      redirects: [{ from: 'www.example.com', to: 'shop.example.com', status: 301 }],
    });
    const second = new DomainWorkspaceStore(dir);
    const production = await second.get('production');
    expect(production.settings.target).toBe('proxy.platform.example');
    expect(Object.keys(production.progress)).toEqual(['shop.example.com']);
    expect(production.config?.primary).toBe('shop.example.com');
    expect(Object.keys((await second.get('staging')).progress)).toEqual(['stage.example.com']);
    await second.removeProgress('production', 'shop.example.com');
    expect((await new DomainWorkspaceStore(dir).get('production')).progress).toEqual({});
  });

  it('keeps what still validates from a damaged file', async () => {
    await writeFile(
      join(dir, 'domains-sandbox.json'),
      JSON.stringify({
        settings: { target: 7 },
        progress: { x: progress('x.example.com', 'live') },
      }),
    );
    const workspace = await new DomainWorkspaceStore(dir).get('sandbox');
    expect(workspace.settings).toEqual({});
    expect(Object.keys(workspace.progress)).toEqual(['x']);
  });
});

describe('domain channels', () => {
  it('refuses a bad domain in plain words and a malformed progress record', async () => {
    const app = await startInProcessApp();
    try {
      const check = await app.api.domains.check('sandbox', {
        domain: 'not a host!',
        target: 'proxy.example',
      });
      expect(check).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
      const bad = await app.invoke('domains:save-progress', 'sandbox', {
        domain: 'x.example.com',
        step: 'teleport',
      });
      expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
      const good = await app.api.domains.saveProgress(
        'sandbox',
        progress('x.example.com', 'add-domain'),
      );
      expect(good.ok && Object.keys(good.value.progress)).toEqual(['x.example.com']);
    } finally {
      await app.close();
    }
  });

  it('checks DNS through the DNS server the clerk saved for the environment, and no other', async () => {
    const dns = await startDnsTestServer({
      records: [
        { name: 'edge.platform.invalid', type: 'A', data: '203.0.113.10' },
        { name: 'shop.pets.invalid', type: 'CNAME', data: 'edge.platform.invalid' },
      ],
      zones: [{ name: 'pets.invalid', soaTtl: 900, minimum: 300 }],
    });
    const app = await startInProcessApp();
    try {
      await app.api.domains.saveSettings('staging', { resolver: dns.address });
      const check = await app.api.domains.check('staging', {
        domain: 'shop.pets.invalid',
        target: 'edge.platform.invalid',
      });
      expect(check).toMatchObject({ ok: true, value: { resolver: dns.address, status: 'ready' } });
      expect(dns.asked.length).toBeGreaterThan(0);
    } finally {
      await app.close();
      await dns.close();
    }
  });

  it('looks the site up for the certificate check through the saved DNS server too', async () => {
    const dns = await startDnsTestServer({
      // Loopback, where nothing serves port 443: the connection is refused at once.
      records: [{ name: 'shop.pets.invalid', type: 'A', data: '127.0.0.1' }],
      zones: [{ name: 'pets.invalid', soaTtl: 900, minimum: 300 }],
    });
    const app = await startInProcessApp();
    try {
      await app.api.domains.saveSettings('staging', { resolver: dns.address });
      const report = await app.api.domains.certificate('staging', { domain: 'shop.pets.invalid' });
      expect(report).toMatchObject({
        ok: true,
        value: { domain: 'shop.pets.invalid', host: '127.0.0.1', port: 443 },
      });
      expect(dns.asked.some((q) => q.name === 'shop.pets.invalid' && q.type === 'A')).toBe(true);
    } finally {
      await app.close();
      await dns.close();
    }
  });
});
