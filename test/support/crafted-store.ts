// A small store service on loopback that cancels as the interface says (204
// for a pending order, 404 once it is gone, 409 when shipped), except that
// chosen answers are replaced: a test scripts what the client is told about a
// DELETE the service did carry out (a CDN's 520 or 524, a redirect, ...).

import type { ServerResponse } from 'node:http';
import { answer, scriptedServer, type ScriptedServer } from './scripted-server.ts';

export type OrderState = 'pending' | 'cancelled' | 'shipped';

export interface CraftedStore extends ScriptedServer {
  readonly orders: Map<string, OrderState>;
  /** DELETEs that reached the service, per order. */
  readonly deletes: Map<string, number>;
}

/**
 * `instead(orderId, attempt, res)`: answer a DELETE (after it was carried
 * out) in another way and return true, or return false for the usual answer.
 */
export async function craftedStore(
  orders: Record<string, OrderState>,
  instead: (orderId: string, attempt: number, res: ServerResponse) => boolean = () => false,
): Promise<CraftedStore> {
  const states = new Map(Object.entries(orders));
  const deletes = new Map<string, number>();
  const server = await scriptedServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const cancel = /\/store\/orders\/(\d+)$/.exec(path);
    if (req.method === 'GET' && path.endsWith('/store/orders')) {
      const list = [...states].map(([id, state]) => ({
        id: Number(id),
        complete: state === 'shipped',
      }));
      answer(res, 200, list);
      return;
    }
    if (req.method !== 'DELETE' || !cancel) {
      answer(res, 404, { code: 'not_found', message: 'Not found', status: 404 });
      return;
    }
    const id = cancel[1]!;
    const attempt = (deletes.get(id) ?? 0) + 1;
    deletes.set(id, attempt);
    const state = states.get(id);
    if (state === 'pending') states.set(id, 'cancelled');
    if (instead(id, attempt, res)) return;
    if (state === 'pending') answer(res, 204);
    else if (state === 'shipped')
      answer(res, 409, { code: 'order_shipped', message: 'Order already shipped', status: 409 });
    else answer(res, 404, { code: 'order_not_found', message: 'Order not found', status: 404 });
  });
  return { ...server, orders: states, deletes };
}
