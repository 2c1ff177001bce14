// A sandbox "minute" whose current window ends at least 10 minutes from now.
// The sandbox aligns windows to the clock, so this keeps a 429's Retry-After
// long (the client does not retry inline) and nothing resets during a test.
// No DOM and no Node: the renderer tests and the end-to-end tests share it.

export function farWindowMs(now = Date.now()): number {
  for (let ms = 3_600_000; ; ms += 600_000) {
    if (ms - (now % ms) > 600_000) return ms;
  }
}
