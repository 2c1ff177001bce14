// The assistant's saved work per published project, in a small JSON file per
// project written atomically, and the list of projects in one more. A damaged
// file reads as whatever part of it still validates.
//
// Work saved by older versions per store environment (`domains-<env>.json`)
// becomes a project of its own the first time the list is read, named after
// the environment it was saved under, so nothing the clerk did is lost; the
// old file is left as it was.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DATA_FILES } from '../local-data/data-files.ts';
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
import {
  checkProjectName,
  projectIdOf,
  projectIdSchema,
  type DomainProject,
  type ProjectId,
} from '../../shared/domain-projects.ts';
import {
  ENVIRONMENT_IDS,
  ENVIRONMENT_LABELS,
  type EnvironmentId,
} from '../../shared/environments.ts';
import { DomainInputError } from './domain-name.ts';

const PROJECTS_FILE = 'domain-projects.json';
const PROJECTS_VERSION = DATA_FILES.domainProjects.version;
const WORKSPACE_VERSION = DATA_FILES.domainWorkspace.version;

/** A project's work as its file keeps it (0.3.0 and 0.4.0 wrote no version: version 1). */
const workspaceText = (workspace: DomainWorkspace): string =>
  JSON.stringify({ version: WORKSPACE_VERSION, ...workspace });

/** The project an environment's work saved by 0.2.0 and earlier (`domains-<env>.json`) becomes. */
export function projectOfEnvironment(environment: EnvironmentId): DomainProject {
  const name = `Domains saved under ${ENVIRONMENT_LABELS[environment]}`;
  return { id: projectIdOf(name)!, name };
}

const projectsFileSchema = z.object({
  version: z.literal(PROJECTS_VERSION),
  projects: z.array(z.object({ id: projectIdSchema, name: z.string().min(1).max(80) })).catch([]),
});

export class DomainWorkspaceStore {
  readonly #dir: string;
  /** Each project's workspace, or the one read of its file that is on its way. */
  readonly #cache = new Map<ProjectId, Promise<DomainWorkspace>>();
  #projects: Promise<DomainProject[]> | undefined;
  #queue: Promise<void> = Promise.resolve();
  /** Changes run one at a time, each on what the last one left: none is lost to another. */
  #changes: Promise<unknown> = Promise.resolve();
  readonly #files: LocalFiles;
  readonly #listeners = new Set<(project: ProjectId) => void>();

  constructor(dir: string, files: LocalFiles = nodeFiles()) {
    this.#dir = dir;
    this.#files = files;
  }

  /** Called after each saved change of a project's workspace (the watcher follows them). */
  onChange(listener: (project: ProjectId) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The projects, in the order they were added. */
  projects(): Promise<DomainProject[]> {
    this.#projects ??= this.#readProjects();
    return this.#projects;
  }

  /** Adds a project by its dashboard name (a name already there is that project). */
  addProject(name: string): Promise<{ project: DomainProject; projects: DomainProject[] }> {
    const problem = checkProjectName(name);
    const id = projectIdOf(name);
    if (problem !== undefined || id === undefined)
      return Promise.reject(new DomainInputError(problem ?? 'Enter the project’s name.'));
    return this.#inTurn(async () => {
      const projects = await this.projects();
      const existing = projects.find((project) => project.id === id);
      if (existing) return { project: existing, projects };
      const project = { id, name: name.trim() };
      const next = [...projects, project];
      this.#projects = Promise.resolve(next);
      await this.#write(
        PROJECTS_FILE,
        JSON.stringify({ version: PROJECTS_VERSION, projects: next }),
      );
      return { project, projects: next };
    });
  }

  get(project: ProjectId): Promise<DomainWorkspace> {
    let workspace = this.#cache.get(project);
    if (!workspace) {
      workspace = this.#readWorkspace(this.#file(project)).then((read) => read ?? EMPTY_WORKSPACE);
      this.#cache.set(project, workspace);
    }
    return workspace;
  }

  saveSettings(project: ProjectId, settings: DomainSettings): Promise<DomainWorkspace> {
    return this.#update(project, (w) => ({ ...w, settings }));
  }

  saveProgress(project: ProjectId, progress: DomainProgress): Promise<DomainWorkspace> {
    return this.#update(project, (w) => ({
      ...w,
      progress: { ...w.progress, [progress.domain]: progress },
    }));
  }

  removeProgress(project: ProjectId, domain: string): Promise<DomainWorkspace> {
    return this.#update(project, (w) => {
      const progress = { ...w.progress };
      delete progress[domain];
      return { ...w, progress };
    });
  }

  saveConfig(project: ProjectId, config: DomainsConfig | undefined): Promise<DomainWorkspace> {
    return this.#update(project, (w) => {
      const next: DomainWorkspace = { settings: w.settings, progress: w.progress };
      return config ? { ...next, config } : next;
    });
  }

  #file(project: ProjectId): string {
    return join(this.#dir, `domains-project-${project}.json`);
  }

  async #readWorkspace(file: string): Promise<DomainWorkspace | undefined> {
    try {
      const parsed = domainWorkspaceSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined; // nothing saved there
    }
  }

  async #readProjects(): Promise<DomainProject[]> {
    try {
      const text = await readFile(join(this.#dir, PROJECTS_FILE), 'utf8');
      const parsed = projectsFileSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data.projects;
    } catch {
      // no list yet: the work of older versions becomes projects below
    }
    const projects: DomainProject[] = [];
    for (const environment of ENVIRONMENT_IDS) {
      const old = await this.#readWorkspace(join(this.#dir, `domains-${environment}.json`));
      const used =
        old &&
        (Object.keys(old.progress).length > 0 ||
          old.config !== undefined ||
          Object.keys(old.settings).length > 0);
      if (!old || !used) continue;
      const { id, name } = projectOfEnvironment(environment);
      projects.push({ id, name });
      this.#cache.set(id, Promise.resolve(old));
      await this.#write(`domains-project-${id}.json`, workspaceText(old));
    }
    if (projects.length > 0)
      await this.#write(PROJECTS_FILE, JSON.stringify({ version: PROJECTS_VERSION, projects }));
    return projects;
  }

  /** Writes one file in turn; a full or read-only disk keeps the work in memory (the file keeps what was saved). */
  async #write(name: string, text: string): Promise<void> {
    this.#queue = this.#queue
      .catch(() => undefined)
      .then(() => this.#files.replace(join(this.#dir, name), text));
    try {
      await this.#queue;
    } catch (error) {
      if (storageErrorCode(error) === undefined) throw error;
    }
  }

  #update(
    project: ProjectId,
    change: (w: DomainWorkspace) => DomainWorkspace,
  ): Promise<DomainWorkspace> {
    return this.#inTurn(async () => {
      const next = change(await this.get(project));
      this.#cache.set(project, Promise.resolve(next));
      await this.#write(`domains-project-${project}.json`, workspaceText(next));
      for (const listener of [...this.#listeners]) listener(project);
      return next;
    });
  }

  /** Runs a read-change-write after the ones before it, whatever became of them. */
  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const done = this.#changes.then(work, work);
    this.#changes = done.catch(() => undefined);
    return done;
  }
}
