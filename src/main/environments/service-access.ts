// How a capability's service reaches the store service: the client of an
// environment's service now, and the scope its local data belongs to. The app
// gives its EnvironmentService (which fits this as it is); the command line,
// which has one address and one key, gives its own client.

import type { EnvironmentId } from '../../shared/environments.ts';
import type { StoreClient } from '../store-api/client.ts';
import type { ServiceScope } from './service-scope.ts';

export interface ServiceAccess {
  /** The client of an environment's service, for the key it has now. */
  client(environment: EnvironmentId): Promise<StoreClient>;
  /** The service an environment's data belongs to now (undefined while its address is unset). */
  scopeOf(environment: EnvironmentId): ServiceScope | undefined;
}

/** Where a failure to save is told (StorageHealth in the app; the command line says it itself). */
export interface SaveReports {
  /** A save of `file` failed: returns whether it was the disk's or the folder's doing. */
  failed(error: unknown, file: string): boolean;
  saved(file: string): void;
}
