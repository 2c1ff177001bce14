// A transient message: shown in an always-present live region, gone by
// itself after its time, held while the pointer is over it or the focus in
// it, gone at once with Dismiss. The clock is vitest's, so the waits are exact.

import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Toast, TOAST_MS } from '../../../src/renderer/src/components/toast.tsx';

function Harness({ first }: { first: string }) {
  const [message, setMessage] = useState<string | undefined>(first);
  return (
    <>
      <button type="button" onClick={() => setMessage('Second message.')}>
        Next
      </button>
      <Toast label="Outcome" onDone={() => setMessage(undefined)} messageKey={message}>
        {message && <p>{message}</p>}
      </Toast>
    </>
  );
}

const region = () => screen.getByRole('status', { name: 'Outcome' });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test('goes away by itself after its time; the live region stays in the page', () => {
  render(<Harness first="Order 42 was cancelled." />);
  expect(region().textContent).toBe('Order 42 was cancelled.');
  act(() => {
    vi.advanceTimersByTime(TOAST_MS - 1);
  });
  expect(region().textContent).toBe('Order 42 was cancelled.');
  act(() => {
    vi.advanceTimersByTime(1);
  });
  expect(region().textContent).toBe('');
  expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
});

test('a new message gets its own full time', () => {
  render(<Harness first="First message." />);
  act(() => {
    vi.advanceTimersByTime(TOAST_MS - 1000);
  });
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
  act(() => {
    vi.advanceTimersByTime(TOAST_MS - 1);
  });
  expect(region().textContent).toBe('Second message.');
  act(() => {
    vi.advanceTimersByTime(1);
  });
  expect(region().textContent).toBe('');
});

test('stays while the pointer is over it or the focus is in it, and goes with Dismiss', () => {
  render(<Harness first="Order 7 has already shipped." />);
  const card = region().parentElement!;
  fireEvent.pointerEnter(card);
  act(() => {
    vi.advanceTimersByTime(TOAST_MS * 3);
  });
  expect(region().textContent).toBe('Order 7 has already shipped.');
  fireEvent.pointerLeave(card);
  act(() => {
    vi.advanceTimersByTime(TOAST_MS - 1);
  });
  expect(region().textContent).toBe('Order 7 has already shipped.');

  const dismiss = screen.getByRole('button', { name: 'Dismiss' });
  act(() => {
    dismiss.focus();
  });
  act(() => {
    vi.advanceTimersByTime(TOAST_MS * 3);
  });
  expect(region().textContent).toBe('Order 7 has already shipped.');
  // The button's name is not part of what the live region says.
  expect(region().contains(dismiss)).toBe(false);
  fireEvent.click(dismiss);
  expect(region().textContent).toBe('');
});
