// The API keys the sandbox accepts, and reading the bearer token of a request.

import { randomBytes } from 'node:crypto';
import { PLAN_IDS } from '../../shared/plans.ts';
import type { PlanId } from '../../shared/plans.ts';

export interface SandboxKey {
  readonly plan: PlanId;
  readonly key: string;
}

/** One documented demo key per plan, accepted when no keys are configured. */
export const DEMO_KEYS: readonly SandboxKey[] = PLAN_IDS.map((plan) => ({
  plan,
  key: `demo-${plan}`,
}));

/**
 * The key of the sandbox the app starts for itself: made fresh at every start
 * and known only to main, so the shipped app holds no fixed key and no other
 * program on the computer can use its sandbox's quota.
 */
export function createSandboxKey(random: (size: number) => Buffer = randomBytes): SandboxKey {
  return { plan: 'pro', key: `sandbox-${random(24).toString('base64url')}` };
}

// RFC 6750 b64token (token68): what may follow "Bearer ".
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
const BEARER = /^Bearer +(\S+) *$/i;

export type BearerToken =
  | { readonly kind: 'missing' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'token'; readonly token: string };

/** The token of an `Authorization: Bearer <token>` header value. */
export function readBearer(header: string | undefined): BearerToken {
  if (header === undefined || header.trim() === '') return { kind: 'missing' };
  const match = BEARER.exec(header);
  const token = match?.[1];
  if (token === undefined || !TOKEN68.test(token)) return { kind: 'malformed' };
  return { kind: 'token', token };
}

/** Check configured keys: valid plans, usable as bearer tokens, no key given twice. */
export function validateKeys(keys: readonly SandboxKey[]): readonly SandboxKey[] {
  if (keys.length === 0) throw new RangeError('keys must list at least one key');
  const seen = new Set<string>();
  for (const { plan, key } of keys) {
    if (!PLAN_IDS.includes(plan)) {
      throw new RangeError(`unknown plan "${plan}" (known: ${PLAN_IDS.join(', ')})`);
    }
    if (!TOKEN68.test(key)) {
      throw new RangeError(
        `key "${key}" cannot be sent as a bearer token (use letters, digits, -._~+/)`,
      );
    }
    if (seen.has(key)) throw new RangeError(`key "${key}" is given twice`);
    seen.add(key);
  }
  return keys.map(({ plan, key }) => ({ plan, key }));
}
