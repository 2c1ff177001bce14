// Sends the user to an environment's settings when a failure can only be
// fixed there (no key, a key the service refused, no address yet).

import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import { useAppStore } from '../../store-context.tsx';

export function failureNeedsSettings(
  failure: Failure,
  environment: EnvironmentId,
  hasBaseUrl: boolean,
): boolean {
  if (environment === 'sandbox') return false;
  return failure.kind === 'unauthorized' || failure.kind === 'no-key' || !hasBaseUrl;
}

export function OpenSettingsButton({
  environment,
  label,
}: {
  environment: EnvironmentId;
  /** The button's words (default: "Open Staging settings"). */
  label?: string;
}) {
  const showSettings = useAppStore((state) => state.showSettings);
  return (
    <button
      type="button"
      className="link-button"
      onClick={() => showSettings(environment, { focusHeading: true })}
    >
      {label ?? `Open ${ENVIRONMENT_LABELS[environment]} settings`}
    </button>
  );
}
