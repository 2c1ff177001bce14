// The Domains screen: for the active environment, the live domains and the
// domains in progress (each offered to open where it was left, or to remove),
// a new domain, the open assistant, and the multi-domain configuration.

import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import type { DomainProgress } from '../../../../shared/domain-assistant.ts';
import type { DomainWatchView } from '../../../../shared/domain-watch.ts';
import { placeHostName } from '../../../../shared/domains-config.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { useAppStore } from '../../store-context.tsx';
import { STEP_ORDER, STEP_TITLES, stepNumber } from './assistant-flow.ts';
import { DomainAssistant } from './domain-assistant.tsx';
import { DomainsConfigEditor } from './domains-config-editor.tsx';
import { DNS_STATUS_SHORT, describeMoment } from './domain-words.ts';
import { DomainBadgeLine } from './domain-badge.tsx';
import { troubleshootingKey } from './domain-watch-slice.ts';
import { RemoveDomainDialog } from './remove-domain-dialog.tsx';
import { isLive } from './served-domains.ts';
import './domains.css';

export function DomainsScreen() {
  const environment = useAppStore((state) => state.activeEnvironment);
  const load = useAppStore((state) => state.domainWorkspaces[environment]);
  const session = useAppStore((state) => state.domainSession);
  const loadDomainWorkspace = useAppStore((state) => state.loadDomainWorkspace);
  const loadDomainWatches = useAppStore((state) => state.loadDomainWatches);

  useEffect(() => {
    void loadDomainWorkspace(environment);
    void loadDomainWatches(environment);
  }, [environment, loadDomainWorkspace, loadDomainWatches]);
  useTroubleshootingOpens(environment);

  return (
    <section aria-labelledby="domains-heading" className="screen domains-screen">
      <h2 id="domains-heading">Custom domains</h2>
      <p className="note">
        Serve a published project from your own domain, step by step. Saved for{' '}
        {ENVIRONMENT_LABELS[environment]}, so you can carry on later.
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

/**
 * A domain still without a certificate 30 minutes after verification: the
 * assistant opens it at its certificate step, where the troubleshooting is
 * (once per domain, and only over the list, never over another domain's step).
 */
function useTroubleshootingOpens(environment: EnvironmentId) {
  const due = useAppStore((state) => {
    const opened = new Set(state.troubleshootingOpened);
    return Object.values(state.domainWatches[environment] ?? {}).find(
      (watch) => watch.troubleshoot && !opened.has(troubleshootingKey(environment, watch.domain)),
    )?.domain;
  });
  const sessionOpen = useAppStore((state) => state.domainSession !== undefined);
  const ready = useAppStore((state) => state.domainWorkspaces[environment]?.kind === 'ready');
  const resumeDomain = useAppStore((state) => state.resumeDomain);
  const noteOpened = useAppStore((state) => state.noteTroubleshootingOpened);
  useEffect(() => {
    if (due === undefined || sessionOpen || !ready) return;
    noteOpened(environment, due);
    resumeDomain(environment, due);
  }, [due, sessionOpen, ready, environment, resumeDomain, noteOpened]);
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
  const saveProblem = useAppStore((state) => state.domainSaveProblem);
  const [removing, setRemoving] = useState<string | undefined>(undefined);
  const [resumeProblem, setResumeProblem] = useState<string | undefined>(undefined);
  const addButtonRef = useRef<HTMLButtonElement>(null);

  const sorted = [...saved].sort((a, b) => b.updatedAt - a.updatedAt);
  const live = sorted.filter(isLive);
  const inProgress = sorted.filter((progress) => !isLive(progress));
  const watches = useAppStore((state) => state.domainWatches[environment]);
  const item = (progress: DomainProgress) => (
    <SavedDomain
      key={progress.domain}
      progress={progress}
      watch={watches?.[progress.domain]}
      onResume={() => {
        if (!resumeDomain(environment, progress.domain)) {
          setResumeProblem(
            `${progress.domain} cannot be opened: its saved name is not a valid domain. Remove it and add the domain again.`,
          );
        }
      }}
      onRemove={() => setRemoving(progress.domain)}
    />
  );

  return (
    <>
      <div className="domains-toolbar">
        <button
          ref={addButtonRef}
          type="button"
          className="primary-button"
          onClick={() => startDomainAssistant(environment)}
        >
          Add a domain
        </button>
      </div>
      <StatusRegion tone="error">{resumeProblem ?? saveProblem}</StatusRegion>
      {live.length > 0 && (
        <section aria-labelledby="domains-live-heading" className="domains-block">
          <h3 id="domains-live-heading">Live</h3>
          <ul className="saved-domains">{live.map(item)}</ul>
        </section>
      )}
      <section aria-labelledby="domains-saved-heading" className="domains-block">
        <h3 id="domains-saved-heading">In progress</h3>
        {inProgress.length === 0 ? (
          <p className="empty">No domain in progress.</p>
        ) : (
          <ul className="saved-domains">{inProgress.map(item)}</ul>
        )}
      </section>

      <DomainsConfigEditor environment={environment} />

      {removing !== undefined && (
        <RemoveDomainDialog
          environment={environment}
          domain={removing}
          fallbackFocus={addButtonRef}
          onClose={() => setRemoving(undefined)}
        />
      )}
    </>
  );
}

function SavedDomain({
  progress,
  watch,
  onResume,
  onRemove,
}: {
  progress: DomainProgress;
  watch: DomainWatchView | undefined;
  onResume: () => void;
  onRemove: () => void;
}) {
  const placed = placeHostName(progress.domain);
  const ascii =
    placed.ok && placed.place.ascii !== placed.place.display ? placed.place.ascii : undefined;
  const live = isLive(progress);
  const facts = live
    ? [
        `Live since ${describeMoment(progress.verifiedAt ?? progress.updatedAt)}`,
        progress.lastCheck &&
          `last DNS check ${describeMoment(progress.lastCheck.at)}: ${DNS_STATUS_SHORT[progress.lastCheck.status]}`,
      ]
    : [
        `Step ${stepNumber(progress.step)} of ${STEP_ORDER.length}: ${STEP_TITLES[progress.step]}`,
        progress.verifiedAt !== undefined && `verified ${describeMoment(progress.verifiedAt)}`,
        progress.lastCheck &&
          `last DNS check ${describeMoment(progress.lastCheck.at)}: ${DNS_STATUS_SHORT[progress.lastCheck.status]}`,
        `saved ${describeMoment(progress.updatedAt)}`,
      ];
  return (
    <li className="saved-domain" data-domain={progress.domain}>
      <div>
        <strong>{progress.domain}</strong>
        {ascii && <span className="muted"> ({ascii})</span>}
        <div className="muted">{facts.filter(Boolean).join(' · ')}</div>
        <DomainBadgeLine watch={watch} />
      </div>
      <div className="saved-domain-actions">
        <button
          type="button"
          onClick={onResume}
          aria-label={`${live ? 'Open' : 'Resume'} ${progress.domain}`}
        >
          {live ? 'Open' : 'Resume'}
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
