// One request to the environment's service: whether it accepts the key, and
// the quota it reported with the plan that quota implies.

import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { useAppStore } from '../../store-context.tsx';
import { describeHold, describePlan, describeQuota } from '../quota/quota-text.ts';

export function ConnectionTest({ environment }: { environment: EnvironmentId }) {
  const test = useAppStore((state) => state.connectionTests[environment]);
  const testConnection = useAppStore((state) => state.testConnection);
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
    content = <p>{test.failure.message}</p>;
  }

  return (
    <div className="settings-row">
      <h4>Connection</h4>
      <div>
        <p className="settings-hint">Sends one request and shows what the service answered.</p>
        <button
          type="button"
          aria-disabled={testing || undefined}
          onClick={() => void testConnection(environment)}
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
