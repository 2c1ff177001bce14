// Electron's MessageChannelMain and MessagePortMain (docs/api/message-channel-main.md,
// docs/api/message-port-main.md): Node-style events, messages queued until
// `start()`, each a structured copy; only ports may be transferred (anything
// else: "Port at index N is not a valid port"). A port given to a renderer
// with webContents.postMessage is relayed to a real MessagePort there
// (web-contents.ts); closing either end tells the other with `close`.

import { EventEmitter } from 'node:events';

/** Where a port transferred to a renderer now lives. */
export interface RemoteEnd {
  post(message: unknown): void;
  close(): void;
}

export class MessagePortMain extends EventEmitter {
  #peer: MessagePortMain | undefined;
  #remote: RemoteEnd | undefined;
  #started = false;
  #closed = false;
  readonly #queue: { data: unknown; ports: MessagePortMain[] }[] = [];

  static entangle(a: MessagePortMain, b: MessagePortMain): void {
    a.#peer = b;
    b.#peer = a;
  }

  postMessage(message: unknown, transfer: readonly unknown[] = []): void {
    assertPorts(transfer);
    const peer = this.#peer;
    if (this.#closed || !peer || peer.#closed) return;
    if (peer.#remote) {
      if (transfer.length > 0)
        throw new Error('The Electron stand-in does not transfer ports through a port.');
      peer.#remote.post(message);
      return;
    }
    peer.#queue.push({ data: structuredClone(message), ports: [...transfer] as MessagePortMain[] });
    if (peer.#started) setImmediate(() => peer.#deliver());
  }

  start(): void {
    this.#started = true;
    setImmediate(() => this.#deliver());
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#remote?.close();
    this.emit('close');
    const peer = this.#peer;
    if (peer && !peer.#closed) setImmediate(() => peer.#peerClosed());
  }

  /** Whether close ran on this end (tests read it). */
  get closed(): boolean {
    return this.#closed;
  }

  // ---- the stand-in's side ----

  /** This end now lives in a renderer: what its peer posts goes there. */
  moveTo(remote: RemoteEnd): void {
    if (this.#remote) throw new Error('This port was already transferred.');
    this.#remote = remote;
    for (const { data } of this.#queue.splice(0)) remote.post(data);
  }

  /** A message the renderer posted on this end: its peer in main receives it. */
  fromRemote(data: unknown): void {
    const peer = this.#peer;
    if (this.#closed || !peer || peer.#closed) return;
    peer.#queue.push({ data, ports: [] });
    if (peer.#started) setImmediate(() => peer.#deliver());
  }

  /** The renderer closed this end. */
  closedRemotely(): void {
    if (this.#closed) return;
    this.#closed = true;
    const peer = this.#peer;
    if (peer && !peer.#closed) setImmediate(() => peer.#peerClosed());
  }

  #deliver(): void {
    if (!this.#started || this.#closed) return;
    for (let next = this.#queue.shift(); next; next = this.#queue.shift())
      this.emit('message', { data: next.data, ports: next.ports });
  }

  /**
   * Its peer closed: this end closes too, as Electron's do. An end that lives
   * in a renderer is told, after everything posted before the close, so the
   * preload's relay and the page's port are let go of (Chromium fires no
   * `close` on a MessagePort the stand-in could wait for instead).
   */
  #peerClosed(): void {
    this.#deliver();
    if (this.#closed) return;
    this.#closed = true;
    this.#remote?.close();
    this.emit('close');
  }
}

export function assertPorts(transfer: readonly unknown[]): asserts transfer is MessagePortMain[] {
  for (const [index, item] of transfer.entries()) {
    if (!(item instanceof MessagePortMain))
      throw new TypeError(`Port at index ${index} is not a valid port`);
  }
}

export class MessageChannelMain {
  readonly port1 = new MessagePortMain();
  readonly port2 = new MessagePortMain();
  constructor() {
    MessagePortMain.entangle(this.port1, this.port2);
  }
}
