// Step 3: the exact record to create at the DNS provider, ready to copy. The
// platform's target comes from the dashboard: the user pastes it once and it
// is remembered for the project.

import { useRef, useState, type FormEvent } from 'react';
import type { ProjectId } from '../../../../shared/domain-projects.ts';
import { normaliseHostName, type PlacedHostName } from '../../../../shared/domains-config.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { outcomeMessage, TextField } from '../../components/text-field.tsx';
import { useAppStore } from '../../store-context.tsx';
import type { FlowOf } from './assistant-flow.ts';
import { CopyButton } from './copy-button.tsx';

/** The TTL the interface documents for the record, in seconds. */
export const RECORD_TTL = 3600;

export function ConfigureDnsStep({
  flow,
  project,
}: {
  flow: FlowOf<'configure-dns'>;
  project: ProjectId;
}) {
  const setDomainFlow = useAppStore((state) => state.setDomainFlow);
  const target = useAppStore((state) => {
    const load = state.domainWorkspaces[project];
    return load?.kind === 'ready' ? load.workspace.settings.target : undefined;
  });
  const [blocked, setBlocked] = useState(false);
  const { domain } = flow;

  return (
    <>
      <TargetForm project={project} savedTarget={target} />
      {target === undefined ? (
        <p className="note">The record to create appears here once the target is saved.</p>
      ) : (
        <DnsRecord domain={domain} target={target} />
      )}

      <h4>What you should see</h4>
      <p>
        Your DNS provider lists the new record. It usually takes effect within minutes, but DNS
        changes can take up to 48 hours to reach everyone. The next step checks it for you.
      </p>
      <h4>If the provider refuses the record</h4>
      <p>
        {domain.kind === 'subdomain'
          ? `A name with a CNAME record can have no other record. If the provider says a record with this name already exists, delete the old A, AAAA or CNAME record for "${domain.subdomain}" first: a leftover A record blocks the CNAME and verification fails.`
          : 'If the provider has no ALIAS or ANAME type, it does not support them: move the domain’s DNS to a provider that does, or attach a subdomain such as www instead.'}
      </p>

      <StatusRegion tone="warning">
        {blocked && target === undefined
          ? 'Paste the target from the dashboard and save it first: the check in the next step needs it.'
          : undefined}
      </StatusRegion>
      <div className="step-actions">
        <button type="button" onClick={() => void setDomainFlow({ kind: 'add-domain', domain })}>
          Back
        </button>
        <button
          type="button"
          className="primary-button"
          aria-disabled={target === undefined || undefined}
          onClick={() => {
            if (target === undefined) {
              setBlocked(true);
              return;
            }
            void setDomainFlow({
              kind: 'check-dns',
              domain,
              ...(flow.lastCheck ? { lastCheck: flow.lastCheck } : {}),
            });
          }}
        >
          I have created the record: continue
        </button>
      </div>
    </>
  );
}

function TargetForm({
  project,
  savedTarget,
}: {
  project: ProjectId;
  savedTarget: string | undefined;
}) {
  const saveDomainSettings = useAppStore((state) => state.saveDomainSettings);
  const forgetOutcome = useAppStore((state) => state.forgetDomainSettingsOutcome);
  const outcome = useAppStore((state) =>
    state.domainSettingsOutcome?.form === 'target' ? state.domainSettingsOutcome : undefined,
  );
  const [text, setText] = useState(savedTarget ?? '');
  const [edited, setEdited] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const check = normaliseHostName(text, 'The target');
  const problem = edited && !check.ok ? check.message : undefined;
  const saving = outcome?.kind === 'working';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setEdited(true);
    if (!check.ok) {
      inputRef.current?.focus();
      return;
    }
    if (saving) return;
    if (await saveDomainSettings(project, { target: check.ascii }, 'target')) {
      setText(check.ascii);
      setEdited(false);
    }
  };

  return (
    <form className="domains-block" noValidate onSubmit={(event) => void onSubmit(event)}>
      <TextField
        ref={inputRef}
        label="Platform target"
        hint="Shown in the dashboard once you add the domain there (project settings, Domains). Remembered for this project."
        value={text}
        message={problem !== undefined ? { tone: 'error', text: problem } : outcomeMessage(outcome)}
        onChange={(event) => {
          setText(event.target.value);
          setEdited(true);
          forgetOutcome();
        }}
        actions={
          <button type="submit" aria-disabled={saving || undefined}>
            {saving ? 'Saving…' : 'Save target'}
          </button>
        }
      />
    </form>
  );
}

function DnsRecord({ domain, target }: { domain: PlacedHostName; target: string }) {
  const apex = domain.kind === 'apex';
  const host = apex ? '@' : domain.subdomain;
  const type = apex ? 'ALIAS' : 'CNAME';
  const zoneLine = `${domain.ascii}. ${RECORD_TTL} IN ${type} ${target}.`;
  return (
    <section aria-labelledby="dns-record-heading" className="domains-block">
      <h4 id="dns-record-heading">The record to create</h4>
      <p>At your DNS provider, create this record{apex ? '' : ' for the subdomain'}:</p>
      <table className="dns-record">
        <tbody>
          <tr>
            <th scope="row">Type</th>
            <td>
              <code className="selectable">{apex ? 'ALIAS (or ANAME)' : 'CNAME'}</code>
            </td>
            <td />
          </tr>
          <tr>
            <th scope="row">Name (host)</th>
            <td>
              <code className="selectable">{host}</code>
              <div className="hint">
                {apex
                  ? `@ stands for the domain itself. Some providers want the full name instead: ${domain.ascii}.`
                  : `Some providers want the full name instead: ${domain.ascii}.`}
              </div>
            </td>
            <td>
              <CopyButton text={host} label="Copy name" what={`the name ${host}`} />
              <CopyButton
                text={domain.ascii}
                label="Copy full name"
                what={`the full name ${domain.ascii}`}
              />
            </td>
          </tr>
          <tr>
            <th scope="row">Value (target)</th>
            <td>
              <code className="selectable">{target}</code>
            </td>
            <td>
              <CopyButton text={target} label="Copy value" what={`the value ${target}`} />
            </td>
          </tr>
          <tr>
            <th scope="row">TTL</th>
            <td>
              <code className="selectable">{RECORD_TTL}</code> seconds (1 hour)
            </td>
            <td />
          </tr>
        </tbody>
      </table>
      <div className="zone-line">
        As one line (zone-file form), for providers that take it:{' '}
        <code className="selectable">{zoneLine}</code>{' '}
        <CopyButton text={zoneLine} label="Copy record" what="the whole record" />
      </div>
      {apex && (
        <p className="message message-warning" role="note">
          An apex domain cannot have a CNAME record, so it uses an ALIAS or ANAME record. Not every
          DNS provider supports them: if yours does not offer either type, move the domain’s DNS to
          a provider that does, or attach a subdomain such as www.{domain.ascii} instead.
        </p>
      )}
    </section>
  );
}
