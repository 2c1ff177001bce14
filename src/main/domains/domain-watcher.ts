// Domains that check themselves. Main re-checks every saved domain of every
// project on the schedule of recheck-schedule.ts, so the checks go on
// while the Domains screen is closed (or another project is shown), and
// each change is pushed to the window: before verification the DNS check
// until it says ready; after verification the certificate check until a
// valid certificate is there, with the troubleshooting due 30 minutes after
// verification without one (the interface's rule); a live domain is checked
// once per start, for its badge.
//
// What each domain's schedule has reached is kept on disk, so a restart goes
// on where it was and the 48 hours count from when the waiting began. Any
// change to a domain's saved progress or to the checks' settings starts its
// schedule afresh: the clerk did something, so it is worth looking soon.
// A check the clerk runs by hand counts as the domain's latest check, so the
// badge and the assistant never give two verdicts.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import type { DomainProgress, DomainSettings } from '../../shared/domain-assistant.ts';
import {
  DOMAIN_BADGES,
  type DomainBadge,
  type DomainWatchView,
  type WatchPhase,
} from '../../shared/domain-watch.ts';
import type { ProjectId } from '../../shared/domain-projects.ts';
import type {
  CertificateReport,
  CertificateStatus,
  DomainCheckReport,
  DomainStatus,
  Finding,
  FindingSeverity,
} from '../../shared/domains.ts';
import { placeHostName } from '../../shared/domains-config.ts';
import { realTiming, type Timing } from '../store-api/clock.ts';
import { checkCertificateViaDns, type CertificateViaDnsRequest } from './certificate-via-dns.ts';
import { checkDomainDns, type DomainCheckOptions } from './dns-check.ts';
import { NewerDataError, refuseNewer } from '../local-data/data-files.ts';
import { nextCheckAt, scheduleBasis, type RecheckSchedule } from './recheck-schedule.ts';
import type { DomainWorkspaceStore } from './workspace-store.ts';

/** How long after verification the certificate should be there (the interface's rule). */
export const CERTIFICATE_DUE_MS = 30 * 60_000;

export interface DomainWatcherDeps {
  readonly workspaces: Pick<DomainWorkspaceStore, 'get' | 'projects'>;
  /** Where the schedules are kept. */
  readonly dir: string;
  readonly timing?: Timing;
  readonly checkDns?: (options: DomainCheckOptions) => Promise<DomainCheckReport>;
  readonly checkCertificate?: (request: CertificateViaDnsRequest) => Promise<CertificateReport>;
  /** When to check again (default: the interface's, nextCheckAt); a test in real time gives a short one. */
  readonly schedule?: RecheckSchedule;
}

export type WatchListener = (watch: DomainWatchView, previous: DomainBadge | undefined) => void;

const BADGE_OF_DNS: Readonly<Record<DomainStatus, DomainBadge>> = {
  ready: 'ready',
  pending: 'waiting-for-dns',
  misconfigured: 'misconfigured',
  error: 'could-not-check',
};

/** The certificate check's status as a badge: the same verdict the assistant's check words. */
export const BADGE_OF_CERTIFICATE: Readonly<Record<CertificateStatus, DomainBadge>> = {
  valid: 'ready',
  invalid: 'certificate-problem',
  missing: 'certificate-missing',
  unreachable: 'site-unreachable',
};

const savedSchema = z.object({
  phase: z.enum(['dns', 'certificate', 'live']),
  /** What the schedule belongs to: the progress's save time and the settings used. */
  basis: z.string().max(2000),
  since: z.number(),
  checkedAt: z.number().optional(),
  badge: z.enum(DOMAIN_BADGES).optional(),
  /** Added in 0.5.0; an earlier release reads the file without it (its schema strips it). */
  reason: z.string().max(4000).optional(),
  stopped: z.enum(['ready', 'gave-up']).optional(),
  troubleshoot: z.boolean(),
});
type Saved = z.infer<typeof savedSchema>;
const fileSchema = z.object({ version: z.literal(1), domains: z.record(z.string(), savedSchema) });

interface Watched extends Saved {
  readonly project: ProjectId;
  readonly domain: string;
  readonly plan: Plan;
  nextCheckAt?: number;
  readonly controller: AbortController;
  /** Ends the wait for the next check early: the schedule is worked out again (after a sleep). */
  nap?: AbortController;
  loop?: Promise<void>;
}

/** What a saved domain asks to be checked, and with what. */
interface Plan {
  readonly phase: WatchPhase;
  readonly basis: string;
  readonly since: number;
  /** The certificate's 30-minute mark. */
  readonly deadline?: number;
  readonly target?: string;
  readonly resolver?: string;
  readonly caDomain?: string;
}

