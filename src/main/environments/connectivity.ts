// Whether an environment's service can be reached: one state per environment,
// inferred here from every attempt any part of the app makes (a refresh, a
// cancel, a bulk cancel's DELETEs, a connection test), and pushed to the
// renderer as it changes. The notices, the bulk-cancel strip, the quota meter
// and cancel all read this one state, so they never disagree.
//
// One lost answer says little (a connection cut in passing, a proxy's
// hiccup): the service is called unreachable only after several attempts in
// a row went unanswered, or at once when the connection was refused (or the
// host is unknown), which is known for certain on the first try. Any answer,
// whatever its status, says the service is there; except a web page where
// the service answers JSON (a hotel's or a company's sign-in page in between),
// which says at once that the address does not reach the service. The state changes only at
// those two edges, so a run of mixed outcomes cannot make it flap.

import type { EnvironmentId } from '../../shared/environments.ts';
import type { AttemptOutcome } from '../store-api/client.ts';

export type { AttemptOutcome };

export interface ConnectivityChange {
  readonly environment: EnvironmentId;
  /** False once the service is inferred to be unreachable; true otherwise (answered, or not known yet). */
  readonly reachable: boolean;
  /** Why it cannot be reached, in plain words. */
  readonly message?: string;
  /** `web-page`: its address answers with a web page, not the store service (a network's sign-in page). */
  readonly cause?: 'web-page';
  /** Epoch ms when this state began. */
  readonly since: number;
}

export type ConnectivityListener = (change: ConnectivityChange) => void;

/** Unanswered attempts in a row after which the service is called unreachable. */
export const UNREACHABLE_AFTER = 3;

interface EnvironmentReach {
  /** Undefined until an attempt was answered or the service was found unreachable. */
  state?: ConnectivityChange;
  /** Unanswered attempts since the last answer. */
  missed: number;
}

export class Connectivity {
  readonly #listeners = new Set<ConnectivityListener>();
  readonly #reach = new Map<EnvironmentId, EnvironmentReach>();
  readonly #now: () => number;
  readonly #threshold: number;

  constructor(now: () => number = Date.now, threshold = UNREACHABLE_AFTER) {
    this.#now = now;
    this.#threshold = threshold;
  }

  onChange(listener: ConnectivityListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The state of an environment's service; undefined while nothing is known of it. */
  stateOf(environment: EnvironmentId): ConnectivityChange | undefined {
    return this.#reach.get(environment)?.state;
  }

  /** Every environment's state that is known. */
  states(): ConnectivityChange[] {
    return [...this.#reach.values()].flatMap((reach) => (reach.state ? [reach.state] : []));
  }

  isUnreachable(environment: EnvironmentId): boolean {
    return this.#reach.get(environment)?.state?.reachable === false;
  }

  /** What one attempt to reach `environment`'s service came to. */
  record(environment: EnvironmentId, outcome: AttemptOutcome): void {
    const reach = this.#reach.get(environment) ?? { missed: 0 };
    this.#reach.set(environment, reach);
    if (outcome.answered) {
      reach.missed = 0;
      if (reach.state?.reachable !== true) this.#set(reach, { environment, reachable: true });
      return;
    }
    reach.missed += 1;
    const unreachable = outcome.refused || reach.missed >= this.#threshold;
    const state = reach.state;
    // Still unreachable, but for another reason the clerk acts on differently (a sign-in page appears or goes).
    if (unreachable && (state?.reachable !== false || state.cause !== outcome.cause))
      this.#set(reach, {
        environment,
        reachable: false,
        message: outcome.message,
        ...(outcome.cause ? { cause: outcome.cause } : {}),
      });
  }

  /** The environment points at another service now: nothing is known of it yet. */
  forget(environment: EnvironmentId): void {
    const reach = this.#reach.get(environment);
    this.#reach.delete(environment);
    if (reach?.state?.reachable === false)
      this.#tell({ environment, reachable: true, since: this.#now() });
  }

  #set(reach: EnvironmentReach, change: Omit<ConnectivityChange, 'since'>): void {
    reach.state = { ...change, since: this.#now() };
    this.#tell(reach.state);
  }

  #tell(change: ConnectivityChange): void {
    for (const listener of [...this.#listeners]) listener(change);
  }
}
