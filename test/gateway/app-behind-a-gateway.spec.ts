// The app's own main-process services (in-process, behind the API the
// window gets) with Staging behind Debian's nginx:
// - a bulk cancel behind limit_req at 2 requests a second finishes at about
//   the gateway's pace, its holds seconds long (figures from nginx's log);
// - during a gateway's hold of a minute, Stop, Pause, quitting and an address
//   change drop the DELETEs waiting at the gate: nginx's log shows nothing
//   after them, and the job's workers are done at once, not when the hold ends.

import { expect, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from '../support/in-process-app.ts';
import {
  figuresOf,
  type Stack,
  describeBehindNginx,
  afterThisTest,
  limitedGateway,
} from './gateway-support.ts';

async function appAt(stack: Stack): Promise<InProcessApp> {
  const app = await startInProcessApp();
  afterThisTest(() => app.close());
  await app.api.environments.setBaseUrl('staging', stack.baseUrl);
  await app.api.keys.set('staging', 'demo-pro');
  return app;
}

async function until(done: () => Promise<boolean>, what: string, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`never reached: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeBehindNginx('the app behind a gateway’s limit', () => {
  it('a bulk cancel of 12 at a 2 r/s limit finishes at about its pace, holding seconds', async () => {
    const stack = await limitedGateway('2r/s');
    const app = await appAt(stack);
    const ids = stack.sandbox.orderIds({ status: 'pending' }).slice(0, 12);
    expect(await app.api.bulkCancel.start('staging', ids)).toMatchObject({ ok: true });
    await until(async () => {
      const status = await app.api.bulkCancel.status('staging');
      return status.ok && status.value?.status === 'finished';
    }, 'the job finishing');
    const results = await app.api.bulkCancel.results('staging');
    expect(results.ok && results.value.map((r) => r.outcome)).toEqual(ids.map(() => 'cancelled'));
    const figures = figuresOf(await stack.nginx.accessLog());
    console.log(`gateway-429 run (app, 12 DELETEs, limit_req 2r/s): ${JSON.stringify(figures)}`);
    expect(figures.requests - figures.gateway429s).toBe(12);
    expect(figures.longestGapMs).toBeLessThan(31_000);
    expect(figures.gateway429s).toBeLessThan(12);
    // The service's quota was never taken for used up.
    const quota = await app.api.quota.get('staging');
    expect(quota.ok && quota.value.holdReason).not.toBe('quota-exhausted');
  });

  for (const how of ['Stop', 'Pause', 'quit', 'address change'] as const) {
    it(`${how} during a gateway’s minute-long hold: nothing more is sent`, async () => {
      const stack = await limitedGateway('1r/m', 60);
      const app = await appAt(stack);
      const ids = stack.sandbox.orderIds({ status: 'pending' }).slice(0, 6);
      await app.api.bulkCancel.start('staging', ids);
      // The first DELETE passes; the next meets the 429 and its minute.
      await until(
        async () => (await stack.nginx.accessLog()).some((entry) => entry.status === 429),
        'the gateway’s 429',
        30_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const queue = await app.services.bulkCancelOf('staging');
      const stoppedAt = Date.now();
      if (how === 'Stop') await app.api.bulkCancel.stop('staging');
      else if (how === 'Pause') await app.api.bulkCancel.pause('staging');
      else if (how === 'quit') await app.close();
      else
        await app.api.environments.setBaseUrl('staging', (await limitedGateway('10r/s')).baseUrl);
      // The workers are done at once: none waits for the hold's end to send.
      await queue!.idle();
      if (how === 'address change') await app.close();
      const doneAt = Date.now();
      const log = await stack.nginx.accessLog();
      const after = log.filter((entry) => entry.at - entry.ms >= stoppedAt);
      console.log(
        `${how} (app): ${log.length} requests before (${log.map((e) => e.status).join(', ')}), ${after.length} after; done ${doneAt - stoppedAt} ms after`,
      );
      expect(after).toHaveLength(0);
      // Well before the hold's end, and before the call's own deadline (20 s in this app) would end it.
      expect(doneAt - stoppedAt).toBeLessThan(10_000);
      expect(ids.filter((id) => stack.sandbox.orderStatus(id) === 'cancelled')).toHaveLength(1);
    });
  }
});
