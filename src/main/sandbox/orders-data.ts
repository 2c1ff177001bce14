// The sandbox's order book: deterministic orders generated from a seed, their
// server-side status, and the JSON body of the list, cached so that a list of a
// million orders is serialized once and only the changed part is rebuilt.

import { mulberry32 } from './prng.ts';

/** Status is server-side only: the interface lists no status field in the Order record. */
export type OrderStatus = 'pending' | 'shipped' | 'cancelled';

export interface OrderBookOptions {
  /** How many orders to generate. */
  readonly count: number;
  /** Seed of the generator: same seed, same orders. */
  readonly seed: number;
  /** Put every order id and pet id above 2^53, where JSON numbers stop being exact as doubles. */
  readonly bigIds?: boolean;
}

export interface OrderFilter {
  readonly status?: OrderStatus;
  /** At most this many ids (in list order). */
  readonly limit?: number;
}

/** Result of a cancel attempt: what the DELETE operation answers. */
export type CancelOutcome = 'cancelled' | 'already-shipped' | 'not-found';

/** The list body as parts to write in order, plus their total length (the Content-Length). */
export interface ListBody {
  readonly parts: readonly Buffer[];
  readonly length: number;
}

const PENDING = 0;
const SHIPPED = 1;
const CANCELLED = 2;
const STATUS_NAMES: readonly OrderStatus[] = ['pending', 'shipped', 'cancelled'];

/** First big id is 2^53 + 1, the smallest integer a double cannot hold. */
export const BIG_ORDER_ID_BASE = 2n ** 53n + 1n;
export const BIG_ORDER_ID_STEP = 7n;
export const BIG_PET_ID_BASE = 2n ** 54n + 1n;

/** Share of generated orders that are pending; the rest are shipped. */
const PENDING_SHARE = 0.6;
/** Ship dates are spread around this fixed moment, so they depend on the seed only. */
const REFERENCE_SECONDS = Date.UTC(2025, 5, 1) / 1000;
const DAY_SECONDS = 86_400;
/** Orders serialized per cached chunk; a cancel rebuilds one chunk, not the whole list. */
const CHUNK_SIZE = 4096;

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

export class OrderBook {
  readonly count: number;
  readonly bigIds: boolean;
  readonly #idBase: bigint;
  readonly #idStep: bigint;
  readonly #petBase: bigint;
  readonly #petCount: number;
  readonly #status: Uint8Array;
  readonly #complete: Uint8Array;
  readonly #quantity: Uint8Array;
  readonly #petIndex: Uint32Array;
  /** Ship date as seconds relative to REFERENCE_SECONDS. */
  readonly #shipOffset: Int32Array;
  readonly #petReferenced: Uint8Array;
  readonly #chunks: Array<Buffer | undefined>;
  #listBody: ListBody | undefined;

