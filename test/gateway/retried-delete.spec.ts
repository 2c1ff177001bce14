// A DELETE that the service carried out before the connection was cut (the
// sandbox's reset fault: it cancels, then drops the answer), behind nginx:
// - with proxy_next_upstream on (nginx's default for an idempotent DELETE),
//   nginx sends it again and the retry meets 404: the client sees one 404,
//   for an order its last list held, and says it "no longer exists" (perhaps
//   by this very cancel), never "there was nothing to cancel";
// - with it off, nginx answers its 502 page: store-admin retries, meets 404,
//   and says "gone", naming what the first try met (the address, or
//   something between it and this computer), not the store service.
// What nginx did is read from its access log (`upstream_status` "502, 404").

import { expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run.ts';
import {
  cli,
  proxyTo,
  sandboxBehindNginx,
  type Stack,
  describeBehindNginx,
} from './gateway-support.ts';

/** The sandbox behind nginx, listed twice as nginx's upstream (so a retry has somewhere to go). */
async function behindRetryingNginx(nextUpstream: string): Promise<{
  stack: Stack;
  cutNextDelete: () => void;
}> {
  let cutting = false;
  const stack: Stack = await sandboxBehindNginx(
    (upstream, port) => `upstream store {
    server 127.0.0.1:${upstream} max_fails=0;
    server 127.0.0.1:${upstream} max_fails=0;
  }
  server {
    listen 127.0.0.1:${port};
    ${proxyTo('store', `proxy_next_upstream ${nextUpstream};`)}
  }`,
    {
      orders: 40,
      faults: 'latency=1@1',
      // Called for each request after its fault roll: the cut is for the next DELETE only.
      sleep: async () => {
        if (!cutting) return;
        cutting = false;
        queueMicrotask(() => stack.sandbox.setFaults('latency=1@1'));
      },
    },
  );
  return {
    stack,
    cutNextDelete: () => {
      cutting = true;
      stack.sandbox.setFaults('latency=1@1,reset@1');
    },
  };
}

describeBehindNginx('a DELETE carried out, its answer cut, behind nginx', () => {
  it('proxy_next_upstream on: nginx sends it again, 404; the order the last list held "no longer exists"', async () => {
    const { stack, cutNextDelete } = await behindRetryingNginx('error timeout');
    expect((await cli(stack, ['orders', 'list'])).code).toBe(EXIT.ok);
    const [id] = stack.sandbox.orderIds({ status: 'pending' });
    cutNextDelete();
    const run = await cli(stack, ['orders', 'cancel', id!, '--json']);
    const out = JSON.parse(run.stdout) as { outcome: string; message: string };
    const line = (await stack.nginx.accessLogText()).trim().split('\n').at(-1)!;
    console.log(
      `retried DELETE (proxy_next_upstream on): exit ${run.code}, ${out.outcome}: ${out.message}\n  nginx: ${line}`,
    );
    // This very request cancelled it, through nginx's first try.
    expect(stack.sandbox.orderStatus(id!)).toBe('cancelled');
    expect(JSON.parse(line)).toMatchObject({
      method: 'DELETE',
      status: 404,
      upstreamStatus: '502, 404',
    });
    expect(run.code).toBe(EXIT.notFound);
    expect(out.outcome).toBe('not-found');
    expect(out.message).toMatch(
      new RegExp(
        `^Order ${id} no longer exists: it was in the list of \\d\\d:\\d\\d and has been cancelled or removed since \\(perhaps by this very cancel, if the network sent it twice\\)\\.`,
      ),
    );
    expect(out.message).not.toContain('nothing to cancel');
  });

  it('proxy_next_upstream off: nginx’s 502 page, a retry, 404: "gone", and the 502 is the address’s', async () => {
    const { stack, cutNextDelete } = await behindRetryingNginx('off');
    const [id] = stack.sandbox.orderIds({ status: 'pending' });
    cutNextDelete();
    const run = await cli(stack, ['orders', 'cancel', id!, '--json']);
    const out = JSON.parse(run.stdout) as { outcome: string; message: string };
    const log = await stack.nginx.accessLog();
    console.log(
      `cut DELETE (proxy_next_upstream off): exit ${run.code}, ${out.outcome}: ${out.message}\n  nginx: ${log.map((e) => `${e.method} ${e.status} (upstream ${e.upstreamStatus})`).join('; ')}`,
    );
    expect(stack.sandbox.orderStatus(id!)).toBe('cancelled');
    expect(log.map((e) => e.status)).toEqual([502, 404]);
    expect(run.code).toBe(EXIT.gone);
    expect(out).toMatchObject({
      outcome: 'gone',
      message: `Order ${id} is gone: the address 127.0.0.1:${stack.nginx.port} (or something between it and this computer) answered the first try with 502 Bad Gateway, which does not say whether it was done, so this cancel may or may not have removed it.`,
    });
  });
});
