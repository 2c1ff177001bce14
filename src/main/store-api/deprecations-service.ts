// The operations on the service's deprecation notices, once: the notices of
// an environment, putting one away, and opening the link the service itself
// gave (https only, read from its answer; the renderer never sends an address).

import type { DeprecationNotice, StoreEndpoint } from '../../shared/deprecations.ts';
import type { EnvironmentId } from '../../shared/environments.ts';
import type { DeprecationNotices } from './deprecation-notices.ts';

export class DeprecationsService {
  readonly #notices: DeprecationNotices;
  readonly #openExternal: ((url: string) => void) | undefined;

  /** `openExternal`: the system's browser (Electron's shell); absent where there is none. */
  constructor(notices: DeprecationNotices, openExternal?: (url: string) => void) {
    this.#notices = notices;
    this.#openExternal = openExternal;
  }

  list(environment: EnvironmentId): Promise<DeprecationNotice[]> {
    return this.#notices.list(environment);
  }

  async dismiss(environment: EnvironmentId, endpoint: StoreEndpoint): Promise<DeprecationNotice[]> {
    await this.#notices.dismiss(environment, endpoint);
    return this.#notices.list(environment);
  }

  async openLink(
    environment: EnvironmentId,
    endpoint: StoreEndpoint,
  ): Promise<{ opened: boolean }> {
    const link = await this.#notices.linkOf(environment, endpoint);
    if (link === undefined || !this.#openExternal) return { opened: false };
    this.#openExternal(link);
    return { opened: true };
  }
}
