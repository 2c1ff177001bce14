// A failure's message in two parts: Store Admin's own sentence, and the
// service's words the main process appends to it (withServerWords in
// src/main/store-api/errors.ts: ` The service said: “…”`). The sentence is
// what a clerk reads; the service's words go behind "Details", or are shown
// only where the sentence alone says nothing specific.

import type { Failure, FailureKind } from '../../shared/failures.ts';

const MARKER = ' The service said: “';

export interface SplitMessage {
  /** Store Admin's own words. */
  readonly plain: string;
  /** What the service said, without the quotes; undefined when it said nothing. */
  readonly service?: string;
}

export function splitServiceWords(message: string): SplitMessage {
  const at = message.lastIndexOf(MARKER);
  if (at < 0) return { plain: message };
  const service = message.slice(at + MARKER.length).replace(/”$/, '');
  return { plain: message.slice(0, at), service };
}

/**
 * Kinds whose sentence says all the status does (not found, shipped, refused
 * key, limited, banned...): the service's words add nothing there. For the
 * rest (a 5xx, an unexpected status) the sentence is generic and the service
 * may say what went wrong.
 */
const SENTENCE_SAYS_IT_ALL: ReadonlySet<FailureKind> = new Set<FailureKind>([
  'no-key',
  'unauthorized',
  'not-found',
  'conflict',
  'rate-limited',
  'banned',
  'network',
  'timeout',
  'aborted',
  'invalid-input',
]);

export function serviceWordsAdd(failure: Pick<Failure, 'kind'>): boolean {
  return !SENTENCE_SAYS_IT_ALL.has(failure.kind);
}

/** The technical lines of a failure, for a "Details" disclosure: status, code, the service's words. */
export function failureDetails(failure: Failure): string[] {
  const lines: string[] = [];
  const technical = [
    failure.status === undefined ? undefined : `HTTP ${failure.status}`,
    failure.code === undefined ? undefined : `code ${failure.code}`,
  ].filter((part) => part !== undefined);
  if (technical.length > 0) lines.push(technical.join(' · '));
  const { service } = splitServiceWords(failure.message);
  if (service !== undefined) lines.push(`The service said: “${service}”`);
  return lines;
}
