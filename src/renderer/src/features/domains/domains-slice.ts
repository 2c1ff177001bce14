// The custom-domain assistant's state: the published projects and the one
// chosen, the saved workspace per project
// (mirrored from the main process, which owns it), the open assistant and its
// step, the latest DNS and certificate checks, and the multi-domain
// configuration being edited. Every step change is saved at once, so the
// user can come back days later and resume.

import type {
  DomainSettings,
  DomainsConfig,
  DomainWorkspace,
} from '../../../../shared/domain-assistant.ts';
import type { DomainsConfigDraft } from '../../../../shared/domains-config.ts';
import type { CertificateReport, DomainCheckReport } from '../../../../shared/domains.ts';
import type { DomainProject, ProjectId } from '../../../../shared/domain-projects.ts';
import type { Failure } from '../../../../shared/failures.ts';
import type { SaveOutcome } from '../../components/text-field.tsx';
import type { SliceCreator } from '../../store.ts';
import {
  flowFromProgress,
  NO_PRECONDITIONS,
  progressOf,
  type AssistantFlow,
} from './assistant-flow.ts';

export type WorkspaceLoad =
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready'; readonly workspace: DomainWorkspace }
  | { readonly kind: 'failed'; readonly message: string };

export interface AssistantSession {
  readonly project: ProjectId;
  readonly flow: AssistantFlow;
}

export type CheckState<Report> =
  | { readonly kind: 'idle' }
  | { readonly kind: 'checking' }
  | { readonly kind: 'done'; readonly report: Report }
  | { readonly kind: 'failed'; readonly failure: Failure };

export type DomainOutcome = SaveOutcome;

/** Which form saved the settings: the target (step 3) or how to check (step 4). */
export type SettingsForm = 'target' | 'check';

export type ProjectsLoad =
  | { readonly kind: 'loading' }
  | { readonly kind: 'ready'; readonly projects: readonly DomainProject[] }
  | { readonly kind: 'failed'; readonly message: string };

export interface DomainsSlice {
  readonly domainProjectsLoad: ProjectsLoad;
  /** The projects, once loaded (the announcements name another project's domains with it). */
  readonly domainProjects?: readonly DomainProject[];
  /** The project the Domains screen shows. */
  readonly domainProject?: ProjectId;
  loadDomainProjects(): Promise<void>;
  /** Adds a project by its dashboard name and shows it; the reason in plain words when it cannot. */
  addDomainProject(name: string): Promise<string | undefined>;
  chooseDomainProject(project: ProjectId): void;
  readonly domainWorkspaces: Partial<Record<ProjectId, WorkspaceLoad>>;
  /** The open assistant; undefined while the list of domains is shown. */
  readonly domainSession?: AssistantSession;
  readonly dnsCheck: CheckState<DomainCheckReport>;
  readonly certificateCheck: CheckState<CertificateReport>;
  /** Why the last save of progress failed, in plain words; cleared by the next success. */
  readonly domainSaveProblem?: string;
  readonly domainSettingsOutcome?: DomainOutcome & { readonly form: SettingsForm };
  readonly domainsConfigDrafts: Partial<Record<ProjectId, DomainsConfigDraft>>;
  readonly domainsConfigOutcome?: DomainOutcome;
  loadDomainWorkspace(project: ProjectId): Promise<void>;
  startDomainAssistant(project: ProjectId): void;
  /** Resumes a saved domain at its saved step; false when its saved data is unusable. */
  resumeDomain(project: ProjectId, domain: string): boolean;
  closeDomainAssistant(): void;
  /** Moves the open assistant to another step (or updates the current one) and saves it. */
  setDomainFlow(flow: AssistantFlow): Promise<void>;
  saveDomainSettings(
    project: ProjectId,
    change: DomainSettings,
    form: SettingsForm,
  ): Promise<boolean>;
  /** Editing a settings field again: the last save's message no longer applies. */
  forgetDomainSettingsOutcome(): void;
  runDnsCheck(): Promise<void>;
  runCertificateCheck(): Promise<void>;
  removeDomain(project: ProjectId, domain: string): Promise<boolean>;
  editDomainsConfig(project: ProjectId, draft: DomainsConfigDraft): void;
  saveDomainsConfig(project: ProjectId, config: DomainsConfig | undefined): Promise<boolean>;
}

/** The certificate authority the platform uses when no other is saved (as the main process assumes). */
export const DEFAULT_CA_DOMAIN = 'letsencrypt.org';

const EMPTY_DRAFT: DomainsConfigDraft = { primary: '', redirects: [] };

function draftOf(config: DomainsConfig | undefined): DomainsConfigDraft {
  return config
    ? { primary: config.primary, redirects: config.redirects.map((r) => ({ ...r })) }
    : EMPTY_DRAFT;
}

