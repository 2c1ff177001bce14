// Ctrl-C sends nothing more, also what waits at the gate: a bulk cancel
// behind nginx whose limit holds it for a minute (limit_req, one request a
// minute, its 429 with Retry-After: 60) is interrupted in the middle of the
// hold, and nginx's access log shows no request after the signal. Found from
// outside: SIGINT at 13:12:50, and a DELETE waiting at the gate reached the
// service at 13:13:00 and cancelled its order.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeBehindNginx, limitedGateway } from './gateway-support.ts';

async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`never reached: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeBehindNginx('Ctrl-C behind a gateway that holds the run for a minute', () => {
  it('sends nothing after the signal: the DELETE waiting at the gate is dropped, not sent when the hold ends', async () => {
    const stack = await limitedGateway('1r/m', 60);
    const ids = stack.sandbox.orderIds({ status: 'pending' }).slice(0, 6);
    const file = join(stack.dataDir, 'ids.txt');
    writeFileSync(file, `${ids.join('\n')}\n`);
    const child = spawn(
      process.execPath,
      ['bin/store-admin.js', 'orders', 'cancel', '--from', file, '--base-url', stack.baseUrl],
      {
        env: {
          ...process.env,
          STORE_ADMIN_API_KEY: 'demo-pro',
          STORE_ADMIN_DATA_DIR: stack.dataDir,
          STORE_ADMIN_CACHE_DIR: join(stack.dataDir, 'cache'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

    // The first DELETE passes; the next meets the gateway's 429 and its minute's hold.
    await until(
      async () => (await stack.nginx.accessLog()).some((entry) => entry.status === 429),
      'the gateway’s 429',
    );
    // Mid-hold: both workers wait (one at the gate, one for the hold's end).
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const signalledAt = Date.now();
    child.kill('SIGINT');
    const code = await exited;
    const exitedAt = Date.now();
    const log = await stack.nginx.accessLog();
    const after = log.filter((entry) => entry.at - entry.ms >= signalledAt);
    console.log(
      `Ctrl-C run (CLI): ${log.length} requests before the signal (${log.map((e) => e.status).join(', ')}), ${after.length} after it; exited ${exitedAt - signalledAt} ms after it with code ${code}`,
    );
    expect(after).toHaveLength(0);
    // It stopped at once, not when the hold ended a minute later.
    expect(exitedAt - signalledAt).toBeLessThan(30_000);
    expect(code).toBe(1);
    expect(stderr).toContain('--resume');
    expect(ids.filter((id) => stack.sandbox.orderStatus(id) === 'cancelled')).toHaveLength(1);
  });
});
