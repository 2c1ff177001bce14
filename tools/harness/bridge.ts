// Development harness only: gives the renderer its `window.storeAdmin` over a
// loopback connection to the harness server instead of Electron IPC, built
// from the same createApi so the API cannot differ. The token comes in the
// page URL's fragment (never sent to a server, never in a Referer).

import { createApi, type Invoke, type Subscribe } from '../../src/preload/api.ts';

const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';

const invoke: Invoke = async (channel, ...args) => {
  const response = await fetch('/harness/invoke', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-harness-token': token },
    body: JSON.stringify({ channel, args }),
  });
  if (!response.ok) throw new Error(`harness refused the call (${response.status})`);
  return (await response.json()) as never;
};

const listeners = new Map<string, Set<(payload: never) => void>>();
const events = new EventSource(`/harness/events?token=${encodeURIComponent(token)}`);
events.onmessage = (message: MessageEvent) => {
  const { event, payload } = JSON.parse(String(message.data)) as { event: string; payload: never };
  listeners.get(event)?.forEach((listener) => listener(payload));
};

const on: Subscribe = (event, listener) => {
  const set = listeners.get(event) ?? new Set();
  set.add(listener as (payload: never) => void);
  listeners.set(event, set);
  return () => set.delete(listener as (payload: never) => void);
};

(window as unknown as { storeAdmin: unknown }).storeAdmin = createApi(invoke, on);
