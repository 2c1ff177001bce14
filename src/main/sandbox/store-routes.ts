// The operations of the store interface, as replies computed from the order
// book. No I/O here: server.ts authenticates, limits, injects faults and writes.

import { apiError } from './errors.ts';
import type { ApiError } from './errors.ts';
import { parseInt64Id } from './int64-id.ts';
import type { ListBody, OrderBook } from './orders-data.ts';

export type Reply =
  | { readonly kind: 'list'; readonly body: ListBody; readonly headers?: Headers }
  | {
      readonly kind: 'json';
      readonly status: number;
      readonly json: string;
      readonly headers?: Headers;
    }
  | { readonly kind: 'empty'; readonly status: number; readonly headers?: Headers }
  | { readonly kind: 'error'; readonly error: ApiError; readonly headers?: Headers };

type Headers = Readonly<Record<string, string>>;

/** `GET /pets/{petId}` is deprecated (RFC 9745) since this moment... */
export const PETS_DEPRECATED_AT = Date.UTC(2025, 0, 1);
/** ...and goes away at this one (RFC 8594). The interface names neither date. */
export const PETS_SUNSET_AT = Date.UTC(2027, 5, 30);

const PETS_HEADERS: Headers = {
  Deprecation: `@${PETS_DEPRECATED_AT / 1000}`,
  Sunset: new Date(PETS_SUNSET_AT).toUTCString(),
};

const ORDERS_PATH = '/v1/store/orders';
const ORDER_PREFIX = '/v1/store/orders/';
const PET_PREFIX = '/v1/pets/';

/** Route an authenticated request under /v1 to its operation. */
export function routeStoreRequest(orders: OrderBook, method: string, pathname: string): Reply {
  const readMethod = method === 'GET' || method === 'HEAD';
  if (pathname === ORDERS_PATH) {
    return readMethod
      ? { kind: 'list', body: orders.listBody() }
      : methodNotAllowed(method, 'GET, HEAD');
  }
  const orderSegment = lastSegment(pathname, ORDER_PREFIX);
  if (orderSegment !== undefined) {
    return method === 'DELETE'
      ? cancelOrder(orders, orderSegment)
      : methodNotAllowed(method, 'DELETE');
  }
  const petSegment = lastSegment(pathname, PET_PREFIX);
  if (petSegment !== undefined) {
    const reply = readMethod ? getPet(orders, petSegment) : methodNotAllowed(method, 'GET, HEAD');
    return { ...reply, headers: { ...reply.headers, ...PETS_HEADERS } };
  }
  return notFound(pathname);
}

export function notFound(pathname: string): Reply {
  return { kind: 'error', error: apiError(404, 'not_found', `No resource at ${pathname}`) };
}

function cancelOrder(orders: OrderBook, segment: string): Reply {
  const id = parseId(segment);
  if (id === undefined) {
    return {
      kind: 'error',
      error: apiError(
        400,
        'invalid_order_id',
        `orderId must be an int64 integer written in plain decimal, got "${segment}"`,
      ),
    };
  }
  switch (orders.cancel(id)) {
    case 'cancelled':
      return { kind: 'empty', status: 204 };
    case 'already-shipped':
      return {
        kind: 'error',
        error: apiError(
          409,
          'order_already_shipped',
          `Order ${id} has already shipped and cannot be cancelled`,
        ),
      };
    case 'not-found':
      return { kind: 'error', error: apiError(404, 'order_not_found', `No order with id ${id}`) };
  }
}

function getPet(orders: OrderBook, segment: string): Reply {
  const id = parseId(segment);
  if (id === undefined) {
    return {
      kind: 'error',
      error: apiError(
        400,
        'invalid_pet_id',
        `petId must be an int64 integer written in plain decimal, got "${segment}"`,
      ),
    };
  }
  if (!orders.hasPet(id)) {
    return { kind: 'error', error: apiError(404, 'pet_not_found', `No pet with id ${id}`) };
  }
  return { kind: 'json', status: 200, json: `{"id":${id}}` };
}

function methodNotAllowed(method: string, allow: string): Reply {
  return {
    kind: 'error',
    error: apiError(405, 'method_not_allowed', `${method} is not allowed here; allowed: ${allow}`),
    headers: { Allow: allow },
  };
}

/** The single non-empty segment after a prefix, or undefined when the path has another shape. */
function lastSegment(pathname: string, prefix: string): string | undefined {
  if (!pathname.startsWith(prefix)) return undefined;
  const segment = pathname.slice(prefix.length);
  return segment === '' || segment.includes('/') ? undefined : segment;
}

function parseId(segment: string): bigint | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return parseInt64Id(decoded);
}
