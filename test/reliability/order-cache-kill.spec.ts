// The order cache under SIGKILL: a child process writes a ~60 MB cache, whole
// or appended in chunks as a refresh does, and is killed part-way; the next
// read finds the old list or the whole new one, never a torn file, and the
// previous generation stays whole. Eight real processes that each build and
// write 60 MB: minutes on a busy machine, so in the heavy tier beside the
// kill loop (the cache's other tests are in test/main/orders/order-cache.spec.ts).

import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serviceScope } from '../../src/main/environments/service-scope.ts';
import { OrderCache, type CachedOrders } from '../../src/main/orders/order-cache.ts';
import { parseOrders } from '../../src/shared/parse-orders.ts';

const production = serviceScope('production', 'https://api.example.com/v1');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'order-cache-kill-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function list(count: number, receivedAt: number): CachedOrders {
  const orders = Array.from(
    { length: count },
    (_, i) =>
      `{"id":${i + 1},"petId":9007199254740993,"quantity":1,"shipDate":"2026-01-01T00:00:00Z","complete":false}`,
  );
  const body = `[${orders.join(',')}]`;
  return {
    environment: 'production',
    baseUrl: 'https://api.example.com/v1',
    receivedAt,
    count,
    body,
  };
}

describe('OrderCache under SIGKILL', () => {
  it(
    'leaves the previous cache readable when the process is killed mid-write',
    { timeout: 240_000 },
    async () => {
      const cache = new OrderCache(dir);
      await cache.write(list(5, 111));
      const before = await readFile(cache.fileOf(production), 'utf8');
      // A child process writes a ~60 MB cache and is killed with SIGKILL part-way: written whole,
      // or appended in chunks as a refresh does while the list downloads.
      const writers = {
        whole: `await cache.write({ ...meta, receivedAt: 222, count: 600000, body });`,
        streamed: `
        const pending = cache.begin(meta);
        const bytes = Buffer.from(body);
        for (let at = 0; at < bytes.length; at += 65536) await pending.append(bytes.subarray(at, at + 65536));
        await pending.commit(600000, 222);`,
      };
      const script = (writer: string) => `
      import { OrderCache } from ${JSON.stringify(join(process.cwd(), 'src/main/orders/order-cache.ts'))};
      const body = '[' + Array.from({ length: 600000 }, (_, i) => '{"id":' + (i + 1) + ',"petId":1,"quantity":1,"shipDate":"2026-01-01T00:00:00Z","complete":false}').join(',') + ']';
      const cache = new OrderCache(${JSON.stringify(dir)});
      const meta = { environment: 'production', baseUrl: 'https://api.example.com/v1' };
      process.stdout.write('writing\\n');
      ${writer}
      process.stdout.write('done\\n');
    `;
      const interrupted = new Map<string, number>();
      const runs = [0, 5, 20, 60].flatMap((delayMs) =>
        Object.values(writers).map((writer) => ({ delayMs, writer })),
      );
      for (const { delayMs, writer } of runs) {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script(writer)], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        await new Promise<void>((resolve) => {
          child.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            if (out.includes('writing') && !child.killed)
              setTimeout(() => child.kill('SIGKILL'), delayMs);
          });
          child.on('exit', () => resolve());
        });
        const read = await cache.read(production);
        expect(read.ok, `killed after ${delayMs} ms: ${writer}`).toBe(true);
        // The previous generation is a whole list too, whenever the kill came.
        const previous = await cache.read(production, 'previous');
        expect(previous.ok || previous.problem === 'missing', `previous, ${delayMs} ms`).toBe(true);
        if (!read.ok) continue;
        // Either the old list or, if the write beat the kill, the whole new one: never a torn file.
        if (read.value.receivedAt === 111) {
          interrupted.set(writer, (interrupted.get(writer) ?? 0) + 1);
          expect(await readFile(cache.fileOf(production), 'utf8')).toBe(before);
        } else {
          expect(parseOrders(read.value.body)).toHaveLength(600000);
        }
      }
      // The kill did land mid-write at least once for each writer, or this test proved nothing.
      expect(interrupted.size).toBe(2);
      // The temporary files the killed writers left are swept away.
      await cache.sweepTemporaryFiles();
      expect(
        (await readdir(dir)).filter((name) => !name.endsWith('.previous.cache')).sort(),
      ).toEqual([`orders-${production.key}.cache`]);
    },
  );
});
