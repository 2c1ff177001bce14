// The Domains screen: custom domains belong to a published project, not to a
// store environment, so the screen shows one project's work whichever
// environment is in use: the live domains and the domains in progress (each
// offered to open where it was left, or to remove), a new domain, the open
// assistant, and, once a domain exists, the multi-domain configuration. The
// first visit asks for the project's name, as the dashboard shows it.

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DomainProgress } from '../../../../shared/domain-assistant.ts';
import { checkProjectName, type ProjectId } from '../../../../shared/domain-projects.ts';
import { TextField } from '../../components/text-field.tsx';
import { useUiPreferences } from '../../ui-preferences.tsx';
import type { DomainWatchView } from '../../../../shared/domain-watch.ts';
import { placeHostName } from '../../../../shared/domains-config.ts';
import { StatusRegion } from '../../components/status-region.tsx';
import { useNow } from '../../components/use-now.ts';
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
  const projectsLoad = useAppStore((state) => state.domainProjectsLoad);
  const project = useAppStore((state) => state.domainProject);
  const loadDomainProjects = useAppStore((state) => state.loadDomainProjects);
  const projects = useAppStore((state) => state.domainProjects);
  const chooseDomainProject = useAppStore((state) => state.chooseDomainProject);
  const remembered = useUiPreferences((state) => state.domainProject);
  const remember = useUiPreferences((state) => state.setDomainProject);

  useEffect(() => {
    void loadDomainProjects();
  }, [loadDomainProjects]);
  // The project last looked at comes back once the list is in (once: a project added later is shown).
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || !projects) return;
    restored.current = true;
    if (remembered !== undefined && projects.some((candidate) => candidate.id === remembered))
      chooseDomainProject(remembered);
  }, [projects, remembered, chooseDomainProject]);
  useEffect(() => {
    if (project !== undefined && restored.current) remember(project);
  }, [project, remember]);

  return (
    <section aria-labelledby="domains-heading" className="screen domains-screen">
      <h2 id="domains-heading">Custom domains</h2>
      <p className="note">
        Serve a published project from your own domain, step by step. Your work is saved on this
        computer per project, whichever environment the orders show, so you can carry on later.
      </p>
      {projectsLoad.kind === 'loading' ? (
        <p role="status">Loading your projects…</p>
      ) : projectsLoad.kind === 'failed' ? (
        <p role="alert" className="message message-error">
          Your projects could not be loaded: {projectsLoad.message}
        </p>
      ) : project === undefined ? (
        <AddProject first />
      ) : (
        <ProjectDomains project={project} />
      )}
    </section>
  );
}

/** Which project's domains are shown, and the way to add another. */
function ProjectPicker({ project }: { project: ProjectId }) {
  const projects = useAppStore((state) => state.domainProjects) ?? [];
  const choose = useAppStore((state) => state.chooseDomainProject);
  const [adding, setAdding] = useState(false);
  const selectId = useId();
  return (
    <div className="domains-project">
      <div className="domains-project-row">
        <label htmlFor={selectId}>Project</label>
        <select id={selectId} value={project} onChange={(event) => choose(event.target.value)}>
          {projects.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </select>
        {!adding && (
          <button type="button" onClick={() => setAdding(true)}>
            Add a project…
          </button>
        )}
      </div>
      {adding && <AddProject onDone={() => setAdding(false)} />}
    </div>
  );
}

/** The project's name, as the dashboard shows it: the first time, or another one. */
function AddProject({ first = false, onDone }: { first?: boolean; onDone?: () => void }) {
  const addDomainProject = useAppStore((state) => state.addDomainProject);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local = checkProjectName(name);
    if (local !== undefined) {
      setProblem(local);
      return;
    }
    setSaving(true);
    const failed = await addDomainProject(name);
    setSaving(false);
    setProblem(failed);
    if (failed === undefined) onDone?.();
  };

  return (
    <form className="domains-add-project" onSubmit={(event) => void submit(event)}>
      {first && (
        <p>
          Custom domains belong to a published project. Which project are they for? Name it as the
          dashboard shows it.
        </p>
      )}
      <TextField
        label="Project name"
        hint="As in the dashboard, e.g. Pet Shop. The same name later is the same project."
        value={name}
        autoComplete="off"
        spellCheck={false}
        message={problem === undefined ? undefined : { tone: 'error', text: problem }}
        onChange={(event) => {
          setName(event.target.value);
          setProblem(undefined);
        }}
        actions={
          <>
            <button type="submit" className="primary-button" aria-disabled={saving || undefined}>
              {first ? 'Add the project' : 'Add project'}
            </button>
            {!first && (
              <button type="button" onClick={onDone}>
                Cancel
              </button>
            )}
          </>
        }
      />
    </form>
  );
}

