// Step 4: the local DNS check, asking the DNS server the user chose (the
// system's by default) what the platform's Verify will see, and saying what
// to change or how long to wait.

import { useId, useState, type FormEvent } from 'react';
import type { EnvironmentId } from '../../../../shared/environments.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { useAppStore } from '../../store-context.tsx';
import { isReady, type FlowOf } from './assistant-flow.ts';
import { DnsCheckResult } from './dns-check-result.tsx';
import { DEFAULT_CA_DOMAIN } from './domains-slice.ts';
import { DNS_STATUS_SHORT, describeMoment } from './domain-words.ts';

export function CheckDnsStep({
  flow,
  environment,
}: {
  flow: FlowOf<'check-dns'>;
  environment: EnvironmentId;
}) {
  const setDomainFlow = useAppStore((state) => state.setDomainFlow);
  const runDnsCheck = useAppStore((state) => state.runDnsCheck);
  const dnsCheck = useAppStore((state) => state.dnsCheck);
  const resolver = useAppStore((state) => {
    const load = state.domainWorkspaces[environment];
    return load?.kind === 'ready' ? load.workspace.settings.resolver : undefined;
  });
  const [blocked, setBlocked] = useState(false);
  const { domain, lastCheck } = flow;
  const checking = dnsCheck.kind === 'checking';

  return (
    <>
      <p>
        Before pressing Verify in the dashboard, check here that DNS already shows the record the
        way the platform expects. The check asks a DNS server what it holds for{' '}
        <strong>{domain.display}</strong>, the platform target and the CAA records.
      </p>
      <CheckSettingsForm environment={environment} />

      <div className="step-actions">
        <button
          type="button"
          className="primary-button"
          aria-disabled={checking || undefined}
          onClick={() => {
            setBlocked(false);
            void runDnsCheck();
          }}
        >
          {checking ? 'Checking…' : 'Check DNS'}
        </button>
        <span className="muted">
          Asks {resolver === undefined ? 'the system’s DNS servers' : `the DNS server ${resolver}`}.
        </span>
      </div>
      {dnsCheck.kind === 'idle' && lastCheck && (
        <p className="note">
          Last checked {describeMoment(lastCheck.at)}: {DNS_STATUS_SHORT[lastCheck.status]}. Check
          again to see the details.
        </p>
      )}
      <DnsCheckResult check={dnsCheck} label="DNS check result" />

      <h4>How long it takes</h4>
      <p>
        The check itself takes a few seconds. A record you have just created usually shows up within
        minutes, but DNS changes can take up to 48 hours to reach everyone. If it still does not
        show up after that, look again at the record in step 3: the name and the value must match
        exactly.
      </p>

      <StatusRegion tone="warning">
        {blocked && !isReady(lastCheck)
          ? 'Go on to Verify when the check says Ready: until then the dashboard’s Verify would fail for the same reason.'
          : undefined}
      </StatusRegion>
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
          onClick={() => {
            if (!isReady(lastCheck)) {
              setBlocked(true);
              return;
            }
            void setDomainFlow({ kind: 'verify', domain, lastCheck });
          }}
        >
          Continue to Verify
        </button>
      </div>
    </>
  );
}

/** Which DNS server to ask and which certificate authority the CAA check looks for, saved per environment. */
export function CheckSettingsForm({ environment }: { environment: EnvironmentId }) {
  const saveDomainSettings = useAppStore((state) => state.saveDomainSettings);
  const settings = useAppStore((state) => {
    const load = state.domainWorkspaces[environment];
    return load?.kind === 'ready' ? load.workspace.settings : undefined;
  });
  const outcome = useAppStore((state) =>
    state.domainSettingsOutcome?.form === 'check' ? state.domainSettingsOutcome : undefined,
  );
  const [useSystem, setUseSystem] = useState(settings?.resolver === undefined);
  const [server, setServer] = useState(settings?.resolver ?? '');
  const [caDomain, setCaDomain] = useState(settings?.caDomain ?? '');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const serverId = useId();
  const serverHintId = useId();
  const problemId = useId();
  const caId = useId();
  const caHintId = useId();
  const saving = outcome?.kind === 'working';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    if (!useSystem && server.trim() === '') {
      setProblem(
        'Enter the DNS server as HOST:PORT, e.g. 1.1.1.1 or 127.0.0.1:5353, or choose System default.',
      );
      return;
    }
    setProblem(undefined);
    await saveDomainSettings(
      environment,
      { resolver: useSystem ? '' : server.trim(), caDomain: caDomain.trim() },
      'check',
    );
  };

  return (
    <details className="domains-block check-settings">
      <summary>How to check (DNS server, certificate authority)</summary>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <fieldset>
          <legend>DNS server to ask</legend>
          <label className="checkbox">
            <input
              type="radio"
              name="dns-server"
              checked={useSystem}
              onChange={() => setUseSystem(true)}
            />
            System default (this computer’s usual DNS servers)
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name="dns-server"
              checked={!useSystem}
              onChange={() => setUseSystem(false)}
            />
            A specific DNS server
          </label>
          <div className="nested-field">
            <label htmlFor={serverId}>DNS server (HOST:PORT)</label>
            <p id={serverHintId} className="hint">
              An IP address with an optional port, e.g. 1.1.1.1 or 127.0.0.1:5353.
            </p>
            <input
              id={serverId}
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={server}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${serverHintId} ${problemId}` : serverHintId}
              onChange={(event) => {
                setServer(event.target.value);
                setUseSystem(false);
              }}
            />
            {problem && (
              <p id={problemId} className="field-problem">
                {problem}
              </p>
            )}
          </div>
        </fieldset>
        <label htmlFor={caId}>Certificate authority for the CAA check</label>
        <p id={caHintId} className="hint">
          The domain the platform’s certificate authority uses in CAA records. Leave empty for{' '}
          {DEFAULT_CA_DOMAIN}.
        </p>
        <div className="field-row">
          <input
            id={caId}
            type="text"
            autoComplete="off"
            spellCheck={false}
            placeholder={DEFAULT_CA_DOMAIN}
            value={caDomain}
            aria-describedby={caHintId}
            onChange={(event) => setCaDomain(event.target.value)}
          />
        </div>
        <div className="step-actions">
          <button type="submit" aria-disabled={saving || undefined}>
            {saving ? 'Saving…' : 'Save how to check'}
          </button>
        </div>
        <StatusRegion
          tone={
            outcome?.kind === 'failed' ? 'error' : outcome?.kind === 'done' ? 'success' : 'info'
          }
        >
          {outcome?.message}
        </StatusRegion>
      </form>
    </details>
  );
}
