// The domains main re-checks by itself, per project (mirrored from main's
// events), and what to announce when one changes status: said in a live
// region whatever screen is open. The assistant follows too: a check that
// finds an open domain ready unlocks Verify, and a certificate still missing
// 30 minutes after verification opens its troubleshooting (once per domain).

import type { DomainBadge, DomainWatchView } from '../../../../shared/domain-watch.ts';
import type { ProjectId } from '../../../../shared/domain-projects.ts';
import type { EventPayloads } from '../../../../shared/ipc-contract.ts';
import type { SliceCreator } from '../../store.ts';

export interface DomainAnnouncement {
  readonly text: string;
  /** Counts up, so the same words said again are said again. */
  readonly seq: number;
}

export interface DomainWatchSlice {
  readonly domainWatches: Partial<Record<ProjectId, Readonly<Record<string, DomainWatchView>>>>;
  readonly domainAnnouncement?: DomainAnnouncement;
  /** Domains (project and name) whose troubleshooting the assistant has opened by itself. */
  readonly troubleshootingOpened: readonly string[];
  loadDomainWatches(project: ProjectId): Promise<void>;
  applyDomainWatch(payload: EventPayloads['domains:watch-changed']): void;
  clearDomainAnnouncement(): void;
  /** Remembers that the troubleshooting of a domain was opened, so it opens only once. */
  noteTroubleshootingOpened(project: ProjectId, domain: string): void;
}

const BADGE_SENTENCES: Readonly<Record<DomainBadge, (domain: string) => string>> = {
  ready: (domain) => `${domain} is ready: DNS is set up as the platform expects.`,
  'waiting-for-dns': (domain) => `${domain} is waiting for DNS: the record cannot be seen yet.`,
  misconfigured: (domain) => `${domain} is misconfigured: its DNS must be changed.`,
  'certificate-missing': (domain) => `${domain} has no certificate yet.`,
  'certificate-problem': (domain) =>
    `${domain} has a certificate with a problem (expired, for another name, or not trusted).`,
  'site-unreachable': (domain) => `${domain} could not be reached over https.`,
  'could-not-check': (domain) => `${domain} could not be checked: some DNS lookups got no answer.`,
};

/** What to say of a watch that changed, or undefined when nothing worth saying changed. */
export function announcementOf(
  watch: DomainWatchView,
  before: DomainWatchView | undefined,
  previous: DomainBadge | undefined,
): string | undefined {
  const { domain } = watch;
  if (watch.troubleshoot && !before?.troubleshoot)
    return `${domain} has no certificate 30 minutes after verification: its troubleshooting is open in Domains.`;
  if (watch.stopped === 'gave-up' && before?.stopped !== 'gave-up')
    return `Store Admin stopped checking ${domain} after 48 hours. Check its DNS settings, then check again in Domains.`;
  if (watch.badge === undefined || previous === undefined || previous === watch.badge)
    return undefined;
  if (watch.badge === 'ready' && watch.phase === 'certificate')
    return `${domain} has its certificate: it is ready to go live.`;
  if (watch.badge === 'ready' && watch.phase === 'dns')
    return `${BADGE_SENTENCES.ready(domain)} Next: press Verify in the dashboard.`;
  return BADGE_SENTENCES[watch.badge](domain);
}

export const troubleshootingKey = (project: ProjectId, domain: string) => `${project} ${domain}`;

export const createDomainWatchSlice: SliceCreator<DomainWatchSlice> = (api) => (set, get) => ({
  domainWatches: {},
  troubleshootingOpened: [],

  async loadDomainWatches(project) {
    const result = await api.domainWatch.list(project);
    if (!result.ok) return;
    const watches = Object.fromEntries(result.value.map((watch) => [watch.domain, watch]));
    set({ domainWatches: { ...get().domainWatches, [project]: watches } });
  },

  applyDomainWatch({ watch, previous }) {
    const { project, domain } = watch;
    const watches = get().domainWatches[project] ?? {};
    const before = watches[domain];
    set({
      domainWatches: { ...get().domainWatches, [project]: { ...watches, [domain]: watch } },
    });
    const text = announcementOf(watch, before, previous);
    if (text) {
      // Another project's domain is named with its project.
      const name = get().domainProjects?.find((candidate) => candidate.id === project)?.name;
      const where = project === get().domainProject || name === undefined ? '' : `${name}: `;
      set({
        domainAnnouncement: {
          text: `${where}${text}`,
          seq: (get().domainAnnouncement?.seq ?? 0) + 1,
        },
      });
    }
    // The assistant open on this domain learns a ready DNS check at once: Verify unlocks.
    const session = get().domainSession;
    const flow = session?.flow;
    if (
      session?.project === project &&
      flow?.domain?.display === domain &&
      (flow.kind === 'check-dns' || flow.kind === 'configure-dns') &&
      watch.phase === 'dns' &&
      watch.badge === 'ready' &&
      watch.checkedAt !== undefined &&
      flow.lastCheck?.status !== 'ready'
    ) {
      void get().setDomainFlow({ ...flow, lastCheck: { status: 'ready', at: watch.checkedAt } });
    }
  },

  clearDomainAnnouncement() {
    set({ domainAnnouncement: undefined });
  },

  noteTroubleshootingOpened(project, domain) {
    set({
      troubleshootingOpened: [...get().troubleshootingOpened, troubleshootingKey(project, domain)],
    });
  },
});
