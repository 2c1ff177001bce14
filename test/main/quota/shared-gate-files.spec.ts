// The gate's record in files shared by every process using one key at one
// address: two gates over one folder stand in for two processes here (the
// CLI loop test runs real ones).

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HeldBackError, RequestGate } from '../../../src/main/quota/gate.ts';
import { SharedGateFolder } from '../../../src/main/quota/shared-gate-files.ts';
import { virtualTiming } from '../../support/virtual-timing.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder() {
  const dir = mkdtempSync(join(tmpdir(), 'quota-'));
  dirs.push(dir);
  const timing = virtualTiming();
  const shared = new SharedGateFolder(dir, timing.now);
  const gate = (baseUrl = 'https://api.example.com/v1', key = 'sk_live_secret-1') =>
    new RequestGate({ timing, store: shared.open(baseUrl, key) });
  return { dir, timing, shared, gate };
}

describe('SharedGateFolder', () => {
  it('holds every process that shares the key and address, and keeps the hold across a restart', async () => {
    const { timing, gate } = folder();
    const app = gate();
    app.hold(timing.now() + 600_000, 'banned');
    const cli = gate();
    await expect(cli.acquire({ maxWaitMs: 10_000 })).rejects.toMatchObject({
      reason: 'banned',
      retryAt: timing.now() + 600_000,
    });
    // Another address, or another key, starts afresh.
    await expect(
      gate('https://staging.example.com/v1').acquire({ maxWaitMs: 0 }),
    ).resolves.toBeDefined();
    await expect(gate(undefined, 'sk_live_other').acquire({ maxWaitMs: 0 })).resolves.toBeDefined();
  });

  it('counts requests in flight from every process against one quota', async () => {
    const { timing, gate } = folder();
    const a = gate();
    const probe = await a.acquire({ maxWaitMs: 0 });
    probe.release({ limit: 60, remaining: 2, resetAt: timing.now() + 30_000 });
    const b = gate();
    const one = await a.acquire({ maxWaitMs: 0 });
    const two = await b.acquire({ maxWaitMs: 0 });
    let thirdIn = false;
    const third = b.acquire({ maxWaitMs: 60_000 }).then((t) => {
      thirdIn = true;
      return t;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(thirdIn).toBe(false);
    one.release({ limit: 60, remaining: 1, resetAt: timing.now() + 30_000 });
    two.release({ limit: 60, remaining: 0, resetAt: timing.now() + 30_000 });
    const start = timing.now();
    (await third).release();
    // The quota was spent by both: the third waited for the window to reset.
    expect(timing.now() - start).toBeGreaterThanOrEqual(30_000);
    expect(a.view().sentToday).toBe(4);
  });

  it('never writes the key, and names the file by a salted hash', () => {
    const { dir, gate } = folder();
    gate().hold(Date.now() + 1000, 'server-429');
    const names = readdirSync(dir);
    expect(names).toContain('salt');
    for (const name of names) {
      expect(name).not.toContain('secret');
      expect(readFileSync(join(dir, name), 'utf8')).not.toContain('sk_live_secret-1');
    }
  });

  it('drops a saved hold that no service could mean (1e23, NaN, garbage) when reading it back', async () => {
    const { dir, timing, gate } = folder();
    gate().hold(timing.now() + 60_000, 'server-429');
    const file = readdirSync(dir).find((name) => name.endsWith('.json'))!;
    const saved = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const holdUntil of [1e23, 'NaN', null, -5]) {
      writeFileSync(
        join(dir, file),
        JSON.stringify({ ...saved, snapshot: { ...saved.snapshot, holdUntil, resetAt: 1e23 } }),
      );
      const view = gate().view();
      expect(view.holdUntil).toBeUndefined();
      expect(view.holdReason).toBeUndefined();
      expect(view.resetAt).toBeUndefined();
      expect(JSON.stringify(view)).not.toContain('NaN');
    }
    writeFileSync(join(dir, file), '{"snapshot": {"known": tr');
    await expect(gate().acquire({ maxWaitMs: 0 })).resolves.toBeDefined();
  });

  it('rejects at once, sending nothing, when the shared hold is longer than the caller waits', async () => {
    const { timing, gate } = folder();
    gate().hold(timing.now() + 120_000, 'server-429');
    const attempt = gate().acquire({ maxWaitMs: 10_000 });
    await expect(attempt).rejects.toBeInstanceOf(HeldBackError);
  });
});
