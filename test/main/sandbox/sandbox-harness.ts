// Starts sandboxes for a test file and closes them after each test; small
// helpers for talking to them over real HTTP on loopback.

import { afterEach, expect } from 'vitest';
import { startSandbox } from '../../../src/main/sandbox/server.ts';
import type { Sandbox, SandboxOptions } from '../../../src/main/sandbox/server.ts';

const open: Sandbox[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
});

export async function openSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, ...options });
  open.push(sandbox);
  return sandbox;
}

export interface CallOptions {
  readonly method?: string;
  /** An API key, sent as a bearer token; null sends no Authorization header. */
  readonly key?: string | null;
  readonly headers?: Record<string, string>;
}

/** A request to a path under the sandbox's base URL (e.g. '/store/orders'). */
export function call(sandbox: Sandbox, path: string, options: CallOptions = {}): Promise<Response> {
  const key = options.key === undefined ? 'demo-free' : options.key;
  const headers: Record<string, string> = { ...options.headers };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  return fetch(`${sandbox.baseUrl}${path}`, { method: options.method ?? 'GET', headers });
}

/** A request to a path from the server root (outside /v1). */
export function callRoot(
  sandbox: Sandbox,
  path: string,
  options: CallOptions = {},
): Promise<Response> {
  const key = options.key === undefined ? 'demo-free' : options.key;
  const headers: Record<string, string> = { ...options.headers };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  return fetch(`http://127.0.0.1:${sandbox.port}${path}`, {
    method: options.method ?? 'GET',
    headers,
  });
}

export interface RateHeaders {
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
}

/** The three X-RateLimit-* headers, asserting they are present and integral. */
export function rateHeaders(response: Response): RateHeaders {
  const read = (name: string) => {
    const value = response.headers.get(name);
    expect(value, `${name} on a ${response.status}`).toMatch(/^[0-9]+$/);
    return Number(value);
  };
  return {
    limit: read('X-RateLimit-Limit'),
    remaining: read('X-RateLimit-Remaining'),
    reset: read('X-RateLimit-Reset'),
  };
}

/** Assert an Error body ({ code, message, status }) served as application/json. */
export async function expectError(
  response: Response,
  status: number,
  code: string,
): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get('Content-Type')).toBe('application/json');
  const body: unknown = await response.json();
  expect(body).toEqual({ code, message: expect.any(String), status });
  const { message } = body as { message: string };
  expect(message.length).toBeGreaterThan(0);
  return message;
}

/** Order ids in a list body, read from the raw text (exact above 2^53). */
export function idsInText(text: string): string[] {
  return [...text.matchAll(/"id":(-?[0-9]+)/g)].map((match) => match[1] ?? '');
}

/** A controllable clock for `now`. */
export function manualClock(start: number): {
  now: () => number;
  advance(ms: number): void;
  set(ms: number): void;
} {
  let time = start;
  return {
    now: () => time,
    advance(ms) {
      time += ms;
    },
    set(ms) {
      time = ms;
    },
  };
}