const keyOf = (project: ProjectId, domain: string) => `${project} ${domain}`;

/** A domain as the checks name it (punycode, lower case), to match a check to a saved domain. */
const asciiOf = (domain: string): string => {
  const placed = placeHostName(domain);
  return placed.ok ? placed.place.ascii : domain.toLowerCase();
};

/** What a domain's saved progress asks to be watched for; undefined before it has a domain to check. */
function planOf(progress: DomainProgress, settings: DomainSettings, now: number): Plan | undefined {
  const basis = scheduleBasis(progress, settings);
  const checks = {
    ...(settings.resolver !== undefined ? { resolver: settings.resolver } : {}),
    ...(settings.caDomain !== undefined ? { caDomain: settings.caDomain } : {}),
  };
  if (progress.step === 'live') return { phase: 'live', basis, since: now, ...checks };
  if (progress.step === 'certificate' && progress.verifiedAt !== undefined) {
    return {
      phase: 'certificate',
      basis,
      since: progress.verifiedAt,
      deadline: progress.verifiedAt + CERTIFICATE_DUE_MS,
      ...checks,
    };
  }
  const waitsOnDns =
    progress.step === 'configure-dns' ||
    progress.step === 'check-dns' ||
    progress.step === 'verify';
  if (!waitsOnDns || settings.target === undefined) return undefined;
  return { phase: 'dns', basis, since: now, target: settings.target, ...checks };
}

export class DomainWatcher {
  readonly #deps: DomainWatcherDeps;
  readonly #timing: Timing;
  readonly #file: string;
  readonly #watched = new Map<string, Watched>();
  readonly #listeners = new Set<WatchListener>();
  #saved: Promise<Record<string, Saved>> | undefined;
  #saving: Promise<void> = Promise.resolve();
  /**
   * Saves under way, from before they read the saved file: one that had not
   * reached `#saving` yet when close looked wrote after it (a test's clean-up
   * met its temporary file in the folder it was removing).
   */
  readonly #persisting = new Set<Promise<void>>();
  /** Reconciliations run one at a time. */
  #reconciling: Promise<void> = Promise.resolve();
  /** Projects whose saved schedules were taken up: the others' stay on disk as they were. */
  readonly #reconciled = new Set<ProjectId>();
  #closed = false;

  constructor(deps: DomainWatcherDeps) {
    this.#deps = deps;
    this.#timing = deps.timing ?? realTiming;
    this.#file = join(deps.dir, 'domain-watch.json');
  }

