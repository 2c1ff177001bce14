// The plan table of the store service interface (section "Limits").
// Shared by the sandbox (which enforces it) and the quota meter (which infers
// the plan from X-RateLimit-Limit).

export type PlanId = 'free' | 'pro' | 'business' | 'enterprise';

export interface PlanLimits {
  readonly perMinute: number;
  readonly perDay: number;
}

export interface Plan extends PlanLimits {
  readonly id: PlanId;
  readonly label: string;
  /** Pro and above are paid plans (custom domains need one). */
  readonly paid: boolean;
}

export const PLANS: Readonly<Record<Exclude<PlanId, 'enterprise'>, Plan>> = {
  free: { id: 'free', label: 'Free', perMinute: 60, perDay: 1_000, paid: false },
  pro: { id: 'pro', label: 'Pro', perMinute: 300, perDay: 10_000, paid: true },
  business: { id: 'business', label: 'Business', perMinute: 1_000, perDay: 100_000, paid: true },
};

/** Enterprise quotas are agreed individually; the sandbox uses these unless told otherwise. */
export const DEFAULT_ENTERPRISE_LIMITS: PlanLimits = { perMinute: 5_000, perDay: 1_000_000 };

export const PLAN_IDS: readonly PlanId[] = ['free', 'pro', 'business', 'enterprise'];

/**
 * The plan a per-minute limit implies: 60 Free, 300 Pro, 1,000 Business,
 * anything else Enterprise (custom), as the interface's plan table says.
 */
export function planForMinuteLimit(limit: number): { id: PlanId; label: string; perDay?: number } {
  for (const plan of Object.values(PLANS)) {
    if (plan.perMinute === limit) return { id: plan.id, label: plan.label, perDay: plan.perDay };
  }
  return { id: 'enterprise', label: 'Enterprise (custom)' };
}
