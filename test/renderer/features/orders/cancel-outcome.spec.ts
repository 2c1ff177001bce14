// What a failed cancel says, led by what it means for the order. A condition
// behind it (a hold, a ban, the key, no connection) is only named: the notice
// area says it in full, with its time. The service's own words are added only
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

test('a lost answer says the order must be checked, whatever the kind', () => {
  expect(
    describeCancelFailure(
      failure({ kind: 'network', message: 'The connection was cut.', delivery: 'unknown' }),
      '7',
      'sandbox',
    ),
  ).toBe(
    'Order 7 may or may not have been cancelled: the answer was lost. Refresh the list to check.',
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
