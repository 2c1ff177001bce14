// The quota capability's operations, once, for the app's IPC and the command
// line: what is known of an environment's quota, one request that shows
// whether the key works and what quota the service reports, and "Try now"
// through a hold.

import type { EnvironmentId } from '../../shared/environments.ts';
import type { ConnectionCheckView } from '../../shared/ipc-contract.ts';
import type { QuotaView } from '../../shared/quota.ts';
import type { ServiceAccess } from '../environments/service-access.ts';
import type { ConnectionCheck } from '../store-api/client.ts';

export interface QuotaServiceDeps {
  readonly access: ServiceAccess;
  /** What is known of an environment's quota without a request (the gate's record). */
  readonly view: (environment: EnvironmentId) => QuotaView;
}

export class QuotaService {
  readonly #deps: QuotaServiceDeps;

  constructor(deps: QuotaServiceDeps) {
    this.#deps = deps;
  }

  get(environment: EnvironmentId): QuotaView {
    return this.#deps.view(environment);
  }

  /** One request: whether the service takes the key, and the quota it reports. */
  check(environment: EnvironmentId): Promise<ConnectionCheckView> {
    return this.#call(environment, (client) => client.checkConnection());
  }

  /** One request through a hold the clerk chose to end by hand. */
  tryNow(environment: EnvironmentId): Promise<ConnectionCheckView> {
    return this.#call(environment, (client) => client.tryNow());
  }

  async #call(
    environment: EnvironmentId,
    send: (client: Awaited<ReturnType<ServiceAccess['client']>>) => Promise<ConnectionCheck>,
  ): Promise<ConnectionCheckView> {
    const client = await this.#deps.access.client(environment);
    return { environment, ...(await send(client)) };
  }
}
