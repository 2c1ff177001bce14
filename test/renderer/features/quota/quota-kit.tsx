// What the quota meter's tests share: the meter in the header of the real
// window, a second sandbox standing in for staging (a Free key, windows that
// end far from now), raw requests with a key to use up its quota or get it
// banned on that sandbox, and a clock the test moves by exact seconds.

import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { App } from '../../../../src/renderer/src/App.tsx';
import {
  MeterClockProvider,
  type MeterClock,
} from '../../../../src/renderer/src/features/quota/meter-clock.tsx';
import type { QuotaView } from '../../../../src/shared/quota.ts';
import { farWindowMs } from '../../../support/far-window.ts';
import { startExtraSandbox } from '../../support/test-app.tsx';
import type { TestApp, TestSandbox, TestSandboxOptions } from '../../support/test-app-shapes.ts';

/** Sandbox options the shapes leave out but the real sandbox takes (src/main/sandbox/server.ts). */
export type LimitSandboxOptions = TestSandboxOptions & {
  readonly minuteMs?: number;
  readonly banAfter?: number;
  readonly banMs?: number;
};

export { farWindowMs };

export const FREE_KEY = 'stg-free-key';

/** A second sandbox with one Free key, set up as the staging environment. */
export async function freeStaging(
  app: TestApp,
  options: LimitSandboxOptions = {},
): Promise<TestSandbox> {
  const sandboxOptions: LimitSandboxOptions = {
    keys: [{ plan: 'free', key: FREE_KEY }],
    orders: 5,
    minuteMs: farWindowMs(),
    ...options,
  };
  const sandbox = await startExtraSandbox(sandboxOptions);
  expect((await app.api.environments.setBaseUrl('staging', sandbox.baseUrl)).ok).toBe(true);
  expect((await app.api.keys.set('staging', FREE_KEY)).ok).toBe(true);
  return sandbox;
}

export interface RawAnswer {
  readonly status: number;
  /** X-RateLimit-Remaining. */
  readonly remaining: number;
  /** The error code of a 4xx body. */
  readonly code?: string;
}

async function rawRequest(sandbox: TestSandbox, key: string): Promise<RawAnswer> {
  const response = await fetch(`${sandbox.baseUrl}/store/orders`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const body = await response.text();
  const remaining = Number(response.headers.get('x-ratelimit-remaining'));
  if (response.ok) return { status: response.status, remaining };
  const { code } = JSON.parse(body) as { code?: string };
  return { status: response.status, remaining, ...(code === undefined ? {} : { code }) };
}

/**
 * Requests with the key straight to the sandbox, as another client would, one
 * after another until `done` says so (at most 200). Counting to a state rather
 * than a fixed number keeps the tests right whatever Store Admin itself sent
 * meanwhile (the orders screen refreshes by itself).
 */
export async function rawRequestsUntil(
  sandbox: TestSandbox,
  done: (answer: RawAnswer) => boolean,
  key = FREE_KEY,
): Promise<RawAnswer[]> {
  const answers: RawAnswer[] = [];
  for (let i = 0; i < 200; i++) {
    const answer = await rawRequest(sandbox, key);
    answers.push(answer);
    if (done(answer)) return answers;
  }
  throw new Error('the sandbox never reached the state asked for');
}

export async function quotaOf(
  app: TestApp,
  environment: 'sandbox' | 'staging',
): Promise<QuotaView> {
  const result = await app.api.quota.get(environment);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Waits until the main process has an answer's figures for the environment. */
export async function knownQuota(
  app: TestApp,
  environment: 'sandbox' | 'staging',
): Promise<QuotaView> {
  let quota: QuotaView | undefined;
  await waitFor(async () => {
    quota = await quotaOf(app, environment);
    expect(quota.known).toBe(true);
  });
  if (!quota) throw new Error('no quota');
  return quota;
}

export function meter(): HTMLElement {
  return screen.getByRole('region', { name: 'Quota' });
}

/** The window's notice area, where a hold or a ban is said (once). */
export function notices(): HTMLElement {
  return screen.getByRole('region', { name: 'Notices' });
}

/** The one alert of the notice area (the test fails if there are more or none). */
export function theAlert(): HTMLElement {
  const alerts = within(notices()).getAllByRole('alert');
  expect(alerts).toHaveLength(1);
  expect(screen.getAllByRole('alert')).toEqual(alerts);
  return alerts[0]!;
}

/** Switches environment with the header's switcher, as a clerk would. */
export async function switchTo(
  user: ReturnType<typeof userEvent.setup>,
  name: 'Sandbox' | 'Staging',
): Promise<void> {
  await user.click(await screen.findByRole('radio', { name }));
}

/** A clock that moves only when the test says, ticking the meter's one-second listeners. */
export class ManualClock implements MeterClock {
  #now: number;
  readonly #ticks = new Set<() => void>();

  constructor(now: number) {
    this.#now = now;
  }

  now = (): number => this.#now;

  every = (_ms: number, tick: () => void): (() => void) => {
    this.#ticks.add(tick);
    return () => {
      this.#ticks.delete(tick);
    };
  };

  set(at: number): void {
    this.#now = at;
    act(() => this.#ticks.forEach((tick) => tick()));
  }

  advance(ms: number): void {
    this.set(this.#now + ms);
  }
}

/** The whole window on the app's API, with the meter reading `clock`. */
export function renderWithClock(app: TestApp, clock: MeterClock) {
  window.storeAdmin = app.api;
  const user = userEvent.setup({ delay: null });
  const view = render(
    <MeterClockProvider clock={clock}>
      <App api={app.api} />
    </MeterClockProvider>,
  );
  return { user, ...view };
}
