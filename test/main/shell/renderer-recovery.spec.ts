// A crashed or killed renderer is reloaded with a message; one that keeps crashing is not.

import { describe, expect, it, vi } from 'vitest';

const electron = await vi.hoisted(async () => {
  const { createElectronMock } = await import('../../support/electron-mock.ts');
  return createElectronMock();
});
vi.mock('electron', () => electron);

const { reloadWhenRendererGone, RELOADED_MESSAGE, GAVE_UP_MESSAGE } =
  await import('../../../src/main/desktop/renderer-recovery.ts');
const { FakeWebContents } = await import('../../support/electron-mock.ts');

function setUp() {
  const contents = new FakeWebContents();
  let now = 0;
  const notify = vi.fn();
  const log = { error: vi.fn() };
  reloadWhenRendererGone(contents, { log, notify, now: () => now });
  return { contents, notify, log, advance: (ms: number) => (now += ms) };
}

describe('renderer recovery', () => {
  it('reloads a crashed or killed renderer, says so, and logs why', () => {
    const { contents, notify, log } = setUp();
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    expect(contents.reloads).toBe(1);
    expect(notify).toHaveBeenCalledWith(
      RELOADED_MESSAGE,
      expect.stringContaining('Nothing was lost'),
    );
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('crashed, exit code 139'));
    contents.emit('render-process-gone', {}, { reason: 'killed', exitCode: 9 });
    expect(contents.reloads).toBe(2);
  });

  it('ignores a clean exit', () => {
    const { contents, notify } = setUp();
    contents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(contents.reloads).toBe(0);
    expect(notify).not.toHaveBeenCalled();
  });

  it('stops reloading a renderer that keeps crashing, and tells the clerk what to do', () => {
    const { contents, notify, advance } = setUp();
    for (let i = 0; i < 4; i += 1) {
      contents.emit('render-process-gone', {}, { reason: 'oom', exitCode: 1 });
      advance(5_000);
    }
    expect(contents.reloads).toBe(3);
    expect(notify).toHaveBeenLastCalledWith(
      GAVE_UP_MESSAGE,
      expect.stringContaining('Open logs folder'),
    );
    // A minute later it is a new incident, reloaded again.
    advance(60_000);
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    expect(contents.reloads).toBe(4);
  });
});
