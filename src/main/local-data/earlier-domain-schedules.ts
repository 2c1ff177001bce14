// Release 0.2.0 saved each watched domain's re-check schedule in
// `domain-watch.json` under the environment's name ("production
// shop.example.com"), beside the assistant's work per environment
// (`domains-production.json`). Since 0.3.0 the work is a project's
// ("Domains saved under Production", domains/workspace-store.ts) and the
// schedules are saved under the project's id. The earlier entries are moved
// to the project at start-up, before the watcher reads them, so a domain
// waiting on DNS goes on at the pace of the time already waited and stops
// at the 48th hour of the wait that began before the upgrade. An entry goes
// only with the very progress it was saved for (same step, save time and
// settings); the watcher ties it to that progress by today's basis.
// 0.3.0 and 0.4.0 left the earlier entries in the file and started a new
// wait for the same progress: the two are merged, keeping the earlier start.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import writeFileAtomic from 'write-file-atomic';
import { domainWorkspaceSchema, type DomainWorkspace } from '../../shared/domain-assistant.ts';
import { ENVIRONMENT_IDS, type EnvironmentId } from '../../shared/environments.ts';
import { scheduleBasis } from '../domains/recheck-schedule.ts';
import { projectOfEnvironment } from '../domains/workspace-store.ts';

/** The watcher's file of schedules (domains/domain-watcher.ts). */
const SCHEDULES_FILE = 'domain-watch.json';

type Entry = Record<string, unknown> & { phase?: unknown; basis?: unknown; since?: unknown };

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The work a project holds now: its own file once made, else the environment's it is made from. */
function workspaceOf(
  dir: string,
  environment: EnvironmentId,
  project: string,
): DomainWorkspace | undefined {
  for (const name of [`domains-project-${project}.json`, `domains-${environment}.json`]) {
    const parsed = domainWorkspaceSchema.safeParse(readJson(join(dir, name)));
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

/** Whether an earlier basis was saved for this progress and these settings (key order aside). */
function sameWork(
  basis: unknown,
  progress: DomainWorkspace['progress'][string],
  settings: object,
): boolean {
  if (typeof basis !== 'string') return false;
  let saved: unknown;
  try {
    saved = JSON.parse(basis);
  } catch {
    return false;
  }
  if (!Array.isArray(saved)) return false;
  const [step, updatedAt, verifiedAt, savedSettings] = saved as unknown[];
  return (
    step === progress.step &&
    updatedAt === progress.updatedAt &&
    (verifiedAt ?? undefined) === progress.verifiedAt &&
    isDeepStrictEqual({ ...(savedSettings as object) }, { ...settings })
  );
}

/** Moves the schedules saved under an environment's name to its project. Returns whether any moved. */
export function carryOverEarlierSchedules(dir: string): boolean {
  const file = join(dir, SCHEDULES_FILE);
  const saved = readJson(file);
  if (!isObject(saved) || saved.version !== 1 || !isObject(saved.domains)) return false;
  const domains = { ...(saved.domains as Record<string, Entry>) };
  // A project may itself be named "production": then such a key is its, not an environment's.
  const projects = readJson(join(dir, 'domain-projects.json'));
  const projectIds = new Set(
    isObject(projects) && Array.isArray(projects.projects)
      ? projects.projects.flatMap((p: unknown) =>
          isObject(p) && typeof p.id === 'string' ? [p.id] : [],
        )
      : [],
  );
  let moved = false;
  for (const environment of ENVIRONMENT_IDS) {
    if (projectIds.has(environment)) continue;
    const project = projectOfEnvironment(environment).id;
    const workspace = workspaceOf(dir, environment, project);
    for (const [key, entry] of Object.entries(domains)) {
      if (!key.startsWith(`${environment} `) || !isObject(entry)) continue;
      const progress = workspace?.progress[key.slice(environment.length + 1)];
      if (!workspace || !progress || !sameWork(entry.basis, progress, workspace.settings)) continue;
      const basis = scheduleBasis(progress, workspace.settings);
      const target = `${project} ${progress.domain}`;
      const there = domains[target];
      const since = typeof entry.since === 'number' ? entry.since : undefined;
      if (isObject(there) && there.basis === basis && there.phase === entry.phase) {
        // Restarted by 0.3.0 or 0.4.0: the same wait, begun when it first began.
        if (since !== undefined && typeof there.since === 'number' && since < there.since)
          domains[target] = { ...there, since };
      } else {
        domains[target] = { ...entry, basis };
      }
      delete domains[key];
      moved = true;
    }
  }
  if (!moved) return false;
  try {
    writeFileAtomic.sync(file, JSON.stringify({ version: 1, domains }), { mode: 0o600 });
  } catch {
    return false; // a disk that takes nothing: the watcher starts the waits afresh, as before
  }
  return true;
}
