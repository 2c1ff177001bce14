// The deprecation notices the service's answers carried, one per endpoint and
// environment, kept on disk with the clerk's dismissals: a dismissed notice
// stays dismissed for that endpoint, environment and sunset date, and comes
// back only when the service names another sunset. An answer of the endpoint
// without the headers ends its notice (the service no longer says so).

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import {
  STORE_ENDPOINTS,
  type DeprecationNotice,
  type StoreEndpoint,
} from '../../shared/deprecations.ts';
import { ENVIRONMENT_IDS, type EnvironmentId } from '../../shared/environments.ts';
import { NewerDataError, refuseNewer } from '../local-data/data-files.ts';
import type { DeprecationHeaders } from './deprecation.ts';

const noticeSchema = z.object({
  environment: z.enum(ENVIRONMENT_IDS),
  endpoint: z.enum(STORE_ENDPOINTS),
  deprecatedAt: z.number().optional(),
  sunsetAt: z.number().optional(),
  link: z.string().max(2048).optional(),
  seenAt: z.number(),
});

const fileSchema = z.object({
  version: z.literal(1),
  notices: z.array(noticeSchema).max(100),
  dismissed: z.array(z.string().max(200)).max(1000),
});

type NoticesFile = z.infer<typeof fileSchema>;

const keyOf = (environment: EnvironmentId, endpoint: StoreEndpoint) => `${environment} ${endpoint}`;
const dismissalOf = (notice: Pick<DeprecationNotice, 'environment' | 'endpoint' | 'sunsetAt'>) =>
  `${notice.environment} ${notice.endpoint} ${notice.sunsetAt ?? 'no-sunset'}`;

export class DeprecationNotices {
  readonly #file: string;
  #state: Promise<NoticesFile> | undefined;
  #queue: Promise<void> = Promise.resolve();
  readonly #listeners = new Set<(environment: EnvironmentId) => void>();

  constructor(dir: string) {
    this.#file = join(dir, 'deprecation-notices.json');
  }

  /** Called when an environment's notices to show changed. */
  onChange(listener: (environment: EnvironmentId) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * What an answer of `endpoint` said (undefined: no deprecation headers).
   * Saves and tells the listeners only when that changes the notice.
   */
  async observe(
    environment: EnvironmentId,
    endpoint: StoreEndpoint,
    said: DeprecationHeaders | undefined,
    now: number,
  ): Promise<void> {
    const state = await this.#read();
    const key = keyOf(environment, endpoint);
    const index = state.notices.findIndex((n) => keyOf(n.environment, n.endpoint) === key);
    const known = index < 0 ? undefined : state.notices[index];
    if (!said) {
      if (!known) return;
      state.notices.splice(index, 1);
    } else {
      if (
        known &&
        known.deprecatedAt === said.deprecatedAt &&
        known.sunsetAt === said.sunsetAt &&
        known.link === said.link
      )
        return;
      const notice: DeprecationNotice = {
        environment,
        endpoint,
        ...said,
        seenAt: known?.seenAt ?? now,
      };
      if (known) state.notices[index] = notice;
      else state.notices.push(notice);
    }
    await this.#save(state);
    for (const listener of [...this.#listeners]) listener(environment);
  }

  /** The environment's notices the clerk has not dismissed, the soonest sunset first. */
  async list(environment: EnvironmentId): Promise<DeprecationNotice[]> {
    const state = await this.#read();
    const dismissed = new Set(state.dismissed);
    return state.notices
      .filter((n) => n.environment === environment && !dismissed.has(dismissalOf(n)))
      .sort((a, b) => (a.sunsetAt ?? Infinity) - (b.sunsetAt ?? Infinity));
  }

  /** Dismisses the endpoint's notice as it reads now (its sunset date). */
  async dismiss(environment: EnvironmentId, endpoint: StoreEndpoint): Promise<void> {
    const state = await this.#read();
    const notice = state.notices.find(
      (n) => keyOf(n.environment, n.endpoint) === keyOf(environment, endpoint),
    );
    if (!notice) return;
    const dismissal = dismissalOf(notice);
    if (state.dismissed.includes(dismissal)) return;
    state.dismissed.push(dismissal);
    await this.#save(state);
    for (const listener of [...this.#listeners]) listener(environment);
  }

  /** The link of the endpoint's notice, as main recorded it from the service's answer. */
  async linkOf(environment: EnvironmentId, endpoint: StoreEndpoint): Promise<string | undefined> {
    const state = await this.#read();
    return state.notices.find(
      (n) => keyOf(n.environment, n.endpoint) === keyOf(environment, endpoint),
    )?.link;
  }

  #read(): Promise<NoticesFile> {
    this.#state ??= readFile(this.#file, 'utf8')
      .then((text) => fileSchema.parse(JSON.parse(text)))
      .catch(() => ({ version: 1 as const, notices: [], dismissed: [] }));
    return this.#state;
  }

  async #save(state: NoticesFile): Promise<void> {
    // The oldest dismissals go first past the bound.
    if (state.dismissed.length > 1000) state.dismissed.splice(0, state.dismissed.length - 1000);
    const text = JSON.stringify(state);
    this.#queue = this.#queue
      .catch(() => undefined)
      .then(() => refuseNewer(this.#file))
      .then(() => writeFileAtomic(this.#file, text, { mode: 0o600 }))
      // A file of a later version (a newer release's) is left as it is: the notices stay in memory.
      .catch((error: unknown) => {
        if (!(error instanceof NewerDataError)) throw error;
      });
    await this.#queue;
  }
}
