// The assistant's steps to and from what is saved per domain: a round trip
// keeps every step, and saved data that lacks what a step needs never
// produces that step.

import { describe, expect, it } from 'vitest';
import type { DomainProgress } from '../../../../src/shared/domain-assistant.ts';
import { placeHostName, type PlacedHostName } from '../../../../src/shared/domains-config.ts';
import {
  ALL_PRECONDITIONS,
  flowFromProgress,
  progressOf,
  STEP_ORDER,
  type AssistantFlow,
} from '../../../../src/renderer/src/features/domains/assistant-flow.ts';

function place(name: string): PlacedHostName {
  const placed = placeHostName(name);
  if (!placed.ok) throw new Error(placed.message);
  return placed.place;
}

const domain = place('bücher.example.com');
const ready = { status: 'ready', at: 1_000 } as const;
const flows: readonly AssistantFlow[] = [
  {
    kind: 'preconditions',
    preconditions: { paidPlan: true, dnsAccess: false, deployed: true },
    domain,
  },
  { kind: 'add-domain', domain },
  { kind: 'configure-dns', domain },
  { kind: 'check-dns', domain, lastCheck: { status: 'pending', at: 500 } },
  { kind: 'verify', domain, lastCheck: ready },
  { kind: 'certificate', domain, lastCheck: ready, verifiedAt: 2_000 },
  { kind: 'live', domain, verifiedAt: 2_000 },
];

describe('progressOf / flowFromProgress', () => {
  it('covers every step, in order', () => {
    expect(flows.map((flow) => flow.kind)).toEqual(STEP_ORDER);
  });

  it.each(flows.map((flow) => [flow.kind, flow] as const))('round-trips %s', (_kind, flow) => {
    const progress = progressOf(flow, 3_000);
    expect(progress?.domain).toBe('bücher.example.com');
    expect(progress?.updatedAt).toBe(3_000);
    expect(flowFromProgress(progress as DomainProgress)).toEqual(flow);
  });

  it('saves nothing before a domain is entered', () => {
    expect(
      progressOf({ kind: 'preconditions', preconditions: ALL_PRECONDITIONS }, 1),
    ).toBeUndefined();
    expect(progressOf({ kind: 'add-domain' }, 1)).toBeUndefined();
  });

  const saved = (extra: Partial<DomainProgress>): DomainProgress => ({
    domain: 'shop.example.com',
    step: 'live',
    preconditions: { ...ALL_PRECONDITIONS },
    updatedAt: 1,
    ...extra,
  });

  it('goes back to the preconditions when one is not met, whatever the step', () => {
    expect(
      flowFromProgress(
        saved({
          step: 'verify',
          preconditions: { paidPlan: false, dnsAccess: true, deployed: true },
        }),
      )?.kind,
    ).toBe('preconditions');
  });

  it('resumes Verify only after a DNS check that said ready', () => {
    expect(flowFromProgress(saved({ step: 'verify' }))?.kind).toBe('check-dns');
    expect(
      flowFromProgress(saved({ step: 'verify', lastCheck: { status: 'misconfigured', at: 1 } }))
        ?.kind,
    ).toBe('check-dns');
    expect(flowFromProgress(saved({ step: 'verify', lastCheck: ready }))?.kind).toBe('verify');
  });

  it('resumes the certificate and live steps only with verifiedAt', () => {
    expect(flowFromProgress(saved({ step: 'certificate', lastCheck: ready }))?.kind).toBe('verify');
    expect(flowFromProgress(saved({ step: 'live' }))?.kind).toBe('check-dns');
    expect(flowFromProgress(saved({ step: 'live', verifiedAt: 5 }))).toMatchObject({
      kind: 'live',
      verifiedAt: 5,
    });
  });

  it('drops a saved name that is not a domain', () => {
    expect(flowFromProgress(saved({ domain: 'not a domain' }))).toBeUndefined();
  });
});
