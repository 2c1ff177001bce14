// Step 4: the local DNS check, asking the DNS server the user chose (the
// system's by default) what the platform's Verify will see, and saying what
// to change or how long to wait. Verify is out of reach until the check says
// Ready, and the step says why next to the button. How to check (the DNS
// server, the certificate authority) is folded away under the result.

import { useId } from 'react';
import type { DomainBadge } from '../../../../shared/domain-watch.ts';
import type { DomainStatus } from '../../../../shared/domains.ts';
import type { ProjectId } from '../../../../shared/domain-projects.ts';
import { useAppStore } from '../../store-context.tsx';
import { isReady, type FlowOf, type SavedCheck } from './assistant-flow.ts';
import { CheckSettingsForm } from './check-settings-form.tsx';
import { DnsCheckResult } from './dns-check-result.tsx';
import { DNS_STATUS_SHORT, describeMoment } from './domain-words.ts';
import { OwnChecksLine, useOpenDomainWatch } from './domain-badge.tsx';
import { useNow } from '../../components/use-now.ts';

/** Why Verify cannot be reached yet, by what the last check said. */
const NOT_READY_YET: Readonly<Record<Exclude<DomainStatus, 'ready'>, string>> = {
  misconfigured: 'The last check found something to fix.',
  pending: 'The last check does not see the record yet.',
  error: 'The last check could not finish.',
};

/** What Store Admin's own check found, as the status the words above are keyed by. */
const STATUS_OF_BADGE: Readonly<Partial<Record<DomainBadge, Exclude<DomainStatus, 'ready'>>>> = {
  misconfigured: 'misconfigured',
  'waiting-for-dns': 'pending',
  'could-not-check': 'error',
};

function whyNotVerify(
  lastCheck: SavedCheck | undefined,
  checking: boolean,
  ownVerdict: DomainBadge | undefined,
): string | undefined {
  if (checking) return 'Checking…';
  if (lastCheck === undefined) {
    // Store Admin's own check has run: Verify waits for what it found, not for a first check.
    const own = ownVerdict === undefined ? undefined : STATUS_OF_BADGE[ownVerdict];
    return own !== undefined
      ? NOT_READY_YET[own]
      : 'Check DNS first: Verify can only succeed once it says Ready.';
  }
  return lastCheck.status === 'ready' ? undefined : NOT_READY_YET[lastCheck.status];
}

export function CheckDnsStep({ flow, project }: { flow: FlowOf<'check-dns'>; project: ProjectId }) {
  const setDomainFlow = useAppStore((state) => state.setDomainFlow);
  const runDnsCheck = useAppStore((state) => state.runDnsCheck);
  const dnsCheck = useAppStore((state) => state.dnsCheck);
  const reasonId = useId();
  const { domain, lastCheck } = flow;
  const checking = dnsCheck.kind === 'checking';
  const ownVerdict = useOpenDomainWatch(domain.display)?.badge;
  const reason = whyNotVerify(lastCheck, checking, ownVerdict);
  const now = useNow(60_000);

  return (
    <>
      <p>
        Checks what DNS shows for <strong>{domain.display}</strong> before you press Verify in the
        dashboard.
      </p>
      <div className="step-actions">
        <button
          type="button"
          className="primary-button"
          aria-disabled={checking || undefined}
          onClick={() => void runDnsCheck()}
        >
          {checking ? 'Checking…' : 'Check DNS'}
        </button>
        {dnsCheck.kind === 'idle' && lastCheck && (
          <span className="muted">
            Last checked {describeMoment(lastCheck.at, now)}: {DNS_STATUS_SHORT[lastCheck.status]}.
          </span>
        )}
      </div>
      <DnsCheckResult check={dnsCheck} label="DNS check result" />
      {/* Main re-checks while the domain waits: a check of its that says Ready unlocks Verify. */}
      <OwnChecksLine
        domain={domain.display}
        what="the DNS"
        resultShown={dnsCheck.kind === 'done'}
      />
      {/* Under the result, so opening it never pushes the result out of view. */}
      <CheckSettingsForm project={project} />

      <div className="step-actions">
        <button
          type="button"
          onClick={() =>
            void setDomainFlow({
              kind: 'configure-dns',
              domain,
              ...(lastCheck ? { lastCheck } : {}),
            })
          }
        >
          Back
        </button>
        <button
          type="button"
          className="primary-button"
          aria-disabled={!isReady(lastCheck) || undefined}
          aria-describedby={reason !== undefined ? reasonId : undefined}
          onClick={() => {
            if (isReady(lastCheck)) void setDomainFlow({ kind: 'verify', domain, lastCheck });
          }}
        >
          Continue to Verify
        </button>
        {reason !== undefined && (
          <span id={reasonId} className="muted">
            {reason}
          </span>
        )}
      </div>
    </>
  );
}