  constructor(options: OrderBookOptions) {
    const { count, seed } = options;
    if (!Number.isSafeInteger(count) || count < 0) {
      throw new RangeError(`orders must be a non-negative integer, got ${count}`);
    }
    this.count = count;
    this.bigIds = options.bigIds ?? false;
    this.#idBase = this.bigIds ? BIG_ORDER_ID_BASE : 1n;
    this.#idStep = this.bigIds ? BIG_ORDER_ID_STEP : 1n;
    this.#petBase = this.bigIds ? BIG_PET_ID_BASE : 1n;
    this.#petCount = Math.max(1, Math.ceil(count / 2));
    this.#status = new Uint8Array(count);
    this.#complete = new Uint8Array(count);
    this.#quantity = new Uint8Array(count);
    this.#petIndex = new Uint32Array(count);
    this.#shipOffset = new Int32Array(count);
    this.#petReferenced = new Uint8Array(this.#petCount);
    this.#chunks = new Array<Buffer | undefined>(Math.ceil(count / CHUNK_SIZE)).fill(undefined);

    const random = mulberry32(seed);
    for (let i = 0; i < count; i++) {
      // Always five draws per order, so order i does not depend on earlier branches.
      const pending = random() < PENDING_SHARE;
      const pet = Math.floor(random() * this.#petCount);
      const quantity = 1 + Math.floor(random() * 5);
      const offsetDraw = random();
      const completeDraw = random();
      this.#status[i] = pending ? PENDING : SHIPPED;
      this.#petIndex[i] = pet;
      this.#petReferenced[pet] = 1;
      this.#quantity[i] = quantity;
      // Pending orders ship within the next 30 days; shipped ones shipped in the last 180.
      this.#shipOffset[i] = pending
        ? Math.floor(3600 + offsetDraw * 30 * DAY_SECONDS)
        : -Math.floor(3600 + offsetDraw * 180 * DAY_SECONDS);
      // Only a shipped order can have been fulfilled; about half of them are.
      this.#complete[i] = !pending && completeDraw < 0.5 ? 1 : 0;
    }
  }

  /** The id of the order at a position of the generated sequence. */
  idAt(index: number): bigint {
    return this.#idBase + BigInt(index) * this.#idStep;
  }

  /** Position of an order id in the generated sequence, whatever its status. */
  indexOf(id: bigint): number | undefined {
    const offset = id - this.#idBase;
    if (offset < 0n || offset % this.#idStep !== 0n) return undefined;
    const index = offset / this.#idStep;
    return index < BigInt(this.count) ? Number(index) : undefined;
  }

  /** The status of an order, 'cancelled' included; undefined for an id never generated. */
  status(id: bigint): OrderStatus | undefined {
    const index = this.indexOf(id);
    return index === undefined ? undefined : STATUS_NAMES[this.#status[index] ?? CANCELLED];
  }

  /** Force a status (test hook); a cancelled order can be brought back. */
  setStatus(id: bigint, status: OrderStatus): void {
    const index = this.indexOf(id);
    if (index === undefined) throw new RangeError(`no order with id ${id}`);
    this.#status[index] = STATUS_NAMES.indexOf(status);
    this.#invalidate(index);
  }

  /** The cancel operation: only a pending order can be cancelled. */
  cancel(id: bigint): CancelOutcome {
    const index = this.indexOf(id);
    const status = index === undefined ? CANCELLED : this.#status[index];
    if (index === undefined || status === CANCELLED) return 'not-found';
    if (status === SHIPPED) return 'already-shipped';
    this.#status[index] = CANCELLED;
    this.#invalidate(index);
    return 'cancelled';
  }

  /** Whether some generated order refers to this pet id (cancelled orders included). */
  hasPet(petId: bigint): boolean {
    const offset = petId - this.#petBase;
    if (offset < 0n || offset >= BigInt(this.#petCount)) return false;
    return this.#petReferenced[Number(offset)] === 1;
  }

  /** A pet id in range that no order refers to, if there is one (test hook). */
  unreferencedPetId(): bigint | undefined {
    const index = this.#petReferenced.indexOf(0);
    return index === -1 ? undefined : this.#petBase + BigInt(index);
  }

  /** Ids of the orders (as decimal strings, exact above 2^53), in list order. */
  orderIds(filter: OrderFilter = {}): string[] {
    const wanted = filter.status === undefined ? undefined : STATUS_NAMES.indexOf(filter.status);
    const limit = filter.limit ?? Number.POSITIVE_INFINITY;
    const ids: string[] = [];
    for (let i = 0; i < this.count && ids.length < limit; i++) {
      const status = this.#status[i];
      const listed = wanted === undefined ? status !== CANCELLED : status === wanted;
      if (listed) ids.push(this.idAt(i).toString());
    }
    return ids;
  }

  /** The JSON array of the orders not cancelled, built from cached chunks. */
  listBody(): ListBody {
    if (this.#listBody) return this.#listBody;
    const parts: Buffer[] = [OPEN];
    let length = OPEN.length + CLOSE.length;
    for (let c = 0; c < this.#chunks.length; c++) {
      const chunk = this.#chunks[c] ?? this.#serializeChunk(c);
      if (chunk.length === 0) continue;
      if (parts.length > 1) {
        parts.push(COMMA);
        length += COMMA.length;
      }
      parts.push(chunk);
      length += chunk.length;
    }
    parts.push(CLOSE);
    this.#listBody = { parts, length };
    return this.#listBody;
  }

  #serializeChunk(chunkIndex: number): Buffer {
    const start = chunkIndex * CHUNK_SIZE;
    const end = Math.min(this.count, start + CHUNK_SIZE);
    // Plain numbers while ids stay exact as doubles; bigints only in big-id mode.
    const idBase = Number(this.#idBase);
    const petBase = Number(this.#petBase);
    const objects: string[] = [];
    for (let i = start; i < end; i++) {
      const status = this.#status[i];
      if (status === CANCELLED) continue;
      const pet = this.#petIndex[i] ?? 0;
      // Written by hand: JSON.stringify cannot write a bigint as a bare number.
      const id = this.bigIds ? this.idAt(i).toString() : String(idBase + i);
      const petId = this.bigIds ? (this.#petBase + BigInt(pet)).toString() : String(petBase + pet);
      const shipDate = formatShipDate(REFERENCE_SECONDS + (this.#shipOffset[i] ?? 0));
      const complete = status === SHIPPED && this.#complete[i] === 1;
      objects.push(
        `{"id":${id},"petId":${petId},"quantity":${this.#quantity[i]},` +
          `"shipDate":"${shipDate}","complete":${complete}}`,
      );
    }
    // Every character is ASCII, so latin1 encoding is exact and faster than utf8.
    const chunk = Buffer.from(objects.join(','), 'latin1');
    this.#chunks[chunkIndex] = chunk;
    return chunk;
  }

  #invalidate(index: number): void {
    this.#chunks[Math.floor(index / CHUNK_SIZE)] = undefined;
    this.#listBody = undefined;
  }
}

const datePrefixes = new Map<number, string>();

/**
 * ISO 8601 date-time in UTC, like Date#toISOString but several times faster for
 * a million orders: the date part of the few hundred distinct days is cached.
 */
export function formatShipDate(epochSeconds: number): string {
  const day = Math.floor(epochSeconds / DAY_SECONDS);
  let prefix = datePrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 11);
    datePrefixes.set(day, prefix);
  }
  const second = epochSeconds - day * DAY_SECONDS;
  const hh = Math.floor(second / 3600);
  const mm = Math.floor((second % 3600) / 60);
  const ss = second % 60;
  return `${prefix}${hh < 10 ? '0' : ''}${hh}:${mm < 10 ? '0' : ''}${mm}:${ss < 10 ? '0' : ''}${ss}Z`;
}
