// Injected faults, so a client's handling of slow, failing, lost and broken
// answers can be exercised. A spec reads `kind[=param]@rate,...`, e.g.
// `latency=200@0.3,5xx@0.1,reset@0.05,malformed@0.02`:
// - latency=MS  delays the answer by MS milliseconds;
// - 5xx         answers 503 (service_unavailable) before doing anything; the
//               request still counts against the quota and carries rate-limit headers;
// - reset       processes the request (a cancel really cancels), then destroys
//               the socket without an answer: the lost-response case;
// - malformed   answers a list request with 200 and a truncated JSON array;
// - 429=N       starts a burst: this request and the next N-1 (any key) answer
//               429 rate_limited with a Retry-After of one second, before doing
//               anything, whatever the quota says (a service under load).
// The rate is a probability from 0 to 1 (omitted: 1). Rolls come from a
// generator seeded from the sandbox seed, so a run repeats.

import { mulberry32 } from './prng.ts';
import type { Random } from './prng.ts';

export type FaultKind = 'latency' | '5xx' | 'reset' | 'malformed' | '429';

export type FaultRule =
  | { readonly kind: 'latency'; readonly ms: number; readonly rate: number }
  | { readonly kind: '429'; readonly burst: number; readonly rate: number }
  | { readonly kind: '5xx' | 'reset' | 'malformed'; readonly rate: number };

export type FaultSpec = readonly FaultRule[];

/** The faults that fired for one request. */
export interface FaultRoll {
  readonly latencyMs: number;
  readonly serverError: boolean;
  readonly reset: boolean;
  readonly malformed: boolean;
  /** Part of a burst of 429s. */
  readonly tooMany: boolean;
  /** The kinds that fired, for the request log. */
  readonly kinds: readonly FaultKind[];
}

export const NO_FAULTS: FaultRoll = {
  latencyMs: 0,
  serverError: false,
  reset: false,
  malformed: false,
  tooMany: false,
  kinds: [],
};

const KINDS: readonly FaultKind[] = ['latency', '5xx', 'reset', 'malformed', '429'];
const RULE = /^([a-z0-9]+)(?:=([^@]*))?(?:@(.*))?$/;
const DECIMAL = /^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$|^\.[0-9]+$/;

export class FaultSpecError extends Error {
  override name = 'FaultSpecError';
}

/** Parse a fault spec; throws FaultSpecError naming the bad rule and why. */
export function parseFaultSpec(spec: string): FaultSpec {
  const rules: FaultRule[] = [];
  const trimmed = spec.trim();
  if (trimmed === '') return rules;
  for (const raw of trimmed.split(',')) {
    const text = raw.trim();
    const fail = (reason: string) =>
      new FaultSpecError(`Invalid fault spec "${spec}": rule "${text}" ${reason}`);
    const match = RULE.exec(text);
    if (!match) throw fail('must read kind[=param]@rate, e.g. latency=200@0.3 or 5xx@0.1');
    const [, name, param, rateText] = match;
    const kind = KINDS.find((k) => k === name);
    if (!kind) throw fail(`has unknown kind "${name}" (known: ${KINDS.join(', ')})`);
    if (rules.some((r) => r.kind === kind)) throw fail('repeats a kind already given');
    let rate = 1;
    if (rateText !== undefined) {
      if (!DECIMAL.test(rateText)) throw fail(`has rate "${rateText}", not a number from 0 to 1`);
      rate = Number(rateText);
      if (rate > 1) throw fail(`has rate ${rateText}, above 1`);
    }
    if (kind === 'latency') {
      if (param === undefined || !/^[0-9]+$/.test(param)) {
        throw fail('needs a delay in whole milliseconds, e.g. latency=200@0.3');
      }
      rules.push({ kind, ms: Number(param), rate });
    } else if (kind === '429') {
      if (param === undefined || !/^[1-9][0-9]{0,3}$/.test(param)) {
        throw fail('needs the length of a burst, 1 to 9999 requests, e.g. 429=5@0.01');
      }
      rules.push({ kind, burst: Number(param), rate });
    } else {
      if (param !== undefined) throw fail(`takes no parameter ("=${param}")`);
      rules.push({ kind, rate });
    }
  }
  return rules;
}

/** Check a spec given as data, with the same messages as the parser. */
export function validateFaultSpec(spec: FaultSpec): FaultSpec {
  return parseFaultSpec(formatFaultSpec(spec));
}

/** The spec string of a rule list (parseFaultSpec's inverse). */
export function formatFaultSpec(spec: FaultSpec): string {
  return spec
    .map(
      (rule) =>
        `${rule.kind}${rule.kind === 'latency' ? `=${rule.ms}` : rule.kind === '429' ? `=${rule.burst}` : ''}@${rule.rate}`,
    )
    .join(',');
}

/** Rolls the configured faults for each request from a seeded generator. */
export class FaultInjector {
  readonly #seed: number;
  #spec: FaultSpec = [];
  #random: Random;
  /** Requests still to answer 429 in the current burst. */
  #burstLeft = 0;

  constructor(spec: string | FaultSpec | undefined, seed: number) {
    this.#seed = seed;
    this.#random = mulberry32(seed);
    this.set(spec);
  }

  get spec(): FaultSpec {
    return this.#spec;
  }

  /** Replace the faults; the generator restarts from the seed, so runs repeat from here. */
  set(spec: string | FaultSpec | undefined): void {
    if (spec === undefined) this.#spec = [];
    else this.#spec = typeof spec === 'string' ? parseFaultSpec(spec) : validateFaultSpec(spec);
    // A different stream from the order data's, which uses the seed itself.
    this.#random = mulberry32(this.#seed ^ 0x5eed_fa17);
    this.#burstLeft = 0;
  }

  roll(): FaultRoll {
    if (this.#spec.length === 0) return NO_FAULTS;
    let latencyMs = 0;
    const kinds: FaultKind[] = [];
    const inBurst = this.#burstLeft > 0;
    // One draw per rule on every request, so one rule's outcome never shifts another's.
    for (const rule of this.#spec) {
      const fired = this.#random() < rule.rate;
      if (rule.kind === '429') {
        if (inBurst) {
          this.#burstLeft -= 1;
          kinds.push('429');
        } else if (fired) {
          this.#burstLeft = rule.burst - 1;
          kinds.push('429');
        }
        continue;
      }
      if (!fired) continue;
      kinds.push(rule.kind);
      if (rule.kind === 'latency') latencyMs = rule.ms;
    }
    return {
      latencyMs,
      serverError: kinds.includes('5xx'),
      reset: kinds.includes('reset'),
      malformed: kinds.includes('malformed'),
      tooMany: kinds.includes('429'),
      kinds,
    };
  }
}
