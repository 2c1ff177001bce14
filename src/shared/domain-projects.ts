// Custom domains belong to a published project (the interface's "project
// settings, section Domains"), not to a store environment: the assistant's
// work is kept per project, whichever environment the orders screen shows.
// A project is named as in the dashboard; its id is that name made safe for
// a file name, so the same name is the same project.

import { z } from 'zod';

/** A project's id: lowercase letters, digits and dashes, as projectIdOf makes it. */
export const PROJECT_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/;
export type ProjectId = string;

export const projectIdSchema = z.string().max(48).regex(PROJECT_ID_PATTERN, 'a project id');
export const projectNameSchema = z.string().trim().min(1).max(80);

export interface DomainProject {
  readonly id: ProjectId;
  /** As the clerk typed it, e.g. "Pet Shop (www)". */
  readonly name: string;
}

/** The id of a project's name: "Pet Shop (www)" is "pet-shop-www"; undefined when nothing is left of it. */
export function projectIdOf(name: string): ProjectId | undefined {
  const id = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 48)
    .replace(/^-+|-+$/g, '');
  return PROJECT_ID_PATTERN.test(id) ? id : undefined;
}

/** What a project's name may be, in plain words; undefined when it is fine. */
export function checkProjectName(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'Enter the project’s name as the dashboard shows it.';
  if (trimmed.length > 80) return 'A project’s name is at most 80 characters.';
  if (projectIdOf(trimmed) === undefined)
    return 'A project’s name needs at least one letter or digit.';
  return undefined;
}