  onChange(listener: WatchListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Starts watching every project's saved domains (at start-up). */
  async start(): Promise<void> {
    const projects = await this.#deps.workspaces.projects();
    await Promise.all(projects.map((project) => this.refresh(project.id)));
  }

  /**
   * Brings the project's watches in line with its saved domains: new
   * ones start, removed ones stop, changed ones start afresh.
   */
  refresh(project: ProjectId): Promise<void> {
    this.#reconciling = this.#reconciling
      .catch(() => undefined)
      .then(() => this.#reconcile(project));
    return this.#reconciling;
  }

  /** The project's watched domains. */
  list(project: ProjectId): DomainWatchView[] {
    return [...this.#watched.values()]
      .filter((watched) => watched.project === project)
      .map((watched) => this.#view(watched));
  }

  /** A DNS check the clerk ran: the latest word on the domain while DNS is what it waits for. */
  noteDnsCheck(project: ProjectId, domain: string, report: DomainCheckReport): void {
    const watched = this.#find(project, domain);
    if (watched?.phase !== 'dns') return;
    void this.#record(
      watched,
      BADGE_OF_DNS[report.status],
      report.status === 'ready',
      reasonOf(report.findings),
    );
  }

  /** A certificate check the clerk ran: the latest word once the domain is verified. */
  noteCertificateCheck(project: ProjectId, domain: string, report: CertificateReport): void {
    const watched = this.#find(project, domain);
    if (!watched || watched.phase === 'dns') return;
    void this.#record(
      watched,
      BADGE_OF_CERTIFICATE[report.status],
      report.status === 'valid',
      reasonOf(report.findings),
    );
  }

  #find(project: ProjectId, domain: string): Watched | undefined {
    const ascii = asciiOf(domain);
    return [...this.#watched.values()].find(
      (watched) => watched.project === project && asciiOf(watched.domain) === ascii,
    );
  }

  /**
   * Works every schedule out again from the wall clock, checking at once the
   * domains whose time has come: after the machine slept, a wait for the
   * next check runs late by as long as it slept.
   */
  reschedule(): void {
    for (const watched of this.#watched.values()) watched.nap?.abort();
  }

  /** Stops every check and waits for those under way. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#reconciling.catch(() => undefined);
    // A domain whose loop has not started yet has nothing to wait for.
    const loops = [...this.#watched.values()].flatMap((watched) => {
      watched.controller.abort();
      return watched.loop ? [watched.loop] : [];
    });
    await Promise.all(loops);
    while (this.#persisting.size > 0) await Promise.all([...this.#persisting]);
    await this.#saving;
  }

  async #reconcile(project: ProjectId): Promise<void> {
    if (this.#closed) return;
    const workspace = await this.#deps.workspaces.get(project);
    const saved = await this.#readSaved();
    const now = this.#timing.now();
    const wanted = new Map<string, { domain: string; plan: Plan }>();
    for (const progress of Object.values(workspace.progress)) {
      const plan = planOf(progress, workspace.settings, now);
      if (plan) wanted.set(keyOf(project, progress.domain), { domain: progress.domain, plan });
    }
    for (const [key, watched] of this.#watched) {
      if (watched.project !== project) continue;
      const next = wanted.get(key);
      if (next && next.plan.basis === watched.basis && next.plan.phase === watched.phase) {
        wanted.delete(key);
        continue;
      }
      watched.controller.abort();
      this.#watched.delete(key);
    }
    for (const [key, { domain, plan }] of wanted) {
      // A schedule saved for this very progress goes on where it was.
      const before = saved[key];
      const resumed = before && before.basis === plan.basis && before.phase === plan.phase;
      const watched: Watched = {
        project,
        domain,
        plan,
        controller: new AbortController(),
        ...(resumed
          ? before
          : { phase: plan.phase, basis: plan.basis, since: plan.since, troubleshoot: false }),
      };
      this.#watched.set(key, watched);
      watched.loop = this.#run(watched);
    }
    this.#reconciled.add(project);
    await this.#persist();
  }

  async #run(watched: Watched): Promise<void> {
    const { signal } = watched.controller;
    const timing = this.#timing;
    try {
      if (watched.phase === 'live') {
        // Once per start, for the badge.
        await this.#check(watched);
        return;
      }
      while (!watched.stopped && !signal.aborted) {
        const at = (this.#deps.schedule ?? nextCheckAt)({
          since: watched.since,
          ...(watched.checkedAt !== undefined ? { checkedAt: watched.checkedAt } : {}),
          ...(watched.plan.deadline !== undefined ? { deadline: watched.plan.deadline } : {}),
        });
        if (at === undefined) {
          const previous = watched.badge;
          watched.stopped = 'gave-up';
          watched.nextCheckAt = undefined;
          await this.#persist();
          this.#emit(watched, previous);
          return;
        }
        if (watched.nextCheckAt !== at) {
          watched.nextCheckAt = at;
          this.#emit(watched, watched.badge);
        }
        const wait = at - timing.now();
        if (wait > 0) {
          // A wait cut short by reschedule() goes round again: due now, or a new wait from the
          // wall clock (a sleeping machine's timer runs late by as long as it slept).
          const nap = new AbortController();
          watched.nap = nap;
          const woke = await timing.sleep(wait, AbortSignal.any([signal, nap.signal])).then(
            () => false,
            (error: unknown) => {
              if (signal.aborted) throw error;
              return true;
            },
          );
          watched.nap = undefined;
          if (woke) continue;
        }
        if (signal.aborted) return;
        await this.#check(watched);
      }
    } catch {
      // Aborted: the domain changed or went (another watch takes over), or the app is closing.
    }
  }

  async #check(watched: Watched): Promise<void> {
    const { plan } = watched;
    const previous = watched.badge;
    const checks = {
      ...(plan.resolver !== undefined ? { resolver: plan.resolver } : {}),
      ...(plan.caDomain !== undefined ? { caDomain: plan.caDomain } : {}),
    };
    let badge: DomainBadge;
    let ready: boolean;
    let reason: string | undefined;
    try {
      if (plan.phase === 'dns') {
        const report = await (this.#deps.checkDns ?? checkDomainDns)({
          domain: watched.domain,
          target: plan.target!,
          ...checks,
          now: this.#timing.now,
        });
        badge = BADGE_OF_DNS[report.status];
        ready = report.status === 'ready';
        reason = reasonOf(report.findings);
      } else {
        const report = await (this.#deps.checkCertificate ?? checkCertificateViaDns)({
          domain: watched.domain,
          ...(plan.resolver !== undefined ? { resolver: plan.resolver } : {}),
          now: this.#timing.now,
        });
        ready = report.status === 'valid';
        badge = BADGE_OF_CERTIFICATE[report.status];
        reason = reasonOf(report.findings);
      }
    } catch {
      // A domain the checks cannot take (a saved name no longer valid): said as such, checked again.
      badge = 'could-not-check';
      ready = false;
    }
    if (watched.controller.signal.aborted) return;
    await this.#record(watched, badge, ready, ready ? undefined : reason, previous);
  }

  /** A check's outcome, whoever ran it: the badge, the troubleshooting's due, the schedule's end when ready. */
  async #record(
    watched: Watched,
    badge: DomainBadge,
    ready: boolean,
    reason: string | undefined,
    previous = watched.badge,
  ): Promise<void> {
    const { plan } = watched;
    const now = this.#timing.now();
    watched.checkedAt = now;
    watched.badge = badge;
    if (reason === undefined || ready) delete watched.reason;
    else watched.reason = reason;
    watched.troubleshoot =
      plan.phase === 'certificate' && !ready && plan.deadline !== undefined && now >= plan.deadline;
    if (ready) {
      watched.stopped = 'ready';
      watched.nextCheckAt = undefined;
    } else if (watched.stopped === 'ready' && plan.phase !== 'live' && !this.#closed) {
      // Ready once, not any more (a check by hand found it so): the checks start again.
      watched.stopped = undefined;
      watched.since = now;
      watched.loop = this.#run(watched);
    }
    await this.#persist();
    this.#emit(watched, previous);
  }

  #view(watched: Watched): DomainWatchView {
    return {
      project: watched.project,
      domain: watched.domain,
      phase: watched.phase,
      troubleshoot: watched.troubleshoot,
      ...(watched.badge !== undefined ? { badge: watched.badge } : {}),
      ...(watched.checkedAt !== undefined ? { checkedAt: watched.checkedAt } : {}),
      ...(watched.reason !== undefined ? { reason: watched.reason } : {}),
      ...(watched.nextCheckAt !== undefined && !watched.stopped
        ? { nextCheckAt: watched.nextCheckAt }
        : {}),
      ...(watched.stopped !== undefined ? { stopped: watched.stopped } : {}),
    };
  }

