// The custom-domain assistant's state: the saved workspace per environment
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
import type { EnvironmentId } from '../../../../shared/environments.ts';
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
  readonly environment: EnvironmentId;
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

export interface DomainsSlice {
  readonly domainWorkspaces: Partial<Record<EnvironmentId, WorkspaceLoad>>;
  /** The open assistant; undefined while the list of domains is shown. */
  readonly domainSession?: AssistantSession;
  readonly dnsCheck: CheckState<DomainCheckReport>;
  readonly certificateCheck: CheckState<CertificateReport>;
  /** Why the last save of progress failed, in plain words; cleared by the next success. */
  readonly domainSaveProblem?: string;
  readonly domainSettingsOutcome?: DomainOutcome & { readonly form: SettingsForm };
  readonly domainsConfigDrafts: Partial<Record<EnvironmentId, DomainsConfigDraft>>;
  readonly domainsConfigOutcome?: DomainOutcome;
  loadDomainWorkspace(environment: EnvironmentId): Promise<void>;
  startDomainAssistant(environment: EnvironmentId): void;
  /** Resumes a saved domain at its saved step; false when its saved data is unusable. */
  resumeDomain(environment: EnvironmentId, domain: string): boolean;
  closeDomainAssistant(): void;
  /** Moves the open assistant to another step (or updates the current one) and saves it. */
  setDomainFlow(flow: AssistantFlow): Promise<void>;
  saveDomainSettings(
    environment: EnvironmentId,
    change: DomainSettings,
    form: SettingsForm,
  ): Promise<boolean>;
  /** Editing a settings field again: the last save's message no longer applies. */
  forgetDomainSettingsOutcome(): void;
  runDnsCheck(): Promise<void>;
  runCertificateCheck(): Promise<void>;
  removeDomain(environment: EnvironmentId, domain: string): Promise<boolean>;
  editDomainsConfig(environment: EnvironmentId, draft: DomainsConfigDraft): void;
  saveDomainsConfig(
    environment: EnvironmentId,
    config: DomainsConfig | undefined,
  ): Promise<boolean>;
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
  const setWorkspace = (environment: EnvironmentId, workspace: DomainWorkspace) =>
    set({
      domainWorkspaces: {
        ...get().domainWorkspaces,
        [environment]: { kind: 'ready', workspace },
      },
    });
  const workspaceOf = (environment: EnvironmentId): DomainWorkspace | undefined => {
    const load = get().domainWorkspaces[environment];
    return load?.kind === 'ready' ? load.workspace : undefined;
  };
  /** Whether the session is still the one a check was started for. */
  const sameSession = (before: AssistantSession | undefined): boolean => {
    const now = get().domainSession;
    return (
      now !== undefined &&
      before !== undefined &&
      now.environment === before.environment &&
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

  return {
    domainWorkspaces: {},
    dnsCheck: { kind: 'idle' },
    certificateCheck: { kind: 'idle' },
    domainsConfigDrafts: {},

    async loadDomainWorkspace(environment) {
      // The assistant belongs to one environment; another one's is closed.
      const session = get().domainSession;
      if (session && session.environment !== environment) openSession(undefined);
      if (!get().domainWorkspaces[environment]) {
        set({
          domainWorkspaces: { ...get().domainWorkspaces, [environment]: { kind: 'loading' } },
        });
      }
      const result = await api.domains.workspace(environment);
      if (!result.ok) {
        set({
          domainWorkspaces: {
            ...get().domainWorkspaces,
            [environment]: { kind: 'failed', message: result.error.message },
          },
        });
        return;
      }
      setWorkspace(environment, result.value);
      if (!get().domainsConfigDrafts[environment]) {
        set({
          domainsConfigDrafts: {
            ...get().domainsConfigDrafts,
            [environment]: draftOf(result.value.config),
          },
        });
      }
    },

    startDomainAssistant(environment) {
      openSession({
        environment,
        flow: { kind: 'preconditions', preconditions: NO_PRECONDITIONS },
      });
    },

    resumeDomain(environment, domain) {
      const progress = workspaceOf(environment)?.progress[domain];
      const flow = progress ? flowFromProgress(progress) : undefined;
      if (!flow) return false;
      openSession({ environment, flow });
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
      const result = await api.domains.saveProgress(session.environment, progress);
      if (!result.ok) {
        set({
          domainSaveProblem: `Your progress could not be saved: ${result.error.message} You can go on; the assistant will try again at the next step.`,
        });
        return;
      }
      setWorkspace(session.environment, result.value);
      if (get().domainSaveProblem !== undefined) set({ domainSaveProblem: undefined });
      // A draft given another name in step 2 is the same draft renamed: its
      // old name goes, so the list holds one entry per domain. A verified
      // domain is no draft: it stays, and the new name starts an entry of its own.
      const old = previous && result.value.progress[previous.display];
      if (old && previous.ascii !== flow.domain?.ascii && old.verifiedAt === undefined) {
        const removed = await api.domains.removeProgress(session.environment, previous.display);
        if (removed.ok) setWorkspace(session.environment, removed.value);
      }
    },

    async saveDomainSettings(environment, change, form) {
      const current = workspaceOf(environment)?.settings ?? {};
      const next: DomainSettings = { ...current, ...change };
      // An empty value means "not set" (the system resolver, the default CA).
      for (const key of ['target', 'resolver', 'caDomain'] as const) {
        if (next[key] === undefined || next[key].trim() === '') delete next[key];
      }
      set({ domainSettingsOutcome: { form, kind: 'working', message: 'Saving…' } });
      const result = await api.domains.saveSettings(environment, next);
      if (!result.ok) {
        set({ domainSettingsOutcome: { form, kind: 'failed', message: result.error.message } });
        return false;
      }
      setWorkspace(environment, result.value);
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
      const settings = workspaceOf(session.environment)?.settings ?? {};
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
      const result = await api.domains.check(session.environment, {
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
      const result = await api.domains.certificate(session.environment, { domain: domain.ascii });
      if (!sameSession(session)) return;
      set({
        certificateCheck: result.ok
          ? { kind: 'done', report: result.value }
          : { kind: 'failed', failure: result.error },
      });
    },

    async removeDomain(environment, domain) {
      const result = await api.domains.removeProgress(environment, domain);
      if (!result.ok) {
        set({ domainSaveProblem: `${domain} could not be removed here: ${result.error.message}` });
        return false;
      }
      setWorkspace(environment, result.value);
      const session = get().domainSession;
      if (session?.environment === environment && session.flow.domain?.display === domain) {
        openSession(undefined);
      }
      return true;
    },

    editDomainsConfig(environment, draft) {
      set({
        domainsConfigDrafts: { ...get().domainsConfigDrafts, [environment]: draft },
        domainsConfigOutcome: undefined,
      });
    },

    async saveDomainsConfig(environment, config) {
      set({ domainsConfigOutcome: { kind: 'working', message: 'Saving the configuration…' } });
      const result = await api.domains.saveConfig(environment, config);
      if (!result.ok) {
        set({ domainsConfigOutcome: { kind: 'failed', message: result.error.message } });
        return false;
      }
      setWorkspace(environment, result.value);
      set({
        domainsConfigDrafts: {
          ...get().domainsConfigDrafts,
          [environment]: draftOf(result.value.config),
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
