// store-admin and a gateway's 429: it says who is limiting (a gateway, not
// the service's quota), exits 8 with the time and the way to end the hold on
// purpose, and --try-now sends exactly one request through the hold, as the
// app's "Try now" button does. Run as its own process against a crafted
// service on loopback, which counts every request.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run.ts';
import { runCliProcess } from '../support/cli-process.ts';
import { answer, scriptedServer } from '../support/scripted-server.ts';
import { useScratch } from '../support/scratch.ts';

const KEY = 'crafted-key-try-now-0123';
const scratch = useScratch('cli-try-now');
const { folder } = scratch;

describe('store-admin behind a gateway that limits requests', () => {
  it('names the gateway, exits 8 with --try-now in the message, and --try-now sends one request', async () => {
    let limiting = true;
    const server = await scriptedServer((_req, res) => {
      if (limiting) {
        // nginx's limit_req with a Retry-After added: ten minutes, longer than a run waits.
        res.writeHead(429, { 'content-type': 'text/html', 'retry-after': '600' });
        res.end('<html><body><h1>429 Too Many Requests</h1></body></html>');
        return;
      }
      answer(res, 200, [], {
        'x-ratelimit-limit': '300',
        'x-ratelimit-remaining': '295',
        'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 40),
      });
    });
    scratch.later(() => server.close());
    const dataDir = folder();
    const cli = (...args: string[]) =>
      runCliProcess([...args, '--base-url', server.baseUrl], {
        STORE_ADMIN_API_KEY: KEY,
        STORE_ADMIN_DATA_DIR: dataDir,
        STORE_ADMIN_CACHE_DIR: join(dataDir, 'cache'),
      });

    const limited = await cli('orders', 'list');
    expect(limited.code).toBe(EXIT.held);
    expect(limited.stderr).toContain(
      `A gateway between this computer and the store service is limiting requests: the address ${new URL(server.baseUrl).host} (or something between it and this computer) answered 429 Too Many Requests`,
    );
    expect(limited.stderr).not.toContain('quota for this period is used up');
    expect(limited.stderr).toContain('run the same command with --try-now');
    expect(server.requests).toHaveLength(1);

    // The next run knows the hold and sends nothing.
    const again = await cli('orders', 'list');
    expect(again.code).toBe(EXIT.held);
    expect(again.stderr).toContain('Nothing was sent.');
    expect(server.requests).toHaveLength(1);

    // The gateway lets requests through again; the clerk ends the hold on purpose.
    limiting = false;
    const tried = await cli('quota', '--try-now');
    expect(tried.code).toBe(EXIT.ok);
    expect(tried.stdout).toContain('The service answered.');
    expect(tried.stdout).toContain('Quota: 295 of 300 requests left');
    expect(server.requests).toHaveLength(2);

    const listed = await cli('orders', 'list');
    expect(listed.code).toBe(EXIT.ok);
    expect(server.requests).toHaveLength(3);
  });

  it('--try-now through a hold that the answer renews says so, and sends no second request', async () => {
    const server = await scriptedServer((_req, res) => {
      res.writeHead(429, { 'content-type': 'text/html', 'retry-after': '600' });
      res.end('<html><body><h1>429 Too Many Requests</h1></body></html>');
    });
    scratch.later(() => server.close());
    const dataDir = folder();
    const cli = (...args: string[]) =>
      runCliProcess([...args, '--base-url', server.baseUrl], {
        STORE_ADMIN_API_KEY: KEY,
        STORE_ADMIN_DATA_DIR: dataDir,
        STORE_ADMIN_CACHE_DIR: join(dataDir, 'cache'),
      });
    expect((await cli('orders', 'cancel', '42')).code).toBe(EXIT.held);
    expect(server.requests).toHaveLength(1);
    const tried = await cli('orders', 'cancel', '42', '--try-now');
    expect(tried.code).toBe(EXIT.held);
    expect(tried.stderr).toContain('limiting requests');
    // The one request went through the hold (a GET, as the app's button sends); no DELETE followed.
    expect(server.requests.map((r) => r.method)).toEqual(['DELETE', 'GET']);
  });
});
