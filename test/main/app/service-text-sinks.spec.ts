// Text a hostile or broken service sends, through the main-process services
// as the app wires them: a key it echoes back, JSON-escaped (`/` as `\/`, as
// PHP's json_encode writes it, or as \u escapes), never reaches the renderer,
// the cancel log on disk, the log's CSV export or the app's log file; control
// characters (C0 and C1, such as 0x9B, a terminal's CSI) are gone from what
// the renderer is shown.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppLog } from '../../../src/main/desktop/log.ts';
import { spellingsOf } from '../../../src/main/store-api/service-text.ts';
import { cancelLogCsv } from '../../../src/renderer/src/features/orders/orders-csv.ts';
import type { CancelLogEntry } from '../../../src/shared/orders-local.ts';
import type { Result } from '../../../src/shared/result.ts';
import { startInProcessApp, type InProcessApp } from '../../support/in-process-app.ts';
import { answer, scriptedServer, type ScriptedServer } from '../../support/scripted-server.ts';

/** A key with the characters escapes change: `/` and `+`. */
const KEY = 'Zm9v/YmFy+cXV4==';
/** The key as PHP's json_encode writes it inside a JSON string. */
const ESCAPED_SLASH = KEY.replaceAll('/', '\\/');
/** The key with every character as a \u escape. */
const UNICODE_ESCAPED = [...KEY]
  .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  .join('');

const opened: Array<{ close(): Promise<void> }> = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((thing) => thing.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A service that refuses everything, echoing the key (escaped) and control characters. */
async function echoingService(): Promise<ScriptedServer> {
  const server = await scriptedServer((req, res) => {
    const body =
      req.method === 'DELETE'
        ? `{"code":"bad_request","message":"Cannot cancel with key ${UNICODE_ESCAPED}\\u009b2J\\u001b[31m now"}`
        : `{"code":"unauthorized","message":"Invalid API key ${ESCAPED_SLASH}\\u009b31m","status":401}`;
    answer(res, req.method === 'DELETE' ? 400 : 401, body, { 'content-type': 'application/json' });
  });
  opened.push(server);
  return server;
}

async function appOn(server: ScriptedServer): Promise<InProcessApp> {
  const app = await startInProcessApp({
    settings: { activeEnvironment: 'production', baseUrls: { production: server.baseUrl } },
  });
  opened.push(app);
  const set = (await app.api.keys.set('production', KEY)) as Result<unknown>;
  expect(set.ok).toBe(true);
  return app;
}

/** Whether `text` holds the key in any spelling an echo gives it. */
function holdsKey(text: string): boolean {
  return spellingsOf(KEY).some((spelling) => text.includes(spelling));
}

describe('an echoed key and control characters from the service', () => {
  it('reach neither the renderer, the cancel log, its CSV export nor the log file', async () => {
    const server = await echoingService();
    const app = await appOn(server);
    const before = app.received.length;

    const list = await app.readList('orders:list', 'production');
    const cancel = (await app.api.orders.cancel('production', '201')) as Result<unknown>;
    expect(list.result).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    expect(cancel).toMatchObject({ ok: false, error: { kind: 'bad-request' } });
    // The service's words are still passed on, with the key taken out.
    const listMessage = (list.result as { error: { message: string } }).error.message;
    expect(listMessage).toContain('The service said: “Invalid API key [API key]');
    const cancelMessage = (cancel as { error: { message: string } }).error.message;
    expect(cancelMessage).toContain('Cannot cancel with key [API key]');

    // The renderer: every result and event it was given since the key was set.
    const shown = JSON.stringify(app.received.slice(before));
    expect(holdsKey(shown)).toBe(false);
    // eslint-disable-next-line no-control-regex
    expect(`${listMessage}${cancelMessage}`).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);

    // The cancel log on disk, and as the renderer exports it.
    const logFiles = readdirSync(app.dataDir).filter((name) => name.startsWith('cancel-log-'));
    expect(logFiles).toHaveLength(1);
    const onDisk = readFileSync(join(app.dataDir, logFiles[0]!), 'utf8');
    expect(onDisk).toContain('"result":"failed"');
    expect(holdsKey(onDisk)).toBe(false);
    const entries = (await app.api.cancelLog.list('production')) as Result<CancelLogEntry[]>;
    expect(entries.ok && entries.value).toHaveLength(1);
    const csv = cancelLogCsv(entries.ok ? entries.value : []);
    expect(csv).toContain('Cannot cancel with key [API key]');
    expect(holdsKey(csv)).toBe(false);

    // The app's log file, given the failures and the raw body a library might put in an error.
    const logs = mkdtempSync(join(tmpdir(), 'store-admin-logs-'));
    dirs.push(logs);
    const log = createAppLog({ dir: logs, secrets: () => [KEY] });
    log.error('orders:list failed', list.result);
    log.error('orders:cancel failed', cancel);
    log.error(new Error(`body: {"message":"Invalid API key ${ESCAPED_SLASH}"}`));
    log.error(`query: key=${encodeURIComponent(KEY)}`);
    const logged = readFileSync(log.file, 'utf8');
    expect(logged).toContain('orders:cancel failed');
    expect(holdsKey(logged)).toBe(false);
  });

  it('never passes on a deprecation link that carries the key, and prints none raw', async () => {
    const server = await scriptedServer((_req, res) =>
      answer(res, 200, '[]', {
        'content-type': 'application/json',
        deprecation: '@1893456000',
        link: `<https://docs.example/sunset?key=${KEY}>; rel="deprecation"`,
      }),
    );
    opened.push(server);
    const app = await appOn(server);
    expect((await app.readList('orders:list', 'production')).result.ok).toBe(true);
    const notices = (await app.api.deprecations.list('production')) as Result<
      Array<{ link?: string }>
    >;
    expect(notices.ok && notices.value).toHaveLength(1);
    expect(notices.ok && notices.value[0]!.link).toBeUndefined();
    expect(holdsKey(JSON.stringify(app.received))).toBe(false);
  });
});