/** One project's saved domains, or its assistant while one is open. */
function ProjectDomains({ project }: { project: ProjectId }) {
  const load = useAppStore((state) => state.domainWorkspaces[project]);
  const session = useAppStore((state) => state.domainSession);
  const loadDomainWorkspace = useAppStore((state) => state.loadDomainWorkspace);
  const loadDomainWatches = useAppStore((state) => state.loadDomainWatches);

  useEffect(() => {
    void loadDomainWorkspace(project);
    void loadDomainWatches(project);
  }, [project, loadDomainWorkspace, loadDomainWatches]);
  useTroubleshootingOpens(project);

  if (session && session.project === project && load?.kind === 'ready')
    return <DomainAssistant session={session} />;
  return (
    <>
      <ProjectPicker project={project} />
      {load === undefined || load.kind === 'loading' ? (
        <p role="status">Loading your saved domains…</p>
      ) : load.kind === 'failed' ? (
        <p role="alert" className="message message-error">
          Your saved domains could not be loaded: {load.message}
        </p>
      ) : (
        <DomainsOverview project={project} />
      )}
    </>
  );
}

/**
 * A domain still without a certificate 30 minutes after verification: the
 * assistant opens it at its certificate step, where the troubleshooting is
 * (once per domain, and only over the list, never over another domain's step).
 */
function useTroubleshootingOpens(project: ProjectId) {
  const due = useAppStore((state) => {
    const opened = new Set(state.troubleshootingOpened);
    return Object.values(state.domainWatches[project] ?? {}).find(
      (watch) => watch.troubleshoot && !opened.has(troubleshootingKey(project, watch.domain)),
    )?.domain;
  });
  const sessionOpen = useAppStore((state) => state.domainSession !== undefined);
  const ready = useAppStore((state) => state.domainWorkspaces[project]?.kind === 'ready');
  const resumeDomain = useAppStore((state) => state.resumeDomain);
  const noteOpened = useAppStore((state) => state.noteTroubleshootingOpened);
  useEffect(() => {
    if (due === undefined || sessionOpen || !ready) return;
    noteOpened(project, due);
    resumeDomain(project, due);
  }, [due, sessionOpen, ready, project, resumeDomain, noteOpened]);
}

function DomainsOverview({ project }: { project: ProjectId }) {
  const saved = useAppStore(
    useShallow((state) => {
      const load = state.domainWorkspaces[project];
      return load?.kind === 'ready' ? Object.values(load.workspace.progress) : [];
    }),
  );
  const hasConfig = useAppStore((state) => {
    const load = state.domainWorkspaces[project];
    return load?.kind === 'ready' && load.workspace.config !== undefined;
  });
  const startDomainAssistant = useAppStore((state) => state.startDomainAssistant);
  const resumeDomain = useAppStore((state) => state.resumeDomain);
  const saveProblem = useAppStore((state) => state.domainSaveProblem);
  const [removing, setRemoving] = useState<string | undefined>(undefined);
  const [resumeProblem, setResumeProblem] = useState<string | undefined>(undefined);
  const addButtonRef = useRef<HTMLButtonElement>(null);

  const sorted = [...saved].sort((a, b) => b.updatedAt - a.updatedAt);
  const live = sorted.filter(isLive);
  const inProgress = sorted.filter((progress) => !isLive(progress));
  const watches = useAppStore((state) => state.domainWatches[project]);
  const item = (progress: DomainProgress) => (
    <SavedDomain
      key={progress.domain}
      progress={progress}
      watch={watches?.[progress.domain]}
      onResume={() => {
        if (!resumeDomain(project, progress.domain)) {
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
          onClick={() => startDomainAssistant(project)}
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

      {/* Several domains (a primary and redirects) once there is a domain to configure. */}
      {(sorted.length > 0 || hasConfig) && <DomainsConfigEditor project={project} />}

      {removing !== undefined && (
        <RemoveDomainDialog
          project={project}
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
  const now = useNow(60_000);
  // While DNS is what the badge is about, its verdict is the last DNS check's (main keeps one): said once, there.
  const lastCheck =
    watch?.phase === 'dns' && watch.badge !== undefined ? undefined : progress.lastCheck;
  const facts = live
    ? [
        `Live since ${describeMoment(progress.verifiedAt ?? progress.updatedAt, now)}`,
        lastCheck &&
          `last DNS check ${describeMoment(lastCheck.at, now)}: ${DNS_STATUS_SHORT[lastCheck.status]}`,
      ]
    : [
        `Step ${stepNumber(progress.step)} of ${STEP_ORDER.length}: ${STEP_TITLES[progress.step]}`,
        progress.verifiedAt !== undefined && `verified ${describeMoment(progress.verifiedAt, now)}`,
        lastCheck &&
          `last DNS check ${describeMoment(lastCheck.at, now)}: ${DNS_STATUS_SHORT[lastCheck.status]}`,
        `saved ${describeMoment(progress.updatedAt, now)}`,
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
