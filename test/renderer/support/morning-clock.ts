// The page's clock at ten this morning, for tests that word times: "today's
// times as the time alone" must not depend on when the suite runs (at 23:58,
// ten minutes ago is yesterday and three hours on is tomorrow, both said with
// their date). Only Date is faked, and it runs on from there in real time, so
// the app's own timers and the servers' clocks agree. Undone after the test.

import { onTestFinished, vi } from 'vitest';

/** Sets the clock to 10:00 today, local time, for this test; returns that moment. */
export function clockAtTenThisMorning(): number {
  const morning = new Date();
  morning.setHours(10, 0, 0, 0);
  vi.useFakeTimers({ toFake: ['Date'], now: morning, shouldAdvanceTime: true });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  return morning.getTime();
}
