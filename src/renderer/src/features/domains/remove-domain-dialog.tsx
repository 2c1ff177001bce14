// Removing a domain: in the dashboard it stops traffic at once, so the
// dialog says so and offers a redirect first, which it saves into the
// configuration together with the removal. Here removing forgets the saved
// progress.

import { useRef, useState, type FormEvent, type RefObject } from 'react';
import type { ProjectId } from '../../../../shared/domain-projects.ts';
import { placeHostName, validateDomainsConfig } from '../../../../shared/domains-config.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { TextField, type FieldMessage } from '../../components/text-field.tsx';
import { useAppStore } from '../../store-context.tsx';
import {
  asciiOf,
  firstRedirectTarget,
  liveDomains,
  unservedWarning,
  withRedirect,
} from './served-domains.ts';

export function RemoveDomainDialog({
  project,
  domain,
  fallbackFocus,
  onClose,
}: {
  project: ProjectId;
  domain: string;
  fallbackFocus: RefObject<HTMLElement | null>;
  onClose: () => void;
}) {
  const removeDomain = useAppStore((state) => state.removeDomain);
  const workspace = useAppStore((state) => {
    const load = state.domainWorkspaces[project];
    return load?.kind === 'ready' ? load.workspace : undefined;
  });
  const [redirecting, setRedirecting] = useState(false);
  const [busy, setBusy] = useState(false);
  const config = workspace?.config;
  const detouring = redirecting && workspace !== undefined;
  const ascii = asciiOf(domain);
  const usedBy =
    config === undefined
      ? []
      : [
          ...(config.primary === ascii ? ['it is the primary domain'] : []),
          ...config.redirects
            .filter((redirect) => redirect.to === ascii)
            .map((redirect) => `${redirect.from} redirects to it`),
        ];

  const remove = async () => {
    setBusy(true);
    const removed = await removeDomain(project, domain);
    setBusy(false);
    if (removed) onClose();
  };

  return (
    <ConfirmDialog
      title={`Remove ${domain}?`}
      tone="danger"
      keepLabel="Cancel"
      confirmLabel={`Remove ${domain}`}
      onConfirm={() => void remove()}
      onDismiss={onClose}
      alternative={{ label: 'Add a redirect first', onSelect: () => setRedirecting(true) }}
      detour={
        detouring ? (
          <RedirectForm
            project={project}
            domain={domain}
            initialTarget={firstRedirectTarget(config, workspace.progress, domain)}
            served={[
              ...(config && config.primary !== ascii ? [config.primary] : []),
              ...liveDomains(workspace.progress, domain),
            ]}
            busy={busy}
            setBusy={setBusy}
            onDone={onClose}
            onBack={() => setRedirecting(false)}
          />
        ) : undefined
      }
      fallbackFocus={fallbackFocus}
      busy={busy}
    >
      <p>
        Removing it in the dashboard stops its traffic at once: visitors get an error instead of the
        project. If the address was shared (links, emails, print), add a redirect first.
      </p>
      {usedBy.length > 0 && !detouring && (
        <p className="message message-warning">
          The configuration under “Several domains” still uses {domain}: {usedBy.join('; ')}.
        </p>
      )}
      {!detouring && (
        <p className="muted">
          Remove here forgets the assistant’s progress for {domain}; remove it in the dashboard too
          (the menu next to the domain, then Remove).
        </p>
      )}
    </ConfirmDialog>
  );
}

/** Where `domain` should send its visitors, saved into the configuration, then the removal. */
function RedirectForm({
  project,
  domain,
  initialTarget,
  served,
  busy,
  setBusy,
  onDone,
  onBack,
}: {
  project: ProjectId;
  domain: string;
  initialTarget: string;
  /** The domains (ASCII) known to serve the project. */
  served: readonly string[];
  busy: boolean;
  setBusy: (busy: boolean) => void;
  onDone: () => void;
  onBack: () => void;
}) {
  const config = useAppStore((state) => {
    const load = state.domainWorkspaces[project];
    return load?.kind === 'ready' ? load.workspace.config : undefined;
  });
  const saveDomainsConfig = useAppStore((state) => state.saveDomainsConfig);
  const removeDomain = useAppStore((state) => state.removeDomain);
  const outcome = useAppStore((state) => state.domainsConfigOutcome);
  const removeProblem = useAppStore((state) => state.domainSaveProblem);
  const [to, setTo] = useState(initialTarget);
  // Nothing is said about the field before it is typed in or sent.
  const [judged, setJudged] = useState(false);
  const [failed, setFailed] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const placed = placeHostName(to, 'The domain to redirect to');
  const validation = validateDomainsConfig(withRedirect(config, domain, to));
  const problem = !placed.ok
    ? placed.message
    : !validation.ok
      ? validation.problems[0]?.message
      : undefined;
  const warning = unservedWarning(to, served);
  // Why the save or the removal failed, until the field is edited again.
  const failureText = outcome?.kind === 'failed' ? outcome.message : removeProblem;
  const failure: FieldMessage | undefined =
    failed && failureText !== undefined ? { tone: 'error', text: failureText } : undefined;
  const message: FieldMessage | undefined =
    judged && problem !== undefined
      ? { tone: 'error', text: problem }
      : (failure ?? (warning !== undefined ? { tone: 'warning', text: warning } : undefined));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setJudged(true);
    if (busy) return;
    if (!validation.ok) {
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    const saved = await saveDomainsConfig(project, validation.config);
    const removed = saved && (await removeDomain(project, domain));
    setBusy(false);
    if (removed) onDone();
    else setFailed(true);
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <TextField
        ref={inputRef}
        label={`Redirect ${domain} to`}
        hint="A domain that serves the project. Saved as a 301 redirect under “Several domains”; enter it in the dashboard too."
        value={to}
        message={message}
        // The button that led here is gone; the field is what this step is about.
        // eslint-disable-next-line jsx-a11y-x/no-autofocus -- focus would otherwise fall to the page
        autoFocus
        onChange={(event) => {
          setTo(event.target.value);
          setJudged(true);
          setFailed(false);
        }}
      />
      <div className="dialog-actions">
        <button type="button" onClick={onBack} disabled={busy}>
          Back
        </button>
        <button type="submit" className="danger-button" disabled={busy}>
          Save the redirect and remove {domain}
        </button>
      </div>
    </form>
  );
}
