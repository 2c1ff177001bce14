// The custom-domain capability's operations, once: the DNS and certificate
// checks (through the DNS server the clerk saved for the environment, or the
// system's), the domain work in progress per environment, and the domains
// main re-checks by itself.

import type { ChannelArgs } from '../../shared/ipc-contract.ts';
import type { DomainWorkspace } from '../../shared/domain-assistant.ts';
import type { CertificateReport, DomainCheckReport } from '../../shared/domains.ts';
import type { DomainWatchView } from '../../shared/domain-watch.ts';
import type { EnvironmentId } from '../../shared/environments.ts';
import { checkCertificateViaDns } from './certificate-via-dns.ts';
import { checkDomainDns } from './dns-check.ts';
import type { DomainWatcher } from './domain-watcher.ts';
import type { DomainWorkspaceStore } from './workspace-store.ts';

type CheckRequest = ChannelArgs<'domains:check'>[1];

export class DomainsService {
  readonly #workspaces: DomainWorkspaceStore;
  readonly #watcher: DomainWatcher;

  constructor(workspaces: DomainWorkspaceStore, watcher: DomainWatcher) {
    this.#workspaces = workspaces;
    this.#watcher = watcher;
  }

  async check(environment: EnvironmentId, request: CheckRequest): Promise<DomainCheckReport> {
    const resolver = await this.#resolverOf(environment);
    return checkDomainDns({ ...request, ...(resolver !== undefined ? { resolver } : {}) });
  }

  /** The site is looked up through the DNS server the DNS check asks, so both look at the same site. */
  async certificate(environment: EnvironmentId, domain: string): Promise<CertificateReport> {
    const resolver = await this.#resolverOf(environment);
    return checkCertificateViaDns({ domain, ...(resolver !== undefined ? { resolver } : {}) });
  }

  workspace(environment: EnvironmentId): Promise<DomainWorkspace> {
    return this.#workspaces.get(environment);
  }

  saveSettings(
    environment: EnvironmentId,
    settings: Parameters<DomainWorkspaceStore['saveSettings']>[1],
  ): Promise<DomainWorkspace> {
    return this.#workspaces.saveSettings(environment, settings);
  }

  saveProgress(
    environment: EnvironmentId,
    progress: Parameters<DomainWorkspaceStore['saveProgress']>[1],
  ): Promise<DomainWorkspace> {
    return this.#workspaces.saveProgress(environment, progress);
  }

  removeProgress(environment: EnvironmentId, domain: string): Promise<DomainWorkspace> {
    return this.#workspaces.removeProgress(environment, domain);
  }

  saveConfig(
    environment: EnvironmentId,
    config: Parameters<DomainWorkspaceStore['saveConfig']>[1],
  ): Promise<DomainWorkspace> {
    return this.#workspaces.saveConfig(environment, config);
  }

  watched(environment: EnvironmentId): DomainWatchView[] {
    return this.#watcher.list(environment);
  }

  /** Only the DNS server the clerk saved for this environment (or the system's). */
  async #resolverOf(environment: EnvironmentId): Promise<string | undefined> {
    return (await this.#workspaces.get(environment)).settings.resolver;
  }
}
