/// <reference lib="dom" />
// The context bridge's crossing between the preload's isolated world and the
// page's main world (Electron's docs/api/context-bridge.md): the API object
// is copied, its functions become proxies that call across, a promise
// becomes a promise on the other side, and a function passed back (a
// listener) is proxied the other way. Errors cross as errors with their
// message, as in Electron. Calls are synchronous, as in Electron: they go as
// DOM events on a detached node that only the two worlds hold (the page's
// scripts never see it: it is handed over before any of them runs), each
// event carrying a string, the only thing that crosses worlds unchanged.
//
// Self-contained: injected into both worlds by its source text.

import type { Codec } from '../codec.ts';

export interface WorldBridge {
  /** Encodes a value for the other world (functions and promises proxied). */
  encode(value: unknown): string;
  decode(text: string): unknown;
}

export function worldBridge(
  codec: Codec,
  node: EventTarget,
  side: 'preload' | 'page',
): WorldBridge {
  const other = side === 'preload' ? 'page' : 'preload';
  const functions = new Map<string, (...args: unknown[]) => unknown>();
  const byFunction = new WeakMap<object, string>();
  const pending = new Map<string, { resolve(v: unknown): void; reject(e: unknown): void }>();
  let next = 0;
  let answer: string | undefined;

  const hooks = {
    encodeFunction: (fn: (...args: unknown[]) => unknown) => {
      let id = byFunction.get(fn);
      if (id === undefined) {
        id = `${side}-${++next}`;
        functions.set(id, fn);
        byFunction.set(fn, id);
      }
      return id;
    },
    encodePromise: (promise: Promise<unknown>) => {
      const id = `${side}-p${++next}`;
      const settle = (ok: boolean, value: unknown) => {
        let detail: string;
        try {
          detail = JSON.stringify({ id, ok, value: codec.encode(value, hooks) });
        } catch (error) {
          detail = JSON.stringify({ id, ok: false, value: codec.encode(error, hooks) });
        }
        node.dispatchEvent(new CustomEvent(`${other}:settle`, { detail }));
      };
      promise.then(
        (value) => settle(true, value),
        (error: unknown) => settle(false, error),
      );
      return id;
    },
    decodeFunction:
      (id: unknown) =>
      (...args: unknown[]) =>
        call(id as string, args),
    decodePromise: (id: unknown) =>
      new Promise((resolve, reject) => pending.set(id as string, { resolve, reject })),
  };

  function call(id: string, args: unknown[]): unknown {
    answer = undefined;
    node.dispatchEvent(
      new CustomEvent(`${other}:call`, {
        detail: JSON.stringify({ id, args: codec.encode(args, hooks) }),
      }),
    );
    const reply = answer as string | undefined;
    answer = undefined;
    if (reply === undefined) throw new Error('The other world did not answer the call.');
    const { ok, value } = JSON.parse(reply) as { ok: boolean; value: string };
    const decoded = codec.decode(value, hooks);
    if (!ok) throw decoded;
    return decoded;
  }

  node.addEventListener(`${side}:call`, (event) => {
    const { id, args } = JSON.parse((event as CustomEvent<string>).detail) as {
      id: string;
      args: string;
    };
    let reply: string;
    try {
      const fn = functions.get(id);
      if (!fn) throw new Error('This function is no longer available.');
      const result = fn(...(codec.decode(args, hooks) as unknown[]));
      reply = JSON.stringify({ ok: true, value: codec.encode(result, hooks) });
    } catch (error) {
      const copy = error instanceof Error ? error : new Error(String(error));
      reply = JSON.stringify({ ok: false, value: codec.encode(copy, hooks) });
    }
    node.dispatchEvent(new CustomEvent(`${other}:answer`, { detail: reply }));
  });
  node.addEventListener(`${side}:answer`, (event) => {
    answer = (event as CustomEvent<string>).detail;
  });
  node.addEventListener(`${side}:settle`, (event) => {
    const { id, ok, value } = JSON.parse((event as CustomEvent<string>).detail) as {
      id: string;
      ok: boolean;
      value: string;
    };
    const waiting = pending.get(id);
    pending.delete(id);
    if (!waiting) return;
    const decoded = codec.decode(value, hooks);
    if (ok) waiting.resolve(decoded);
    else waiting.reject(decoded);
  });

  return {
    encode: (value) => codec.encode(value, hooks),
    decode: (text) => codec.decode(text, hooks),
  };
}
