// The contract declares each channel once (arguments and result together);
// what is derived from it must keep every channel and its exact types. The
// type checks run in `npm run typecheck` (tsc compiles this file), the rest
// in vitest.

import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BulkCancelSnapshot } from '../../src/shared/bulk-cancel.ts';
import {
  argumentSchemas,
  channels,
  CHANNELS,
  EVENT_NAMES,
  type AppState,
  type ChannelArgs,
  type ChannelResults,
  type EventPayloads,
  type EventTable,
} from '../../src/shared/ipc-contract.ts';

describe('the IPC contract', () => {
  it('derives one argument schema per declared channel, the very schema declared', () => {
    expect(CHANNELS).toEqual(Object.keys(channels));
    for (const name of CHANNELS) expect(argumentSchemas[name]).toBe(channels[name].args);
    expect(argumentSchemas['orders:cancel'].safeParse(['sandbox', '42']).success).toBe(true);
    expect(argumentSchemas['orders:cancel'].safeParse(['sandbox', '-0']).success).toBe(false);
  });

  it('keeps each channel’s result and argument types exactly', () => {
    expectTypeOf<ChannelResults['app:get-state']>().toEqualTypeOf<AppState>();
    // A result that may be null keeps its null.
    expectTypeOf<ChannelResults['bulk-cancel:pause']>().toEqualTypeOf<BulkCancelSnapshot | null>();
    expectTypeOf<ChannelArgs<'orders:cancel'>>().toEqualTypeOf<
      ['sandbox' | 'staging' | 'production', string]
    >();
  });

  it('lists every event once, and a table missing one is a type error', () => {
    expect(new Set(EVENT_NAMES).size).toBe(EVENT_NAMES.length);
    expectTypeOf<(typeof EVENT_NAMES)[number]>().toEqualTypeOf<keyof EventPayloads>();
    const withoutOne = {
      'quota:changed': true,
      'connectivity:changed': true,
      'orders:progress': true,
      'keys:changed': true,
      'bulk-cancel:changed': true,
      'deprecations:changed': true,
      'domains:watch-changed': true,
      'app:show': true,
      'app:command': true,
      'app:awake': true,
    } as const;
    // @ts-expect-error 'storage:changed' is missing: the events table must name every event.
    const table: EventTable = withoutOne;
    expect(Object.keys(table)).toHaveLength(EVENT_NAMES.length - 1);
  });
});
