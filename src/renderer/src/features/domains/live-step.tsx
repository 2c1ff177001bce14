// Step 7: the domain is live. What the user should see, and where to go from here.

import { useAppStore } from '../../store-context.tsx';
import type { FlowOf } from './assistant-flow.ts';

export function LiveStep({ flow }: { flow: FlowOf<'live'> }) {
  const setDomainFlow = useAppStore((state) => state.setDomainFlow);
  const closeDomainAssistant = useAppStore((state) => state.closeDomainAssistant);
  const { domain, verifiedAt, lastCheck } = flow;

  return (
    <>
      <p className="message message-success">
        <strong>{domain.display}</strong> is live: the project is served at https://{domain.ascii}.
      </p>
      <h4>What you should see</h4>
      <p>
        https://{domain.ascii} opens the project, with a padlock in the address bar. Some visitors
        may still reach the old address for a while, as DNS changes spread (up to 48 hours).
      </p>
      <h4>If it does not open</h4>
      <p>
        Go back one step and check the certificate, or check DNS again: a record changed or removed
        since verification stops the domain from working.
      </p>
      <p>
        To serve the project from more than one domain, set up the primary domain and redirects
        under “Several domains” on the list of domains.
      </p>
      <div className="step-actions">
        <button
          type="button"
          onClick={() =>
            void setDomainFlow({
              kind: 'certificate',
              domain,
              verifiedAt,
              ...(lastCheck ? { lastCheck } : {}),
            })
          }
        >
          Back
        </button>
        <button type="button" className="primary-button" onClick={closeDomainAssistant}>
          Done: back to all domains
        </button>
      </div>
    </>
  );
}
