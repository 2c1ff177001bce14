// One request to the environment's service: whether it accepts the key, and
// the quota it reported with the plan that quota implies. A remote
// environment is tested only once it has an address: before that the button
// says why it waits.

import { useId } from 'react';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { useAppStore } from '../../store-context.tsx';
import { describeHold, describePlan, describeQuota } from '../quota/quota-text.ts';
import { connectionFailureWords } from './check-words.ts';

export function ConnectionTest({ environment }: { environment: EnvironmentId }) {
  const test = useAppStore((state) => state.connectionTests[environment]);
  const testConnection = useAppStore((state) => state.testConnection);
  const hasAddress = useAppStore(
    (state) =>
      environment === 'sandbox' ||
      state.environments.find((view) => view.id === environment)?.baseUrl !== undefined,
  );
  const hintId = useId();
  const label = ENVIRONMENT_LABELS[environment];
  const testing = test?.kind === 'testing';

  let content = null;
  if (test?.kind === 'testing') {
    content = <p>Testing the connection to {label}…</p>;
  } else if (test?.kind === 'passed') {
    const { quota } = test.check;
    const hold = describeHold(quota);
    content = (
      <>
        <p>{test.check.message}</p>
        <p>{describeQuota(quota)}.</p>
        {quota.limit !== undefined && <p>{describePlan(quota.limit)}.</p>}
        {hold && <p>{hold}.</p>}
      </>
    );
  } else if (test?.kind === 'failed') {
    const words = connectionFailureWords(test.failure, environment);
    content = (
      <>
        <p>{words.sentence}</p>
        {words.details.length > 0 && (
          <details className="settings-details">
            <summary>Details</summary>
            {words.details.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </details>
        )}
      </>
    );
  }

  return (
    <div className="settings-row">
      <h4>Connection</h4>
      <div>
        <p id={hintId} className="settings-hint">
          {hasAddress
            ? 'Sends one request and shows what the service answered.'
            : `Save the ${label} address above first.`}
        </p>
        <button
          type="button"
          aria-disabled={testing || !hasAddress || undefined}
          aria-describedby={hasAddress ? undefined : hintId}
          onClick={() => {
            if (hasAddress) void testConnection(environment);
          }}
        >
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        <StatusRegion
          label={`${label} connection test`}
          tone={test?.kind === 'failed' ? 'error' : test?.kind === 'passed' ? 'success' : 'info'}
        >
          {content}
        </StatusRegion>
      </div>
    </div>
  );
}
