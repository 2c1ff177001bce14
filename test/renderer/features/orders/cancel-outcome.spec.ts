// What a failed cancel says, led by what it means for the order: a request
// that never left says not cancelled, one that left without a telling answer
// says may or may not, why, and what to check. Which (kind, delivery) each
// real condition gives is proven over loopback in
// test/main/store-api/cancel-delivery.spec.ts. A condition behind it (a hold, a ban, the key, no
// connection) is only named: the notice area says it in full, with its time. The service's own words are added only
// where the sentence is generic (a 5xx, an unexpected status).

import { expect, test } from 'vitest';
import { describeCancelFailure } from '../../../../src/renderer/src/features/orders/cancel-outcome.tsx';
import type { Failure } from '../../../../src/shared/failures.ts';

const failure = (fields: Partial<Failure> & Pick<Failure, 'kind' | 'message'>): Failure => ({
  delivery: 'answered',
  ...fields,
});

test('a hold or a ban is named without a time (the notice has the gate’s)', () => {
  const limited = failure({
    kind: 'rate-limited',
    message: 'Rate-limited until 07:34:49. The service asked Store Admin to slow down (429).',
    retryAt: 1,
  });
  expect(describeCancelFailure(limited, '42', 'staging')).toBe(
    'Order 42 was not cancelled: requests to Staging are paused.',
  );
  expect(
    describeCancelFailure(failure({ kind: 'banned', message: 'Banned.' }), '42', 'production'),
  ).toBe('Order 42 was not cancelled: the Production API key is banned for a while.');
});

test('a request that left without an answer saying what was done: may or may not, why, and what to check', () => {
  const check = 'Refresh the list to check: if order 7 is still in it, cancel it again.';
  const unknown = (fields: Partial<Failure> & Pick<Failure, 'kind'>) =>
    describeCancelFailure(failure({ message: '', delivery: 'unknown', ...fields }), '7', 'sandbox');
  expect(unknown({ kind: 'network' })).toBe(
    `Order 7 may or may not have been cancelled: the request was sent, but the connection ended before Sandbox answered. ${check}`,
  );
  expect(unknown({ kind: 'network', status: 200 })).toBe(
    `Order 7 may or may not have been cancelled: the Sandbox address answered the request with a web page, not the store service. ${check}`,
  );
  expect(unknown({ kind: 'timeout' })).toBe(
    `Order 7 may or may not have been cancelled: the request was sent, but Sandbox did not answer in time. ${check}`,
  );
  expect(unknown({ kind: 'server', status: 524 })).toBe(
    `Order 7 may or may not have been cancelled: Sandbox answered the request with 524, which does not say whether it was done. ${check}`,
  );
  expect(unknown({ kind: 'rate-limited', retryAt: 1 })).toBe(
    `Order 7 may or may not have been cancelled: an earlier try was sent and its answer was lost, and requests to Sandbox are now paused. ${check}`,
  );
});

test('what main says left it unknown is said as the command line says it, with the environment for the address', () => {
  const check = 'Refresh the list to check: if order 7 is still in it, cancel it again.';
  const unknown = (fields: Partial<Failure> & Pick<Failure, 'kind'>) =>
    describeCancelFailure(failure({ message: '', delivery: 'unknown', ...fields }), '7', 'staging');
  // A gateway's 502 page, not the service's JSON: not blamed on the store service.
  const gateway = { why: 'status', status: 502, between: true } as const;
  expect(unknown({ kind: 'server', status: 502, unsure: gateway })).toBe(
    `Order 7 may or may not have been cancelled: the Staging address (or something between it and this computer) answered the request with 502 Bad Gateway, which does not say whether it was done. ${check}`,
  );
  // The 502 was the first try; the second met a hold: what happened first is still said.
  expect(unknown({ kind: 'rate-limited', retryAt: 1, unsure: gateway })).toBe(
    `Order 7 may or may not have been cancelled: the Staging address (or something between it and this computer) answered the request with 502 Bad Gateway, which does not say whether it was done, and requests to Staging are now paused. ${check}`,
  );
  expect(unknown({ kind: 'redirect', status: 302, unsure: { why: 'redirect', status: 302 } })).toBe(
    `Order 7 may or may not have been cancelled: Staging answered the request with a redirect instead of saying whether it was done. ${check}`,
  );
  expect(unknown({ kind: 'network', status: 200, unsure: { why: 'web-page', status: 200 } })).toBe(
    `Order 7 may or may not have been cancelled: the Staging address answered the request with a web page, not the store service. ${check}`,
  );
});

test('a request that never left (refused, unknown host, proxy, certificate): not cancelled, safe to try again', () => {
  expect(
    describeCancelFailure(
      failure({
        kind: 'network',
        message: 'Could not reach the store service: the connection was refused.',
        delivery: 'not-sent',
      }),
      '7',
      'staging',
    ),
  ).toBe(
    'Order 7 was not cancelled: the request never reached Staging, as the connection failed before anything was sent. It is safe to try again once Staging answers.',
  );
});

test('the service’s words only where the sentence says nothing specific', () => {
  const server = failure({
    kind: 'server',
    message:
      'Order 9 was not cancelled. The store service had a problem (502). The service said: “upstream down”',
    status: 502,
  });
  expect(describeCancelFailure(server, '9', 'sandbox')).toBe(
    'Order 9 was not cancelled. The store service had a problem (502). The service said: “upstream down”',
  );
  const refused = failure({
    kind: 'unauthorized',
    message:
      'Order 9 was not cancelled. The API key is missing or was not accepted (401). The service said: “Invalid API key”',
    status: 401,
  });
  expect(describeCancelFailure(refused, '9', 'staging')).toBe(
    'Order 9 was not cancelled: the service did not accept the Staging API key.',
  );
});
