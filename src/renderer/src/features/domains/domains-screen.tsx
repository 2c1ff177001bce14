// The Domains screen: for the active environment, the domains in progress
// (each offered to resume where it was left, or to remove), a new domain,
// the open assistant, and the multi-domain configuration.

import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import type { DomainProgress } from '../../../../shared/domain-assistant.ts';
import { placeHostName } from '../../../../shared/domains-config.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { useAppStore } from '../../store-context.tsx';
import { STEP_ORDER, STEP_TITLES, stepNumber } from './assistant-flow.ts';
import { DomainAssistant } from './domain-assistant.tsx';
import { DomainsConfigEditor } from './domains-config-editor.tsx';
import { DNS_STATUS_SHORT, describeMoment } from './domain-words.ts';
import { RemoveDomainDialog } from './remove-domain-dialog.tsx';
import './domains.css';

export function DomainsScreen() {
  const environment = useAppStore((state) => state.activeEnvironment);
  const load = useAppStore((state) => state.domainWorkspaces[environment]);
  const session = useAppStore((state) => state.domainSession);
  const loadDomainWorkspace = useAppStore((state) => state.loadDomainWorkspace);

  useEffect(() => {
    void loadDomainWorkspace(environment);
  }, [environment, loadDomainWorkspace]);

  return (
    <section aria-labelledby="domains-heading" className="screen domains-screen">
      <h2 id="domains-heading">Custom domains</h2>
      <p className="note">
        Serve a published project from your own domain instead of the platform’s subdomain. What you
        do here is saved for the {ENVIRONMENT_LABELS[environment]} environment, so you can come back
        later and carry on.
      </p>
      {load === undefined || load.kind === 'loading' ? (
        <p role="status">Loading your saved domains…</p>
      ) : load.kind === 'failed' ? (
        <p role="alert" className="message message-error">
          Your saved domains could not be loaded: {load.message}
        </p>
      ) : session && session.environment === environment ? (
        <DomainAssistant session={session} />
      ) : (
        <DomainsOverview environment={environment} />
      )}
    </section>
  );
}

function DomainsOverview({ environment }: { environment: EnvironmentId }) {
  const saved = useAppStore(
    useShallow((state) => {
      const load = state.domainWorkspaces[environment];
      return load?.kind === 'ready' ? Object.values(load.workspace.progress) : [];
    }),
  );
  const startDomainAssistant = useAppStore((state) => state.startDomainAssistant);
  const resumeDomain = useAppStore((state) => state.resumeDomain);
  const addRedirectFrom = useAppStore((state) => state.addRedirectFrom);
  const saveProblem = useAppStore((state) => state.domainSaveProblem);
  const [removing, setRemoving] = useState<string | undefined>(undefined);
  const [resumeProblem, setResumeProblem] = useState<string | undefined>(undefined);
  const [configFocus, setConfigFocus] = useState(0);
  const configHeadingRef = useRef<HTMLHeadingElement>(null);
  const addButtonRef = useRef<HTMLButtonElement>(null);

  // After "Add a redirect first" the dialog has closed (and handed the focus
  // back to its opener); the focus then moves on to the configuration.
  useEffect(() => {
    if (configFocus > 0) configHeadingRef.current?.focus();
  }, [configFocus]);

  const sorted = [...saved].sort((a, b) => b.updatedAt - a.updatedAt);

  return (
    <>
      <section aria-labelledby="domains-saved-heading" className="domains-block">
        <h3 id="domains-saved-heading">Domains in progress</h3>
        {sorted.length === 0 ? (
          <p className="empty">No domain in progress yet.</p>
        ) : (
          <>
            <p>Pick up where you left off:</p>
            <ul className="saved-domains">
              {sorted.map((progress) => (
                <SavedDomain
                  key={progress.domain}
                  progress={progress}
                  onResume={() => {
                    if (!resumeDomain(environment, progress.domain)) {
                      setResumeProblem(
                        `${progress.domain} cannot be resumed: its saved name is not a valid domain. Remove it and add the domain again.`,
                      );
                    }
                  }}
                  onRemove={() => setRemoving(progress.domain)}
                />
              ))}
            </ul>
          </>
        )}
        <StatusRegion tone="error">{resumeProblem ?? saveProblem}</StatusRegion>
        <button
          ref={addButtonRef}
          type="button"
          className="primary-button"
          onClick={() => startDomainAssistant(environment)}
        >
          Add a domain
        </button>
      </section>

      <DomainsConfigEditor environment={environment} headingRef={configHeadingRef} />

      {removing !== undefined && (
        <RemoveDomainDialog
          environment={environment}
          domain={removing}
          fallbackFocus={addButtonRef}
          onClose={() => setRemoving(undefined)}
          onAddRedirect={() => {
            const placed = placeHostName(removing);
            addRedirectFrom(environment, placed.ok ? placed.place.display : removing);
            setRemoving(undefined);
            setConfigFocus((n) => n + 1);
          }}
        />
      )}
    </>
  );
}

function SavedDomain({
  progress,
  onResume,
  onRemove,
}: {
  progress: DomainProgress;
  onResume: () => void;
  onRemove: () => void;
}) {
  const placed = placeHostName(progress.domain);
  const ascii =
    placed.ok && placed.place.ascii !== placed.place.display ? placed.place.ascii : undefined;
  return (
    <li className="saved-domain">
      <div>
        <strong>{progress.domain}</strong>
        {ascii && <span className="muted"> ({ascii})</span>}
        <div className="muted">
          At step {stepNumber(progress.step)} of {STEP_ORDER.length}: {STEP_TITLES[progress.step]}.
          {progress.verifiedAt !== undefined && ` Verified ${describeMoment(progress.verifiedAt)}.`}
          {progress.lastCheck &&
            ` Last DNS check ${describeMoment(progress.lastCheck.at)}: ${DNS_STATUS_SHORT[progress.lastCheck.status]}.`}
          {` Saved ${describeMoment(progress.updatedAt)}.`}
        </div>
      </div>
      <div className="saved-domain-actions">
        <button type="button" onClick={onResume} aria-label={`Resume ${progress.domain}`}>
          Resume
        </button>
        <button
          type="button"
          className="danger-button"
          onClick={onRemove}
          aria-label={`Remove ${progress.domain}…`}
        >
          Remove…
        </button>
      </div>
    </li>
  );
}
