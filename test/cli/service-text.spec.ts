// What the store-admin command prints of what a service sent, run as its own
// process against crafted services on loopback: an echoed key never reaches
// stdout or stderr, however it was escaped; control characters (C0 and C1)
// never reach the terminal; a web page where the list should be is called
// one; a list that starts with a byte-order mark is read.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run.ts';
import { spellingsOf } from '../../src/main/store-api/service-text.ts';
import { runCliProcess } from '../support/cli-process.ts';
import {
  answer,
  scriptedServer,
  type Script,
  type ScriptedServer,
} from '../support/scripted-server.ts';

const KEY = 'Zm9v/YmFy+cXV4==';
const dataDir = mkdtempSync(join(tmpdir(), 'store-admin-cli-text-'));
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function serve(script: Script): Promise<ScriptedServer> {
  const server = await scriptedServer(script);
  servers.push(server);
  return server;
}

function cli(server: ScriptedServer, ...args: string[]) {
  return runCliProcess([...args, '--base-url', server.baseUrl], {
    STORE_ADMIN_API_KEY: KEY,
    STORE_ADMIN_DATA_DIR: dataDir,
  });
}

const holdsKey = (text: string) => spellingsOf(KEY).some((spelling) => text.includes(spelling));
// Line ends are the command's own; anything else below 0x20, DEL and C1 must not be printed.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('store-admin prints what the service said, made safe', () => {
  it('never prints an echoed key, escaped with \\/ or \\u, nor a control character', async () => {
    const unicodeEscaped = [...KEY]
      .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('');
    const server = await serve((req, res) =>
      req.method === 'DELETE'
        ? answer(
            res,
            401,
            `{"code":"unauthorized","message":"Key ${unicodeEscaped} refused\\u009b2J\\u001b]0;owned\\u0007"}`,
            { 'content-type': 'application/json' },
          )
        : answer(
            res,
            401,
            `{"code":"unauthorized","message":"Invalid API key ${KEY.replaceAll('/', '\\/')}\\u009b31m"}`,
            { 'content-type': 'application/json' },
          ),
    );
    for (const args of [
      ['orders', 'list'],
      ['orders', 'list', '--json'],
      ['orders', 'cancel', '201'],
      ['orders', 'cancel', '201', '--json'],
      ['quota'],
    ]) {
      const run = await cli(server, ...args);
      const printed = `${run.stdout}${run.stderr}`;
      expect(run.code, args.join(' ')).toBe(EXIT.failed);
      // The connection test reads no body; the others pass the service's words on.
      if (args[0] === 'orders') expect(printed, args.join(' ')).toContain('[API key]');
      expect(holdsKey(printed), args.join(' ')).toBe(false);
      expect(printed, args.join(' ')).not.toMatch(CONTROLS);
      if (args.includes('--json')) {
        // JSON writes a control character as an escape: the parsed message must hold none either.
        const { error } = JSON.parse(run.stdout) as { error: { message: string } };
        expect(error.message).not.toMatch(CONTROLS);
        expect(holdsKey(error.message)).toBe(false);
      }
    }
  });

  it('prints a deprecation link with its unprintable characters encoded', async () => {
    const server = await serve((_req, res) =>
      answer(res, 200, '[]', {
        'content-type': 'application/json',
        deprecation: '@1893456000',
        link: '<https://docs.example/v2\x9b31m>; rel="deprecation"',
      }),
    );
    const run = await cli(server, 'orders', 'list');
    expect(run.code).toBe(EXIT.ok);
    expect(run.stderr).toContain('Read more: https://docs.example/v2%C2%9B31m');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(CONTROLS);
  });

  it('says the service answered with a web page, not that the list was cut off', async () => {
    const server = await serve((_req, res) =>
      answer(res, 200, '<!DOCTYPE html><html><body>Please sign in</body></html>', {
        'content-type': 'text/html',
      }),
    );
    const run = await cli(server, 'orders', 'list');
    expect(run.code).toBe(EXIT.failed);
    expect(run.stderr).toContain('answered with a web page, not the store service');
    expect(run.stderr).not.toContain('cut off');
  });

  it('reads a list that starts with a byte-order mark', async () => {
    const server = await serve((_req, res) =>
      answer(res, 200, '\uFEFF[{"id":9007199254740993,"quantity":1},{"id":7}]', {
        'content-type': 'application/json',
      }),
    );
    const run = await cli(server, 'orders', 'list', '--json');
    expect(run.code).toBe(EXIT.ok);
    const out = JSON.parse(run.stdout) as { count: number; orders: Array<{ id: string }> };
    expect(out.count).toBe(2);
    expect(out.orders.map((order) => order.id)).toEqual(['9007199254740993', '7']);
  });
});