  #emit(watched: Watched, previous: DomainBadge | undefined): void {
    if (this.#watched.get(keyOf(watched.project, watched.domain)) !== watched) return;
    const view = this.#view(watched);
    for (const listener of [...this.#listeners]) listener(view, previous);
  }

  #readSaved(): Promise<Record<string, Saved>> {
    this.#saved ??= readFile(this.#file, 'utf8')
      .then((text) => fileSchema.parse(JSON.parse(text)).domains)
      .catch(() => ({}));
    return this.#saved;
  }

  /** Saves the schedules; close waits for every save begun, from its first step. */
  async #persist(): Promise<void> {
    const persisted = this.#persistNow();
    this.#persisting.add(persisted);
    try {
      await persisted;
    } finally {
      this.#persisting.delete(persisted);
    }
  }

  async #persistNow(): Promise<void> {
    const domains: Record<string, Saved> = {};
    for (const [key, saved] of Object.entries(await this.#readSaved())) {
      if (!this.#reconciled.has(key.slice(0, key.indexOf(' ')))) domains[key] = saved;
    }
    for (const [key, watched] of this.#watched) {
      domains[key] = {
        phase: watched.phase,
        basis: watched.basis,
        since: watched.since,
        troubleshoot: watched.troubleshoot,
        ...(watched.checkedAt !== undefined ? { checkedAt: watched.checkedAt } : {}),
        ...(watched.badge !== undefined ? { badge: watched.badge } : {}),
        ...(watched.reason !== undefined ? { reason: watched.reason } : {}),
        ...(watched.stopped !== undefined ? { stopped: watched.stopped } : {}),
      };
    }
    this.#saved = Promise.resolve(domains);
    const text = JSON.stringify({ version: 1, domains });
    this.#saving = this.#saving
      .catch(() => undefined)
      .then(() => refuseNewer(this.#file))
      .then(() => writeFileAtomic(this.#file, text, { mode: 0o600 }))
      // A file of a later version (a newer release's) is left as it is: the schedules stay in memory.
      .catch((error: unknown) => {
        if (!(error instanceof NewerDataError)) throw error;
      });
    // A disk that takes nothing keeps the schedules in memory: the checks go on.
    await this.#saving.catch(() => undefined);
  }
}

/** The severities in the order a badge's reason is chosen: what must change first. */
const REASON_ORDER: readonly FindingSeverity[] = ['error', 'pending', 'warning'];

/** The most pressing finding's words: why a check is not ready; undefined when nothing is amiss. */
function reasonOf(findings: readonly Finding<string>[]): string | undefined {
  for (const severity of REASON_ORDER) {
    const finding = findings.find((candidate) => candidate.severity === severity);
    if (finding) return finding.message;
  }
  return undefined;
}
