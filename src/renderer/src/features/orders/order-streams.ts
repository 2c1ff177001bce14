// Where the page receives order lists as columns: each list comes over a
// MessagePort of its own, which the preload posts to this window with the
// id of the stream the page asked for. Only a message this window posted to
// itself counts (an embedded frame's would have another source), and only
// for a stream the page is listening to; each message on a port is checked
// (shape, lengths, offsets) before it is used.

import {
  checkOrderStreamMessage,
  isOrderStreamPortMessage,
  type OrderStreamMessage,
  type OrderStreams,
} from '../../../../shared/order-stream.ts';

/** One set of streams per window: a second call (React's StrictMode runs initializers twice) gets the first. */
const streamsOf = new WeakMap<Window, OrderStreams>();

export function portOrderStreams(target: Window): OrderStreams {
  const existing = streamsOf.get(target);
  if (existing) return existing;
  const streams = listenForPorts(target);
  streamsOf.set(target, streams);
  return streams;
}

/**
 * The window's one message listener: a port for a stream nobody listens to
 * is closed, so a second listener on the same window would close every port
 * the first one needs.
 */
function listenForPorts(target: Window): OrderStreams {
  const listeners = new Map<string, (message: OrderStreamMessage) => void>();
  const ports = new Map<string, MessagePort>();
  target.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== target || !isOrderStreamPortMessage(event.data)) return;
    const [port] = event.ports;
    if (!port) return;
    const { streamId } = event.data;
    const listener = listeners.get(streamId);
    if (!listener || ports.has(streamId)) {
      port.close();
      return;
    }
    ports.set(streamId, port);
    // What comes is checked first; a message out of shape fails the list (nothing of it is shown).
    port.onmessage = (message: MessageEvent) => {
      const checked = checkOrderStreamMessage(message.data);
      listener(typeof checked === 'string' ? { kind: 'failed' } : checked);
    };
  });
  return {
    listen(streamId, onMessage) {
      listeners.set(streamId, onMessage);
      return () => {
        listeners.delete(streamId);
        ports.get(streamId)?.close();
        ports.delete(streamId);
      };
    },
  };
}

let nextStream = 0;

/** A stream id unique in this page. */
export function newStreamId(): string {
  nextStream += 1;
  return `list-${Date.now().toString(36)}-${nextStream}`;
}
