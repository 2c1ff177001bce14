// Development harness only: gives the renderer its `window.storeAdmin` over a
// loopback connection to the harness server instead of Electron IPC, built
// from the same createApi so the API cannot differ, and an order list's rows
// over a MessagePort posted to the page as the preload posts Electron's, fed
// from binary bodies read with arrayBuffer() (each body every part waiting). The token comes in the page
// URL's fragment (never sent to a server, never in a Referer).

import { createApi, type Invoke, type Subscribe } from '../../src/shared/api.ts';
import { ORDER_STREAM_PORT, STREAM_ID_PATTERN } from '../../src/shared/order-stream.ts';
import { decodeBody } from './stream-frames.ts';

const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';

/**
 * The arguments as Electron's IPC would deliver them. JSON has no undefined:
 * an optional argument left out at the end (keys.set's options) would arrive
 * as null, which the contract rightly refuses. Inside objects JSON drops
 * undefined properties, which is what an optional property means.
 */
function argumentsForJson(args: readonly unknown[]): unknown[] {
  const kept = [...args];
  while (kept.length > 0 && kept.at(-1) === undefined) kept.pop();
  return kept;
}

const invoke: Invoke = async (channel, ...args) => {
  const response = await fetch('/harness/invoke', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-harness-token': token },
    body: JSON.stringify({ channel, args: argumentsForJson(args) }),
  });
  if (!response.ok) throw new Error(`harness refused the call (${response.status})`);
  return (await land(await response.json())) as never;
};

/** Puts back the long strings the server sent beside the result (see server.ts). */
async function land(value: unknown): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map(land));
  if (value === null || typeof value !== 'object') return value;
  const blob = (value as { $harnessBlob?: unknown }).$harnessBlob;
  if (typeof blob === 'string') {
    const response = await fetch(`/harness/blob/${blob}`, {
      headers: { 'x-harness-token': token },
    });
    if (!response.ok) throw new Error(`harness lost a result (${response.status})`);
    return response.text();
  }
  const entries = await Promise.all(
    Object.entries(value).map(async ([k, v]) => [k, await land(v)] as const),
  );
  return Object.fromEntries(entries);
}

const listeners = new Map<string, Set<(payload: never) => void>>();
const events = new EventSource(`/harness/events?token=${encodeURIComponent(token)}`);
events.onmessage = (message: MessageEvent) => {
  const { event, payload } = JSON.parse(String(message.data)) as { event: string; payload: never };
  if (event === ORDER_STREAM_PORT) {
    openOrderStream((payload as { streamId?: unknown }).streamId);
    return;
  }
  listeners.get(event)?.forEach((listener) => listener(payload));
};

/**
 * A list's stream: a port for the page (posted to it as the preload does), fed
 * with the parts the server holds for it, fetched one after another until it
 * ends. The parts' buffers are transferred to the page, not copied.
 */
function openOrderStream(streamId: unknown): void {
  if (typeof streamId !== 'string' || !STREAM_ID_PATTERN.test(streamId)) return;
  const { port1, port2 } = new MessageChannel();
  window.postMessage({ type: ORDER_STREAM_PORT, streamId }, '*', [port2]);
  void (async () => {
    try {
      for (;;) {
        const response = await fetch(`/harness/stream/${streamId}`, {
          headers: { 'x-harness-token': token },
        });
        // 202: nothing yet, ask again; 204: the stream ended; anything else: it is gone.
        if (response.status === 202) continue;
        if (response.status !== 200) break;
        for (const { message, buffer } of decodeBody(await response.arrayBuffer()))
          port1.postMessage(message, message.kind === 'rows' ? [buffer] : []);
      }
    } finally {
      port1.close();
    }
  })();
}

const on: Subscribe = (event, listener) => {
  const set = listeners.get(event) ?? new Set();
  set.add(listener);
  listeners.set(event, set);
  return () => set.delete(listener);
};

(window as unknown as { storeAdmin: unknown }).storeAdmin = createApi(invoke, on);
