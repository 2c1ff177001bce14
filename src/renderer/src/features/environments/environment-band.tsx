// The coloured band across the top of the window that says, in words, which
// environment every action goes to.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import { ENVIRONMENT_BANDS } from './environment-words.ts';

export function EnvironmentBand({
  environment,
  live = false,
}: {
  environment: EnvironmentId;
  live?: boolean;
}) {
  return (
    <p
      className={`band band-${environment}`}
      role={live ? 'status' : undefined}
      data-environment={environment}
    >
      {ENVIRONMENT_BANDS[environment]}
    </p>
  );
}

/** The environment's name inline, marked the same way as the band. */
export function EnvironmentTag({
  environment,
  children,
}: {
  environment: EnvironmentId;
  children: string;
}) {
  return <strong className={`env-tag env-tag-${environment}`}>{children}</strong>;
}
