// How each environment is named where it matters. Production is always marked
// in words, never by colour alone.

import type { EnvironmentId } from '../../../../shared/environments.ts';

export const ENVIRONMENT_BANDS: Readonly<Record<EnvironmentId, string>> = {
  sandbox: 'SANDBOX — demo data',
  staging: 'STAGING — test service',
  production: 'PRODUCTION — live orders',
};

/** The environment's name with its nature, for dialogs and messages. */
export const ENVIRONMENT_NAMES: Readonly<Record<EnvironmentId, string>> = {
  sandbox: 'Sandbox (demo data)',
  staging: 'Staging',
  production: 'Production (live)',
};
