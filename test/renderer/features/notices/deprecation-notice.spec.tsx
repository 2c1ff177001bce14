// The service's deprecation notices in the window's notice area, against the
// real app and a sandbox that marks endpoints (--deprecate): said once in
// plain words with the date, "Read more" has main open the link the service
// gave, and Dismiss puts it away for good (until the service names another
// date).

import { screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import { renderApp, startTestApp } from '../../support/test-app.tsx';
import { findGrid, text } from '../orders/orders-test-kit.tsx';

const notices = () => screen.getByRole('region', { name: 'Notices' });

test('a deprecated order list: one notice with the date, Read more opens the service’s link, Dismiss keeps it away', async () => {
  const app = await startTestApp({
    sandbox: { deprecate: ['/store/orders=2027-06-30', '/store/orders/{orderId}=2027-09-30'] },
  });
  const { user } = renderApp(app);
  await findGrid();

  const notice = await waitFor(() => within(notices()).getByRole('alert'));
  expect(text(notice.querySelector('.notice-text'))).toBe(
    'Service change. The store service will stop answering the order list on 30 June 2027.',
  );
  expect(within(notices()).getAllByRole('alert')).toHaveLength(1);

  // Cancelling an order meets the second endpoint: still one notice, the other date behind Details.
  const id = app.sandbox.orderIds({ status: 'pending', limit: 1 })[0]!;
  expect((await app.api.orders.cancel('sandbox', id)).ok).toBe(true);
  await waitFor(() =>
    expect(text(within(notices()).getByRole('alert'))).toContain(
      'The store service will stop accepting order cancels on 30 September 2027.',
    ),
  );
  expect(within(notices()).getAllByRole('alert')).toHaveLength(1);

  await user.click(within(notices()).getByRole('button', { name: 'Read more' }));
  await waitFor(() => expect(app.opened).toEqual(['https://changelog.petstore.example/v1']));

  await user.click(within(notices()).getByRole('button', { name: 'Dismiss' }));
  await waitFor(() => expect(within(notices()).queryByRole('alert')).toBeNull());
  // The next answers say the same: dismissed, it stays away.
  await user.click(screen.getByRole('button', { name: 'Refresh' }));
  // The second list on screen (compared with the first), its answer read.
  await waitFor(() =>
    expect(text(screen.getByRole('status', { name: 'Changes since the last refresh' }))).toMatch(
      /since \d\d:\d\d$/,
    ),
  );
  expect(app.sandbox.requestLog.filter((r) => r.path === '/v1/store/orders')).toHaveLength(2);
  expect(within(notices()).queryByRole('alert')).toBeNull();
});
