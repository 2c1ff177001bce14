// The sandbox's order book: deterministic orders generated from a seed, their
// server-side status, and the JSON body of the list, cached so that a list of a
// million orders is serialized once and only the changed part is rebuilt.
// With churn, the book moves on by itself a step at a time (see `churn`), each
// step drawn from the seed and the step's number, so a run repeats.

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

/**
 * What one churn step does, as shares of the generated orders (each at least
 * one): pending orders ship, shipped ones complete, new ones arrive, and
 * pending ones are cancelled by someone else (so they leave the list).
 */
export const CHURN_SHARES = {
  ship: 0.005,
  complete: 0.003,
  arrive: 0.004,
  cancelElsewhere: 0.002,
} as const;

/** What a churn step changed, by order id. */
export interface ChurnStep {
  readonly shipped: readonly string[];
  readonly completed: readonly string[];
  readonly arrived: readonly string[];
  readonly cancelled: readonly string[];
}

export class OrderBook {
  readonly bigIds: boolean;
  #count: number;
  /** How many orders were generated at the start: churn steps are sized from it. */
  readonly #initialCount: number;
  readonly #seed: number;
  readonly #idBase: bigint;
  readonly #idStep: bigint;
  readonly #petBase: bigint;
  readonly #petCount: number;
  #status: Uint8Array;
  #complete: Uint8Array;
  #quantity: Uint8Array;
  #petIndex: Uint32Array;
  /** Ship date as seconds relative to REFERENCE_SECONDS. */
  #shipOffset: Int32Array;
  readonly #petReferenced: Uint8Array;
  #chunks: Array<Buffer | undefined>;
  #listBody: ListBody | undefined;
  #churnSteps = 0;

  constructor(options: OrderBookOptions) {
    const { count, seed } = options;
    if (!Number.isSafeInteger(count) || count < 0) {
      throw new RangeError(`orders must be a non-negative integer, got ${count}`);
    }
    this.#count = count;
    this.#initialCount = count;
    this.#seed = seed;
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

  /** Orders generated so far (cancelled ones included). */
  get count(): number {
    return this.#count;
  }

  /** Churn steps taken so far. */
  get churnSteps(): number {
    return this.#churnSteps;
  }

  /**
   * Takes churn steps until `steps` have been taken; step k happens at the
   * sandbox-clock moment `momentOf(k)` (epoch ms), which becomes the ship
   * date of the orders it ships. Returns what each new step did.
   */
  churnTo(steps: number, momentOf: (step: number) => number): ChurnStep[] {
    const done: ChurnStep[] = [];
    while (this.#churnSteps < steps) {
      this.#churnSteps += 1;
      done.push(this.#churnStep(this.#churnSteps, momentOf(this.#churnSteps)));
    }
    return done;
  }

  #churnStep(step: number, moment: number): ChurnStep {
    // A stream of its own per step: step k does the same whatever came before it.
    const random = mulberry32((this.#seed ^ Math.imul(step, 0x9e3779b1)) >>> 0);
    const amount = (share: number) => Math.max(1, Math.round(this.#initialCount * share));
    const momentSeconds = Math.floor(moment / 1000) - REFERENCE_SECONDS;
    const pick = (wanted: (index: number) => boolean, count: number): number[] => {
      const picked = new Set<number>();
      // Bounded: a book with few such orders left gets fewer.
      for (let tries = 0; tries < count * 20 && picked.size < count && this.#count > 0; tries++) {
        const index = Math.floor(random() * this.#count);
        if (wanted(index)) picked.add(index);
      }
      return [...picked];
    };
    const shipped = pick((i) => this.#status[i] === PENDING, amount(CHURN_SHARES.ship));
    for (const index of shipped) {
      this.#status[index] = SHIPPED;
      this.#shipOffset[index] = momentSeconds;
      this.#invalidate(index);
    }
    const justShipped = new Set(shipped);
    const completed = pick(
      (i) => this.#status[i] === SHIPPED && this.#complete[i] === 0 && !justShipped.has(i),
      amount(CHURN_SHARES.complete),
    );
    for (const index of completed) {
      this.#complete[index] = 1;
      this.#invalidate(index);
    }
    const cancelled = pick(
      (i) => this.#status[i] === PENDING,
      amount(CHURN_SHARES.cancelElsewhere),
    );
    for (const index of cancelled) {
      this.#status[index] = CANCELLED;
      this.#invalidate(index);
    }
    const arrived: number[] = [];
    const first = this.#count;
    this.#grow(first + amount(CHURN_SHARES.arrive));
    for (let index = first; index < this.#count; index++) {
      this.#status[index] = PENDING;
      this.#petIndex[index] = Math.floor(random() * this.#petCount);
      this.#quantity[index] = 1 + Math.floor(random() * 5);
      // New orders ship within the next 30 days of the step's moment.
      this.#shipOffset[index] = momentSeconds + Math.floor(3600 + random() * 30 * DAY_SECONDS);
      this.#complete[index] = 0;
      this.#invalidate(index);
      arrived.push(index);
    }
    const ids = (indexes: readonly number[]) => indexes.map((i) => this.idAt(i).toString());
    return {
      shipped: ids(shipped),
      completed: ids(completed),
      arrived: ids(arrived),
      cancelled: ids(cancelled),
    };
  }

  /** Room for `count` orders: the arrays grow by half again, so appending stays cheap. */
  #grow(count: number): void {
    if (count > this.#status.length) {
      const capacity = Math.max(count, Math.ceil(this.#status.length * 1.5));
      const grown = <A extends Uint8Array | Uint32Array | Int32Array>(array: A): A => {
        const next = new (array.constructor as new (length: number) => A)(capacity);
        next.set(array);
        return next;
      };
      this.#status = grown(this.#status);
      this.#complete = grown(this.#complete);
      this.#quantity = grown(this.#quantity);
      this.#petIndex = grown(this.#petIndex);
      this.#shipOffset = grown(this.#shipOffset);
    }
    this.#count = count;
    const chunks = Math.ceil(count / CHUNK_SIZE);
    while (this.#chunks.length < chunks) this.#chunks.push(undefined);
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
    return index < BigInt(this.#count) ? Number(index) : undefined;
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
    for (let i = 0; i < this.#count && ids.length < limit; i++) {
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
    const end = Math.min(this.#count, start + CHUNK_SIZE);
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
