// Step 5: Verify is pressed in the dashboard, not here. The step says where,
// what to expect and what a failure means; the user reports the outcome.

import { useAppStore } from '../../store-context.tsx';
import type { FlowOf } from './assistant-flow.ts';

export function VerifyStep({ flow }: { flow: FlowOf<'verify'> }) {
  const setDomainFlow = useAppStore((state) => state.setDomainFlow);
  const runDnsCheck = useAppStore((state) => state.runDnsCheck);
  const { domain, lastCheck } = flow;

  return (
    <>
      <p>The local check says DNS is ready. Now let the platform confirm it:</p>
      <ol className="instructions">
        <li>In the dashboard, open the project’s settings, section Domains.</li>
        <li>
          Find <strong>{domain.ascii}</strong> and press <strong>Verify</strong>.
        </li>
      </ol>
      <h4>What you should see</h4>
      <p>
        The dashboard marks the domain as verified. The platform then requests the SSL certificate
        by itself (next step).
      </p>
      <h4>If verification fails</h4>
      <p>The two usual causes:</p>
      <ul>
        <li>
          A conflicting record for the same name: an existing A (or AAAA) record blocks the{' '}
          {domain.kind === 'apex' ? 'ALIAS/ANAME' : 'CNAME'} record. Delete it at your DNS provider.
        </li>
        <li>
          The {domain.kind === 'apex' ? 'ALIAS/ANAME' : 'CNAME'} value differs from the target shown
          in the dashboard. Compare them letter by letter, or copy the target again (step 3).
        </li>
      </ul>
      <p>
        DNS may also not have reached the platform yet: changes can take up to 48 hours. Check DNS
        again to see which it is.
      </p>
      <div className="step-actions">
        <button
          type="button"
          onClick={() => void setDomainFlow({ kind: 'check-dns', domain, lastCheck })}
        >
          Back
        </button>
        <button
          type="button"
          onClick={() =>
            void setDomainFlow({ kind: 'check-dns', domain, lastCheck }).then(() => runDnsCheck())
          }
        >
          Verification failed: check DNS again
        </button>
        <button
          type="button"
          className="primary-button"
          onClick={() =>
            void setDomainFlow({ kind: 'certificate', domain, lastCheck, verifiedAt: Date.now() })
          }
        >
          Verification succeeded
        </button>
      </div>
    </>
  );
}
