// The assistant's saved work per environment, in a small JSON file written
// atomically. A damaged file reads as whatever part of it still validates.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeFiles, type LocalFiles } from '../local-data/local-files.ts';
import { storageErrorCode } from '../local-data/storage-health.ts';
import {
  EMPTY_WORKSPACE,
  domainWorkspaceSchema,
  type DomainProgress,
  type DomainSettings,
  type DomainsConfig,
  type DomainWorkspace,
} from '../../shared/domain-assistant.ts';
import type { EnvironmentId } from '../../shared/environments.ts';

export class DomainWorkspaceStore {
  readonly #dir: string;
  readonly #cache = new Map<EnvironmentId, DomainWorkspace>();
  #queue: Promise<void> = Promise.resolve();
  readonly #files: LocalFiles;
  readonly #listeners = new Set<(environment: EnvironmentId) => void>();

  constructor(dir: string, files: LocalFiles = nodeFiles()) {
    this.#dir = dir;
    this.#files = files;
  }

  /** Called after each saved change of an environment's workspace (the watcher follows them). */
  onChange(listener: (environment: EnvironmentId) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async get(environment: EnvironmentId): Promise<DomainWorkspace> {
    const cached = this.#cache.get(environment);
    if (cached) return cached;
    let workspace = EMPTY_WORKSPACE;
    try {
      const parsed = domainWorkspaceSchema.safeParse(
        JSON.parse(await readFile(this.#file(environment), 'utf8')),
      );
      if (parsed.success) workspace = parsed.data;
    } catch {
      // nothing saved yet
    }
    this.#cache.set(environment, workspace);
    return workspace;
  }

  saveSettings(environment: EnvironmentId, settings: DomainSettings): Promise<DomainWorkspace> {
    return this.#update(environment, (w) => ({ ...w, settings }));
  }

  saveProgress(environment: EnvironmentId, progress: DomainProgress): Promise<DomainWorkspace> {
    return this.#update(environment, (w) => ({
      ...w,
      progress: { ...w.progress, [progress.domain]: progress },
    }));
  }

  removeProgress(environment: EnvironmentId, domain: string): Promise<DomainWorkspace> {
    return this.#update(environment, (w) => {
      const progress = { ...w.progress };
      delete progress[domain];
      return { ...w, progress };
    });
  }

  saveConfig(
    environment: EnvironmentId,
    config: DomainsConfig | undefined,
  ): Promise<DomainWorkspace> {
    return this.#update(environment, (w) => {
      const next: DomainWorkspace = { settings: w.settings, progress: w.progress };
      return config ? { ...next, config } : next;
    });
  }

  #file(environment: EnvironmentId): string {
    return join(this.#dir, `domains-${environment}.json`);
  }

  async #update(
    environment: EnvironmentId,
    change: (w: DomainWorkspace) => DomainWorkspace,
  ): Promise<DomainWorkspace> {
    const next = change(await this.get(environment));
    this.#cache.set(environment, next);
    const text = JSON.stringify(next);
    this.#queue = this.#queue
      .catch(() => undefined)
      .then(() => this.#files.replace(this.#file(environment), text));
    try {
      await this.#queue;
    } catch (error) {
      // A full or read-only disk: the work stays in memory (the file keeps what was saved).
      if (storageErrorCode(error) === undefined) throw error;
    }
    for (const listener of [...this.#listeners]) listener(environment);
    return next;
  }
}
