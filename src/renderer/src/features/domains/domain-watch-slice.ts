// The domains main re-checks by itself, per environment (mirrored from main's
// events), and what to announce when one changes status: said in a live
// region whatever screen is open. The assistant follows too: a check that
// finds an open domain ready unlocks Verify, and a certificate still missing
// 30 minutes after verification opens its troubleshooting (once per domain).

import type { DomainBadge, DomainWatchView } from '../../../../shared/domain-watch.ts';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import type { EventPayloads } from '../../../../shared/ipc-contract.ts';
import type { SliceCreator } from '../../store.ts';

export interface DomainAnnouncement {
  readonly text: string;
  /** Counts up, so the same words said again are said again. */
  readonly seq: number;
}

export interface DomainWatchSlice {
  readonly domainWatches: Partial<Record<EnvironmentId, Readonly<Record<string, DomainWatchView>>>>;
  readonly domainAnnouncement?: DomainAnnouncement;
  /** Domains (environment and name) whose troubleshooting the assistant has opened by itself. */
  readonly troubleshootingOpened: readonly string[];
  loadDomainWatches(environment: EnvironmentId): Promise<void>;
  applyDomainWatch(payload: EventPayloads['domains:watch-changed']): void;
  clearDomainAnnouncement(): void;
  /** Remembers that the troubleshooting of a domain was opened, so it opens only once. */
  noteTroubleshootingOpened(environment: EnvironmentId, domain: string): void;
}

const BADGE_SENTENCES: Readonly<Record<DomainBadge, (domain: string) => string>> = {
  ready: (domain) => `${domain} is ready: DNS is set up as the platform expects.`,
  'waiting-for-dns': (domain) => `${domain} is waiting for DNS: the record cannot be seen yet.`,
  misconfigured: (domain) => `${domain} is misconfigured: its DNS must be changed.`,
  'certificate-missing': (domain) => `${domain} has no valid certificate yet.`,
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

export const troubleshootingKey = (environment: EnvironmentId, domain: string) =>
  `${environment} ${domain}`;

export const createDomainWatchSlice: SliceCreator<DomainWatchSlice> = (api) => (set, get) => ({
  domainWatches: {},
  troubleshootingOpened: [],

  async loadDomainWatches(environment) {
    const result = await api.domainWatch.list(environment);
    if (!result.ok) return;
    const watches = Object.fromEntries(result.value.map((watch) => [watch.domain, watch]));
    set({ domainWatches: { ...get().domainWatches, [environment]: watches } });
  },

  applyDomainWatch({ watch, previous }) {
    const { environment, domain } = watch;
    const watches = get().domainWatches[environment] ?? {};
    const before = watches[domain];
    set({
      domainWatches: { ...get().domainWatches, [environment]: { ...watches, [domain]: watch } },
    });
    const text = announcementOf(watch, before, previous);
    if (text) {
      const where =
        environment === get().activeEnvironment ? '' : `${ENVIRONMENT_LABELS[environment]}: `;
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
      session?.environment === environment &&
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

  noteTroubleshootingOpened(environment, domain) {
    set({
      troubleshootingOpened: [
        ...get().troubleshootingOpened,
        troubleshootingKey(environment, domain),
      ],
    });
  },
});