export const createDomainsSlice: SliceCreator<DomainsSlice> = (api) => (set, get) => {
  const setWorkspace = (project: ProjectId, workspace: DomainWorkspace) =>
    set({
      domainWorkspaces: {
        ...get().domainWorkspaces,
        [project]: { kind: 'ready', workspace },
      },
    });
  const workspaceOf = (project: ProjectId): DomainWorkspace | undefined => {
    const load = get().domainWorkspaces[project];
    return load?.kind === 'ready' ? load.workspace : undefined;
  };
  /** Whether the session is still the one a check was started for. */
  const sameSession = (before: AssistantSession | undefined): boolean => {
    const now = get().domainSession;
    return (
      now !== undefined &&
      before !== undefined &&
      now.project === before.project &&
      now.flow.domain?.ascii === before.flow.domain?.ascii
    );
  };
  const openSession = (session: AssistantSession | undefined) =>
    set({
      domainSession: session,
      dnsCheck: { kind: 'idle' },
      certificateCheck: { kind: 'idle' },
      domainSaveProblem: undefined,
      domainSettingsOutcome: undefined,
    });

  const applyProjects = (projects: readonly DomainProject[], chosen?: ProjectId) => {
    const current = chosen ?? get().domainProject;
    const kept = projects.some((project) => project.id === current) ? current : undefined;
    set({
      domainProjectsLoad: { kind: 'ready', projects },
      domainProjects: projects,
      domainProject: kept ?? projects.at(-1)?.id,
    });
  };

  return {
    domainProjectsLoad: { kind: 'loading' },
    async loadDomainProjects() {
      const result = await api.domains.projects();
      if (!result.ok) {
        set({ domainProjectsLoad: { kind: 'failed', message: result.error.message } });
        return;
      }
      applyProjects(result.value);
    },
    async addDomainProject(name) {
      const result = await api.domains.addProject(name);
      if (!result.ok) return result.error.message;
      applyProjects(result.value.projects, result.value.project.id);
      return undefined;
    },
    chooseDomainProject(project) {
      if (get().domainProject === project) return;
      // The assistant belongs to one project: another one's closes.
      if (get().domainSession?.project !== project) openSession(undefined);
      set({ domainProject: project });
    },
    domainWorkspaces: {},
    dnsCheck: { kind: 'idle' },
    certificateCheck: { kind: 'idle' },
    domainsConfigDrafts: {},

    async loadDomainWorkspace(project) {
      // The assistant belongs to one project; another one's is closed.
      const session = get().domainSession;
      if (session && session.project !== project) openSession(undefined);
      if (!get().domainWorkspaces[project]) {
        set({
          domainWorkspaces: { ...get().domainWorkspaces, [project]: { kind: 'loading' } },
        });
      }
      const result = await api.domains.workspace(project);
      if (!result.ok) {
        set({
          domainWorkspaces: {
            ...get().domainWorkspaces,
            [project]: { kind: 'failed', message: result.error.message },
          },
        });
        return;
      }
      setWorkspace(project, result.value);
      if (!get().domainsConfigDrafts[project]) {
        set({
          domainsConfigDrafts: {
            ...get().domainsConfigDrafts,
            [project]: draftOf(result.value.config),
          },
        });
      }
    },

    startDomainAssistant(project) {
      openSession({
        project,
        flow: { kind: 'preconditions', preconditions: NO_PRECONDITIONS },
      });
    },

    resumeDomain(project, domain) {
      const progress = workspaceOf(project)?.progress[domain];
      const flow = progress ? flowFromProgress(progress) : undefined;
      if (!flow) return false;
      openSession({ project, flow });
      return true;
    },

    closeDomainAssistant() {
      openSession(undefined);
    },

    async setDomainFlow(flow) {
      const session = get().domainSession;
      if (!session) return;
      const previous = session.flow.domain;
      set({ domainSession: { ...session, flow } });
      // A check belongs to its step and its domain.
      if (flow.domain?.ascii !== previous?.ascii || flow.kind !== session.flow.kind) {
        set({ dnsCheck: { kind: 'idle' }, certificateCheck: { kind: 'idle' } });
      }
      const progress = progressOf(flow, Date.now());
      if (!progress) return;
      const result = await api.domains.saveProgress(session.project, progress);
      if (!result.ok) {
        set({
          domainSaveProblem: `Your progress could not be saved: ${result.error.message} You can go on; the assistant will try again at the next step.`,
        });
        return;
      }
      setWorkspace(session.project, result.value);
      if (get().domainSaveProblem !== undefined) set({ domainSaveProblem: undefined });
      // A draft given another name in step 2 is the same draft renamed: its
      // old name goes, so the list holds one entry per domain. A verified
      // domain is no draft: it stays, and the new name starts an entry of its own.
      const old = previous && result.value.progress[previous.display];
      if (old && previous.ascii !== flow.domain?.ascii && old.verifiedAt === undefined) {
        const removed = await api.domains.removeProgress(session.project, previous.display);
        if (removed.ok) setWorkspace(session.project, removed.value);
      }
    },

    async saveDomainSettings(project, change, form) {
      const current = workspaceOf(project)?.settings ?? {};
      const next: DomainSettings = { ...current, ...change };
      // An empty value means "not set" (the system resolver, the default CA).
      for (const key of ['target', 'resolver', 'caDomain'] as const) {
        if (next[key] === undefined || next[key].trim() === '') delete next[key];
      }
      set({ domainSettingsOutcome: { form, kind: 'working', message: 'Saving…' } });
      const result = await api.domains.saveSettings(project, next);
      if (!result.ok) {
        set({ domainSettingsOutcome: { form, kind: 'failed', message: result.error.message } });
        return false;
      }
      setWorkspace(project, result.value);
      set({ domainSettingsOutcome: { form, kind: 'done', message: 'Saved.' } });
      return true;
    },

    forgetDomainSettingsOutcome() {
      const outcome = get().domainSettingsOutcome;
      if (outcome !== undefined && outcome.kind !== 'working') {
        set({ domainSettingsOutcome: undefined });
      }
    },

    async runDnsCheck() {
      const session = get().domainSession;
      const domain = session?.flow.domain;
      if (!session || !domain || get().dnsCheck.kind === 'checking') return;
      const settings = workspaceOf(session.project)?.settings ?? {};
      if (settings.target === undefined) {
        set({
          dnsCheck: {
            kind: 'failed',
            failure: {
              kind: 'invalid-input',
              message:
                'The platform target is not saved yet. Paste it from the dashboard in step 3, "Create the DNS record", and save it.',
              delivery: 'not-sent',
            },
          },
        });
        return;
      }
      set({ dnsCheck: { kind: 'checking' } });
      // Main asks the DNS server saved in the settings.
      const result = await api.domains.check(session.project, {
        domain: domain.ascii,
        target: settings.target,
        ...(settings.caDomain !== undefined ? { caDomain: settings.caDomain } : {}),
      });
      if (!sameSession(session)) return;
      if (!result.ok) {
        set({ dnsCheck: { kind: 'failed', failure: result.error } });
        return;
      }
      set({ dnsCheck: { kind: 'done', report: result.value } });
      const flow = get().domainSession?.flow;
      if (
        !flow ||
        flow.kind === 'preconditions' ||
        flow.kind === 'add-domain' ||
        flow.kind === 'verify'
      ) {
        return;
      }
      await get().setDomainFlow({
        ...flow,
        lastCheck: {
          status: result.value.status,
          at: Date.parse(result.value.checkedAt) || Date.now(),
        },
      });
    },

    async runCertificateCheck() {
      const session = get().domainSession;
      const domain = session?.flow.domain;
      if (!session || !domain || get().certificateCheck.kind === 'checking') return;
      set({ certificateCheck: { kind: 'checking' } });
      // Main asks the DNS server saved in the settings where the site is, so
      // both checks look at the same thing.
      const result = await api.domains.certificate(session.project, { domain: domain.ascii });
      if (!sameSession(session)) return;
      set({
        certificateCheck: result.ok
          ? { kind: 'done', report: result.value }
          : { kind: 'failed', failure: result.error },
      });
    },

    async removeDomain(project, domain) {
      const result = await api.domains.removeProgress(project, domain);
      if (!result.ok) {
        set({ domainSaveProblem: `${domain} could not be removed here: ${result.error.message}` });
        return false;
      }
      setWorkspace(project, result.value);
      const session = get().domainSession;
      if (session?.project === project && session.flow.domain?.display === domain) {
        openSession(undefined);
      }
      return true;
    },

    editDomainsConfig(project, draft) {
      set({
        domainsConfigDrafts: { ...get().domainsConfigDrafts, [project]: draft },
        domainsConfigOutcome: undefined,
      });
    },

    async saveDomainsConfig(project, config) {
      set({ domainsConfigOutcome: { kind: 'working', message: 'Saving the configuration…' } });
      const result = await api.domains.saveConfig(project, config);
      if (!result.ok) {
        set({ domainsConfigOutcome: { kind: 'failed', message: result.error.message } });
        return false;
      }
      setWorkspace(project, result.value);
      set({
        domainsConfigDrafts: {
          ...get().domainsConfigDrafts,
          [project]: draftOf(result.value.config),
        },
        domainsConfigOutcome: {
          kind: 'done',
          message: config
            ? 'Configuration saved. Enter the same in the dashboard (project settings, Domains) for it to take effect.'
            : 'Configuration cleared.',
        },
      });
      return true;
    },
  };
};
