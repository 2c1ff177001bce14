// The command line's services: the app's own OrdersService and QuotaService
// (src/main/orders, src/main/quota), over one address and one key instead of
// environments, so a cancel from a shell is sent, logged and explained as it
// is in the app. Its one address is kept under the environment the app has
// it in (app-environment.ts), so the two keep one history. Whatever the data
// or cache folder will not take is collected here for the command to say
// once, in plain words.

import type { ServiceAccess } from '../main/environments/service-access.ts';
import type { ServiceScope } from '../main/environments/service-scope.ts';
import { join } from 'node:path';
import { EARLIER_QUOTA_STATE } from '../main/local-data/earlier-quota-state.ts';
import { refusingNewer } from '../main/local-data/data-files.ts';
import { nodeFiles } from '../main/local-data/local-files.ts';
import { StorageHealth } from '../main/local-data/storage-health.ts';
import { OrdersService } from '../main/orders/orders-service.ts';
import { RequestGate } from '../main/quota/gate.ts';
import { QuotaService } from '../main/quota/quota-service.ts';
import { quotaFolder, SharedGateFolder } from '../main/quota/shared-gate-files.ts';
import type { Timing } from '../main/store-api/clock.ts';
import { StoreClient, type KeyHelp } from '../main/store-api/client.ts';
import type { DeprecationHeaders } from '../main/store-api/deprecation.ts';
import { RetryBudget } from '../main/store-api/retry-budget.ts';
import type { StoreEndpoint } from '../shared/deprecations.ts';
import type { CliEnvironment } from './app-environment.ts';
import { cliLists, cliScope } from './changes-command.ts';

export interface CliServicesOptions {
  readonly baseUrl: string;
  /** The environment the app keeps the address under (app-environment.ts). */
  readonly environment: CliEnvironment;
  readonly key: string;
  /** Where the gate's state is shared with the app and other runs (and bulk-cancel journals). */
  readonly dataDir: string;
  /** Where lists and the cancel log are kept. */
  readonly cacheDir: string;
  readonly timing: Timing;
  /** How requests reach the service: through the environment's proxy (network.ts). */
  readonly fetch?: typeof fetch;
  readonly keyHelp: KeyHelp;
  readonly onDeprecation: (endpoint: StoreEndpoint, said: DeprecationHeaders | undefined) => void;
}

export function cliServices(options: CliServicesOptions) {
  const { baseUrl, environment, key, dataDir, cacheDir, timing } = options;
  const gates = new SharedGateFolder(quotaFolder(dataDir), timing.now, undefined, {
    earlierState: join(dataDir, EARLIER_QUOTA_STATE),
  });
  const store = gates.open(baseUrl, key);
  // Found out before anything is sent: a run that cannot share the gate's state must not send.
  const sharing = store.probe();
  const gate = new RequestGate({ timing, store });
  const client = new StoreClient({
    baseUrl,
    getKey: () => key,
    gate,
    budget: new RetryBudget(timing.now),
    timing,
    keyHelp: options.keyHelp,
    onDeprecation: options.onDeprecation,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const scope: ServiceScope = cliScope(baseUrl, environment);
  const access: ServiceAccess = { client: async () => client, scopeOf: () => scope };
  /** What the cache folder would not take: lists and the cancel log. */
  const cacheSaves = new StorageHealth(cacheDir);
  const { cache, cancelLog, tracker } = cliLists(
    cacheDir,
    cacheSaves.watch(refusingNewer(nodeFiles())),
  );
  const orders = new OrdersService({
    access,
    cache,
    cancelLog,
    now: timing.now,
    saves: cacheSaves,
    changes: tracker,
  });
  const quota = new QuotaService({ access, view: () => gate.view() });
  return { client, gate, scope, orders, quota, cacheSaves, sharing };
}
