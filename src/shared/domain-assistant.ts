// What the custom-domain assistant keeps per environment: the platform's
// CNAME target and DNS settings, each domain's progress through the steps of
// the interface's procedure (so a clerk can come back two days later), and
// the multi-domain configuration. Schemas here validate it crossing IPC and
// coming back from disk.

import { z } from 'zod';

/** The steps of the interface's procedure, in order. */
export const ASSISTANT_STEPS = [
  'preconditions',
  'add-domain',
  'configure-dns',
  'check-dns',
  'verify',
  'certificate',
  'live',
] as const;
export type AssistantStep = (typeof ASSISTANT_STEPS)[number];

const hostText = z.string().min(1).max(253);

export const domainProgressSchema = z.strictObject({
  /** As the user typed it (Unicode allowed); checks normalise it. */
  domain: hostText,
  step: z.enum(ASSISTANT_STEPS),
  preconditions: z.strictObject({
    paidPlan: z.boolean(),
    dnsAccess: z.boolean(),
    deployed: z.boolean(),
  }),
  /** Epoch ms when the clerk reported Verify succeeded (starts the 30-minute certificate wait). */
  verifiedAt: z.number().int().nonnegative().optional(),
  lastCheck: z
    .strictObject({
      status: z.enum(['ready', 'pending', 'misconfigured', 'error']),
      at: z.number().int().nonnegative(),
    })
    .optional(),
  updatedAt: z.number().int().nonnegative(),
});
export type DomainProgress = z.infer<typeof domainProgressSchema>;

export const domainSettingsSchema = z.strictObject({
  /** The CNAME target shown in the dashboard, pasted by the clerk. */
  target: hostText.optional(),
  /** HOST:PORT of a DNS server, or absent for the system's. */
  resolver: z.string().max(300).optional(),
  /** The certificate authority's CAA domain; letsencrypt.org when absent. */
  caDomain: hostText.optional(),
});
export type DomainSettings = z.infer<typeof domainSettingsSchema>;

export const domainsConfigSchema = z.strictObject({
  primary: hostText,
  redirects: z
    .array(z.strictObject({ from: hostText, to: hostText, status: z.literal(301) }))
    .max(100),
});
export type DomainsConfig = z.infer<typeof domainsConfigSchema>;

export const domainWorkspaceSchema = z.object({
  settings: domainSettingsSchema.catch({}),
  progress: z.record(z.string(), domainProgressSchema).catch({}),
  config: domainsConfigSchema.optional().catch(undefined),
});
export type DomainWorkspace = z.infer<typeof domainWorkspaceSchema>;

export const EMPTY_WORKSPACE: DomainWorkspace = { settings: {}, progress: {} };
