// The custom-domain capability's operations, once: the published projects
// whose domains the assistant keeps, the DNS and certificate checks (through
// the DNS server the clerk saved for the project, or the system's), each
// project's domain work in progress, and the domains main re-checks by
// itself. A check the clerk runs by hand is the watcher's latest too, so the
// badge and the check say one thing.

import type { ChannelArgs } from '../../shared/ipc-contract.ts';
import type { DomainWorkspace } from '../../shared/domain-assistant.ts';
import type { DomainProject, ProjectId } from '../../shared/domain-projects.ts';
import type { CertificateReport, DomainCheckReport } from '../../shared/domains.ts';
import type { DomainWatchView } from '../../shared/domain-watch.ts';
import { checkCertificateViaDns } from './certificate-via-dns.ts';
import { checkDomainDns } from './dns-check.ts';
import { DomainInputError } from './domain-name.ts';
import type { DomainWatcher } from './domain-watcher.ts';
import type { DomainWorkspaceStore } from './workspace-store.ts';

type CheckRequest = ChannelArgs<'domains:check'>[1];

export interface DomainChecks {
  readonly checkDns?: typeof checkDomainDns;
  readonly checkCertificate?: typeof checkCertificateViaDns;
}

export class DomainsService {
  readonly #workspaces: DomainWorkspaceStore;
  readonly #watcher: DomainWatcher;
  readonly #checks: DomainChecks;

  constructor(workspaces: DomainWorkspaceStore, watcher: DomainWatcher, checks: DomainChecks = {}) {
    this.#workspaces = workspaces;
    this.#watcher = watcher;
    this.#checks = checks;
  }

  projects(): Promise<DomainProject[]> {
    return this.#workspaces.projects();
  }

  async addProject(name: string): Promise<{ project: DomainProject; projects: DomainProject[] }> {
    const added = await this.#workspaces.addProject(name);
    void this.#watcher.refresh(added.project.id);
    return added;
  }

  async check(project: ProjectId, request: CheckRequest): Promise<DomainCheckReport> {
    const resolver = await this.#resolverOf(project);
    const report = await (this.#checks.checkDns ?? checkDomainDns)({
      ...request,
      ...(resolver !== undefined ? { resolver } : {}),
    });
    this.#watcher.noteDnsCheck(project, request.domain, report);
    return report;
  }

  /** The site is looked up through the DNS server the DNS check asks, so both look at the same site. */
  async certificate(project: ProjectId, domain: string): Promise<CertificateReport> {
    const resolver = await this.#resolverOf(project);
    const report = await (this.#checks.checkCertificate ?? checkCertificateViaDns)({
      domain,
      ...(resolver !== undefined ? { resolver } : {}),
    });
    this.#watcher.noteCertificateCheck(project, domain, report);
    return report;
  }

  async workspace(project: ProjectId): Promise<DomainWorkspace> {
    await this.#known(project);
    return this.#workspaces.get(project);
  }

  async saveSettings(
    project: ProjectId,
    settings: Parameters<DomainWorkspaceStore['saveSettings']>[1],
  ): Promise<DomainWorkspace> {
    await this.#known(project);
    return this.#workspaces.saveSettings(project, settings);
  }

  async saveProgress(
    project: ProjectId,
    progress: Parameters<DomainWorkspaceStore['saveProgress']>[1],
  ): Promise<DomainWorkspace> {
    await this.#known(project);
    return this.#workspaces.saveProgress(project, progress);
  }

  async removeProgress(project: ProjectId, domain: string): Promise<DomainWorkspace> {
    await this.#known(project);
    return this.#workspaces.removeProgress(project, domain);
  }

  async saveConfig(
    project: ProjectId,
    config: Parameters<DomainWorkspaceStore['saveConfig']>[1],
  ): Promise<DomainWorkspace> {
    await this.#known(project);
    return this.#workspaces.saveConfig(project, config);
  }

  watched(project: ProjectId): DomainWatchView[] {
    return this.#watcher.list(project);
  }

  /** Work is kept only for a project the clerk added. */
  async #known(project: ProjectId): Promise<void> {
    const projects = await this.#workspaces.projects();
    if (!projects.some((candidate) => candidate.id === project))
      throw new DomainInputError('That project is not in the list of projects: add it first.');
  }

  /** Only the DNS server the clerk saved for this project (or the system's). */
  async #resolverOf(project: ProjectId): Promise<string | undefined> {
    await this.#known(project);
    return (await this.#workspaces.get(project)).settings.resolver;
  }
}
