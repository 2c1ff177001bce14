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
  it('keeps progress, settings and config per published project across restarts', async () => {
    const first = new DomainWorkspaceStore(dir);
    const shop = (await first.addProject('Pet Shop')).project;
    const blog = (await first.addProject('  Pet Blog ')).project;
    expect([shop, blog]).toEqual([
      { id: 'pet-shop', name: 'Pet Shop' },
      { id: 'pet-blog', name: 'Pet Blog' },
    ]);
    // The same name (as the id reads it) is the same project.
    expect((await first.addProject('pet shop')).projects).toHaveLength(2);
    await first.saveSettings('pet-shop', { target: 'proxy.platform.example' });
    await first.saveProgress('pet-shop', progress('shop.example.com', 'check-dns'));
    await first.saveProgress('pet-blog', progress('blog.example.com', 'verify'));
    await first.saveConfig('pet-shop', {
      primary: 'shop.example.com',
      redirects: [{ from: 'www.example.com', to: 'shop.example.com', status: 301 }],
    });
    const second = new DomainWorkspaceStore(dir);
    expect(await second.projects()).toEqual([shop, blog]);
    const petShop = await second.get('pet-shop');
    expect(petShop.settings.target).toBe('proxy.platform.example');
    expect(Object.keys(petShop.progress)).toEqual(['shop.example.com']);
    expect(petShop.config?.primary).toBe('shop.example.com');
    expect(Object.keys((await second.get('pet-blog')).progress)).toEqual(['blog.example.com']);
    await second.removeProgress('pet-shop', 'shop.example.com');
    expect((await new DomainWorkspaceStore(dir).get('pet-shop')).progress).toEqual({});
  });

  it('loses no change made at the same time, nor to a read that started before it', async () => {
    const store = new DomainWorkspaceStore(dir);
    await store.addProject('Pet Shop');
    // A first read (the domain watcher's, at start) still on its way when changes arrive.
    const early = store.get('pet-shop');
    await Promise.all([
      store.saveSettings('pet-shop', { target: 'proxy.platform.example' }),
      store.saveProgress('pet-shop', progress('shop.example.com', 'check-dns')),
      store.saveProgress('pet-shop', progress('www.example.com', 'verify')),
      store.addProject('Pet Blog'),
      store.addProject('Pet Toys'),
    ]);
    await early;
    const kept = await store.get('pet-shop');
    expect(kept.settings).toEqual({ target: 'proxy.platform.example' });
    expect(Object.keys(kept.progress).sort()).toEqual(['shop.example.com', 'www.example.com']);
    expect((await store.projects()).map((project) => project.id)).toEqual([
      'pet-shop',
      'pet-blog',
      'pet-toys',
    ]);
    // And on disk, as a new start reads it.
    const again = new DomainWorkspaceStore(dir);
    expect(Object.keys((await again.get('pet-shop')).progress)).toHaveLength(2);
    expect(await again.projects()).toHaveLength(3);
  });

  it('refuses a project name with nothing to name it by', async () => {
    const store = new DomainWorkspaceStore(dir);
    await expect(store.addProject('  ')).rejects.toThrow(/Enter the project’s name/);
    await expect(store.addProject('—!—')).rejects.toThrow(/at least one letter or digit/);
    expect(await store.projects()).toEqual([]);
  });

  it('keeps what still validates from a damaged file', async () => {
    await writeFile(
      join(dir, 'domain-projects.json'),
      JSON.stringify({ version: 1, projects: [{ id: 'shop', name: 'Shop' }] }),
    );
    await writeFile(
      join(dir, 'domains-project-shop.json'),
      JSON.stringify({
        settings: { target: 7 },
        progress: { x: progress('x.example.com', 'live') },
      }),
    );
    const workspace = await new DomainWorkspaceStore(dir).get('shop');
    expect(workspace.settings).toEqual({});
    expect(Object.keys(workspace.progress)).toEqual(['x']);
  });

  it('turns the work older versions kept per environment into projects of their own, losing nothing', async () => {
    await writeFile(
      join(dir, 'domains-sandbox.json'),
      JSON.stringify({
        settings: { target: 'proxy.platform.example' },
        progress: { 'shop.example.com': progress('shop.example.com', 'verify') },
      }),
    );
    // An environment whose file holds nothing becomes no project.
    await writeFile(
      join(dir, 'domains-staging.json'),
      JSON.stringify({ settings: {}, progress: {} }),
    );
    const store = new DomainWorkspaceStore(dir);
    expect(await store.projects()).toEqual([
      { id: 'domains-saved-under-sandbox', name: 'Domains saved under Sandbox' },
    ]);
    const moved = await new DomainWorkspaceStore(dir).get('domains-saved-under-sandbox');
    expect(moved.settings.target).toBe('proxy.platform.example');
    expect(Object.keys(moved.progress)).toEqual(['shop.example.com']);
    // Read once: a project added later is not joined by the old files again.
    await store.addProject('Pet Shop');
    expect((await new DomainWorkspaceStore(dir).projects()).map((p) => p.id)).toEqual([
      'domains-saved-under-sandbox',
      'pet-shop',
    ]);
  });
});

describe('domain channels', () => {
  it('refuses a bad domain in plain words, a malformed progress record and a project not added', async () => {
    const app = await startInProcessApp();
    try {
      const unknown = await app.api.domains.saveProgress(
        'pet-shop',
        progress('x.example.com', 'add-domain'),
      );
      expect(unknown).toMatchObject({
        ok: false,
        error: { kind: 'invalid-input', message: /not in the list of projects/ },
      });
      const added = await app.api.domains.addProject('Pet Shop');
      expect(added).toMatchObject({ ok: true, value: { project: { id: 'pet-shop' } } });
      const badName = await app.api.domains.addProject('!!!');
      expect(badName).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
      const check = await app.api.domains.check('pet-shop', {
        domain: 'not a host!',
        target: 'proxy.example',
      });
      expect(check).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
      const bad = await app.invoke('domains:save-progress', 'pet-shop', {
        domain: 'x.example.com',
        step: 'teleport',
      });
      expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
      const good = await app.api.domains.saveProgress(
        'pet-shop',
        progress('x.example.com', 'add-domain'),
      );
      // A project id that is no file name never reaches the disk.
      const path = await app.invoke('domains:workspace', '../secrets');
      expect(path).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
      expect(good.ok && Object.keys(good.value.progress)).toEqual(['x.example.com']);
    } finally {
      await app.close();
    }
  });

  it('checks DNS through the DNS server the clerk saved for the project, and no other', async () => {
    const dns = await startDnsTestServer({
      records: [
        { name: 'edge.platform.invalid', type: 'A', data: '203.0.113.10' },
        { name: 'shop.pets.invalid', type: 'CNAME', data: 'edge.platform.invalid' },
      ],
      zones: [{ name: 'pets.invalid', soaTtl: 900, minimum: 300 }],
    });
    const app = await startInProcessApp();
    try {
      await app.api.domains.addProject('Pet Shop');
      await app.api.domains.saveSettings('pet-shop', { resolver: dns.address });
      const check = await app.api.domains.check('pet-shop', {
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
      await app.api.domains.addProject('Pet Shop');
      await app.api.domains.saveSettings('pet-shop', { resolver: dns.address });
      const report = await app.api.domains.certificate('pet-shop', { domain: 'shop.pets.invalid' });
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
