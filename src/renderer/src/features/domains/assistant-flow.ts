// The custom-domain assistant as a union of step kinds: each step holds
// exactly the data it needs, so a step after "Add domain" always has a
// domain, Verify always follows a DNS check that said ready, and the
// certificate and live steps always know when verification succeeded. Plus
// the conversion to and from what is saved per domain (DomainProgress).

import {
  ASSISTANT_STEPS,
  type AssistantStep,
  type DomainProgress,
} from '../../../../shared/domain-assistant.ts';
import { placeHostName, type PlacedHostName } from '../../../../shared/domains-config.ts';
import type { DomainStatus } from '../../../../shared/domains.ts';

export interface Preconditions {
  readonly paidPlan: boolean;
  readonly dnsAccess: boolean;
  readonly deployed: boolean;
}

export const NO_PRECONDITIONS: Preconditions = {
  paidPlan: false,
  dnsAccess: false,
  deployed: false,
};
export const ALL_PRECONDITIONS = { paidPlan: true, dnsAccess: true, deployed: true } as const;

export interface SavedCheck {
  readonly status: DomainStatus;
  /** Epoch ms. */
  readonly at: number;
}

export interface ReadyCheck extends SavedCheck {
  readonly status: 'ready';
}

export type AssistantFlow =
  | {
      readonly kind: 'preconditions';
      readonly preconditions: Preconditions;
      /** Set when the user came back here from a later step. */
      readonly domain?: PlacedHostName;
    }
  // Reached only with every precondition met, so none is held.
  | { readonly kind: 'add-domain'; readonly domain?: PlacedHostName }
  | {
      readonly kind: 'configure-dns';
      readonly domain: PlacedHostName;
      readonly lastCheck?: SavedCheck;
    }
  | { readonly kind: 'check-dns'; readonly domain: PlacedHostName; readonly lastCheck?: SavedCheck }
  | { readonly kind: 'verify'; readonly domain: PlacedHostName; readonly lastCheck: ReadyCheck }
  | {
      readonly kind: 'certificate';
      readonly domain: PlacedHostName;
      readonly lastCheck?: SavedCheck;
      /** Epoch ms when the user reported that Verify succeeded. */
      readonly verifiedAt: number;
    }
  | {
      readonly kind: 'live';
      readonly domain: PlacedHostName;
      readonly lastCheck?: SavedCheck;
      readonly verifiedAt: number;
    };

export type StepKind = AssistantFlow['kind'];
export type FlowOf<K extends StepKind> = Extract<AssistantFlow, { readonly kind: K }>;

// The union's kinds are exactly the saved steps, in both directions.
type SameSteps<A extends B, B> = A;
export type StepsMatch = [SameSteps<StepKind, AssistantStep>, SameSteps<AssistantStep, StepKind>];

export const STEP_TITLES: Readonly<Record<StepKind, string>> = {
  preconditions: 'Before you start',
  'add-domain': 'Add the domain',
  'configure-dns': 'Create the DNS record',
  'check-dns': 'Check DNS',
  verify: 'Verify in the dashboard',
  certificate: 'Certificate',
  live: 'Live',
};

export const STEP_ORDER: readonly StepKind[] = ASSISTANT_STEPS;

export function stepNumber(kind: StepKind): number {
  return STEP_ORDER.indexOf(kind) + 1;
}

/** How long after verification the certificate should be there (the interface's rule). */
export const CERTIFICATE_WAIT_MS = 30 * 60_000;

export function allMet(preconditions: Preconditions): boolean {
  return preconditions.paidPlan && preconditions.dnsAccess && preconditions.deployed;
}

export function isReady(check: SavedCheck | undefined): check is ReadyCheck {
  return check?.status === 'ready';
}

/** What is saved for the flow, or undefined before a domain is entered. */
export function progressOf(flow: AssistantFlow, now: number): DomainProgress | undefined {
  const domain = flow.domain;
  if (!domain) return undefined;
  const base = {
    domain: domain.display,
    step: flow.kind,
    preconditions:
      flow.kind === 'preconditions' ? { ...flow.preconditions } : { ...ALL_PRECONDITIONS },
    updatedAt: now,
  };
  switch (flow.kind) {
    case 'preconditions':
    case 'add-domain':
      return base;
    case 'configure-dns':
    case 'check-dns':
      return flow.lastCheck ? { ...base, lastCheck: { ...flow.lastCheck } } : base;
    case 'verify':
      return { ...base, lastCheck: { ...flow.lastCheck } };
    case 'certificate':
    case 'live':
      return {
        ...base,
        verifiedAt: flow.verifiedAt,
        ...(flow.lastCheck ? { lastCheck: { ...flow.lastCheck } } : {}),
      };
  }
}

/**
 * The step to resume at from what was saved. Saved data that does not hold
 * what a step needs (edited by hand, or from an older version) resumes at
 * the last step it does support, never at an impossible one.
 */
export function flowFromProgress(progress: DomainProgress): AssistantFlow | undefined {
  const placed = placeHostName(progress.domain);
  if (!placed.ok) return undefined;
  const domain = placed.place;
  const lastCheck = progress.lastCheck;
  const withCheck = lastCheck ? { lastCheck } : {};
  if (progress.step === 'preconditions' || !allMet(progress.preconditions)) {
    return { kind: 'preconditions', preconditions: progress.preconditions, domain };
  }
  switch (progress.step) {
    case 'add-domain':
      return { kind: 'add-domain', domain };
    case 'configure-dns':
      return { kind: 'configure-dns', domain, ...withCheck };
    case 'check-dns':
      return { kind: 'check-dns', domain, ...withCheck };
    case 'verify':
    case 'certificate':
    case 'live': {
      const step = progress.step;
      if (step !== 'verify' && progress.verifiedAt !== undefined) {
        return { kind: step, domain, verifiedAt: progress.verifiedAt, ...withCheck };
      }
      return isReady(lastCheck)
        ? { kind: 'verify', domain, lastCheck }
        : { kind: 'check-dns', domain, ...withCheck };
    }
  }
}
