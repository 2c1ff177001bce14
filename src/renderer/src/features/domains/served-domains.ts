// Which domains serve the project, as far as Store Admin knows (the primary
// of the configuration and the domains the assistant took live), so that a
// redirect to any other domain is warned about; and the configuration a
// "redirect first" before a removal saves.

import type { DomainProgress, DomainsConfig } from '../../../../shared/domain-assistant.ts';
import {
  placeHostName,
  REDIRECT_STATUS,
  type DomainsConfigDraft,
} from '../../../../shared/domains-config.ts';

/** ASCII, as DNS and the configuration write it; the input itself when it is no domain. */
export function asciiOf(domain: string): string {
  const placed = placeHostName(domain);
  return placed.ok ? placed.place.ascii : domain;
}

export function isLive(progress: DomainProgress): boolean {
  return progress.step === 'live';
}

/** The live domains (ASCII), but `except`. */
export function liveDomains(
  progress: Readonly<Record<string, DomainProgress>>,
  except?: string,
): string[] {
  const skip = except === undefined ? undefined : asciiOf(except);
  return Object.values(progress)
    .filter(isLive)
    .map((entry) => asciiOf(entry.domain))
    .filter((ascii) => ascii !== skip);
}

/**
 * The warning for a redirect to `to` when it is not among `served` (ASCII),
 * or undefined. Only a valid name is judged: an invalid one has its own problem.
 */
export function unservedWarning(to: string, served: readonly string[]): string | undefined {
  const placed = placeHostName(to);
  if (!placed.ok || served.includes(placed.place.ascii)) return undefined;
  return `${placed.place.display} is neither the primary nor a live domain here: check that it serves the project, or visitors get an error.`;
}

/** Where a redirect before removing `domain` goes at first: the primary, or else another live domain. */
export function firstRedirectTarget(
  config: DomainsConfig | undefined,
  progress: Readonly<Record<string, DomainProgress>>,
  domain: string,
): string {
  const removed = asciiOf(domain);
  if (config !== undefined && config.primary !== removed) return config.primary;
  return liveDomains(progress, domain)[0] ?? '';
}

/**
 * The configuration once `domain` redirects to `to`: its own redirect
 * replaced, redirects that went to it sent on to `to`, and `to` the primary
 * when there was none or `domain` was it.
 */
export function withRedirect(
  config: DomainsConfig | undefined,
  domain: string,
  to: string,
): DomainsConfigDraft {
  const from = asciiOf(domain);
  const target = to.trim();
  const primary = config === undefined || config.primary === from ? target : config.primary;
  const kept = (config?.redirects ?? [])
    .filter((redirect) => redirect.from !== from)
    .map((redirect) => (redirect.to === from ? { ...redirect, to: target } : redirect));
  return { primary, redirects: [...kept, { from, to: target, status: REDIRECT_STATUS }] };
}
