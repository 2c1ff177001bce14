// How the DNS check works, saved per project: which DNS server it asks
// (this computer's usual ones when empty) and which certificate authority the
// CAA check looks for. Folded away, with the current choice in its summary.

import { useRef, useState, type FormEvent } from 'react';
import { checkDnsServer } from '../../../../shared/domain-assistant.ts';
import { normaliseHostName } from '../../../../shared/domains-config.ts';
import type { ProjectId } from '../../../../shared/domain-projects.ts';
import { outcomeMessage, TextField, type FieldMessage } from '../../components/text-field.tsx';
import { useAppStore } from '../../store-context.tsx';
import { DEFAULT_CA_DOMAIN } from './domains-slice.ts';

export function CheckSettingsForm({ project }: { project: ProjectId }) {
  const saveDomainSettings = useAppStore((state) => state.saveDomainSettings);
  const forgetOutcome = useAppStore((state) => state.forgetDomainSettingsOutcome);
  const settings = useAppStore((state) => {
    const load = state.domainWorkspaces[project];
    return load?.kind === 'ready' ? load.workspace.settings : undefined;
  });
  const outcome = useAppStore((state) =>
    state.domainSettingsOutcome?.form === 'check' ? state.domainSettingsOutcome : undefined,
  );
  const [server, setServer] = useState(settings?.resolver ?? '');
  const [caDomain, setCaDomain] = useState(settings?.caDomain ?? '');
  const [judged, setJudged] = useState(false);
  const serverRef = useRef<HTMLInputElement>(null);
  const caRef = useRef<HTMLInputElement>(null);
  // Empty means "not set": this computer's DNS servers, the default authority.
  const serverCheck = server.trim() === '' ? undefined : checkDnsServer(server);
  const caCheck =
    caDomain.trim() === '' ? undefined : normaliseHostName(caDomain, 'The certificate authority');
  const serverProblem = serverCheck?.ok === false ? serverCheck.message : undefined;
  const caProblem = caCheck?.ok === false ? caCheck.message : undefined;
  const saving = outcome?.kind === 'working';
  const serverMessage: FieldMessage | undefined =
    judged && serverProblem !== undefined
      ? { tone: 'error', text: serverProblem }
      : outcomeMessage(outcome);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setJudged(true);
    if (serverProblem !== undefined) return serverRef.current?.focus();
    if (caProblem !== undefined) return caRef.current?.focus();
    if (saving) return;
    await saveDomainSettings(
      project,
      {
        resolver: serverCheck?.ok ? serverCheck.text : '',
        caDomain: caCheck?.ok ? caCheck.ascii : '',
      },
      'check',
    );
  };

  return (
    <details className="check-settings">
      <summary>
        How to check:{' '}
        {settings?.resolver === undefined
          ? 'this computer’s DNS servers'
          : `DNS server ${settings.resolver}`}
        , certificate authority {settings?.caDomain ?? DEFAULT_CA_DOMAIN}
      </summary>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField
          ref={serverRef}
          label="DNS server"
          hint="An IP address and an optional port: 1.1.1.1, 127.0.0.1:5353 or [::1]:53. Leave empty for this computer’s DNS servers."
          value={server}
          message={serverMessage}
          onChange={(event) => {
            setServer(event.target.value);
            setJudged(true);
            forgetOutcome();
          }}
        />
        <TextField
          ref={caRef}
          label="Certificate authority"
          hint={`The domain its CAA records name. Leave empty for ${DEFAULT_CA_DOMAIN}.`}
          placeholder={DEFAULT_CA_DOMAIN}
          value={caDomain}
          message={
            judged && caProblem !== undefined ? { tone: 'error', text: caProblem } : undefined
          }
          onChange={(event) => {
            setCaDomain(event.target.value);
            setJudged(true);
            forgetOutcome();
          }}
        />
        <button type="submit" aria-disabled={saving || undefined}>
          {saving ? 'Saving…' : 'Save how to check'}
        </button>
      </form>
    </details>
  );
}
