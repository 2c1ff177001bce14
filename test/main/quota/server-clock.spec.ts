import { describe, expect, it } from 'vitest';
import { ServerClock } from '../../../src/main/quota/server-clock.ts';

const at = (iso: string): number => Date.parse(iso);

describe('ServerClock', () => {
  it('takes the largest recent reading: Date headers only ever understate the offset', () => {
    const clock = new ServerClock();
    expect(clock.skew()).toBe(0);
    // The server is 2.3 s ahead. Its Date is cut to the second: readings land in (1.3 s, 2.3 s].
    clock.observe('Sun, 22 Nov 2026 12:00:02 GMT', at('2026-11-22T12:00:00.600Z')); // 1.4 s
    clock.observe('Sun, 22 Nov 2026 12:00:04 GMT', at('2026-11-22T12:00:01.750Z')); // 2.25 s
    clock.observe('Sun, 22 Nov 2026 12:00:05 GMT', at('2026-11-22T12:00:03.400Z')); // 1.6 s
    expect(clock.skew()).toBe(2250);
  });

  it('forgets readings older than ten minutes, so a corrected clock is followed', () => {
    const clock = new ServerClock();
    clock.observe('Sun, 22 Nov 2026 12:01:00 GMT', at('2026-11-22T12:00:00Z'));
    clock.observe('Sun, 22 Nov 2026 12:11:01 GMT', at('2026-11-22T12:11:01Z'));
    expect(clock.skew()).toBe(0);
  });

  it('ignores missing and unreadable Date headers', () => {
    const clock = new ServerClock();
    clock.observe(undefined, 0);
    clock.observe('yesterday', 0);
    expect(clock.skew()).toBe(0);
  });
});
