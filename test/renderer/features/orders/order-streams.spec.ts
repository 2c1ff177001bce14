// The page's order-stream listener is made once per window: React's StrictMode
// runs state initializers twice in development, and a second listener would
// close every port the first one needs (npm run dev showed no list).

import { describe, expect, it, vi } from 'vitest';
import { portOrderStreams } from '../../../../src/renderer/src/features/orders/order-streams.ts';

describe('portOrderStreams', () => {
  it('gives a window the same streams however often it is asked, with one message listener', () => {
    const target = new EventTarget() as unknown as Window;
    const add = vi.spyOn(target, 'addEventListener');
    const first = portOrderStreams(target);
    const second = portOrderStreams(target);
    expect(second).toBe(first);
    expect(add.mock.calls.filter(([type]) => type === 'message')).toHaveLength(1);
    // Another window has streams of its own.
    expect(portOrderStreams(new EventTarget() as unknown as Window)).not.toBe(first);
  });
});
