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

export type DnsServerCheck =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** RFC 4291 text form: eight groups, one "::" for a run of zeros, an IPv4 tail allowed. */
function isIpv6(text: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(text)) return false;
  let body = text;
  if (text.includes('.')) {
    const lastColon = text.lastIndexOf(':');
    if (lastColon === -1 || !IPV4.test(text.slice(lastColon + 1))) return false;
    body = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return false;
  return halves.length === 2 ? groups.length < 8 : groups.length === 8;
}

/**
 * The DNS server the checks ask, as the assistant's hint says it may be
 * written: an IPv4 address or an IPv6 address in brackets, each with an
 * optional port (1.1.1.1, 127.0.0.1:5353, [::1], [2606:4700::1111]:53).
 * The renderer checks as the clerk types; main refuses anything else.
 */
export function checkDnsServer(input: string): DnsServerCheck {
  const text = input.trim();
  const fail = (message: string): DnsServerCheck => ({ ok: false, message });
  if (text === '') return fail('Enter the DNS server’s IP address, e.g. 1.1.1.1.');
  let host: string;
  let port: string | undefined;
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1] ?? '';
    port = bracketed[2];
    if (!isIpv6(host)) return fail(`"${host}" in brackets is not an IPv6 address.`);
  } else if (isIpv6(text)) {
    return fail(`Write an IPv6 address in brackets, e.g. [${text}] or [${text}]:53.`);
  } else {
    const colon = text.indexOf(':');
    host = colon === -1 ? text : text.slice(0, colon);
    port = colon === -1 ? undefined : text.slice(colon + 1);
    if (!IPV4.test(host)) {
      return fail(
        /[a-z]/i.test(host)
          ? `"${host}" is a name, not an IP address. Enter the server’s IP address, e.g. 1.1.1.1.`
          : `"${host}" is not an IP address. Enter one such as 1.1.1.1 or 127.0.0.1:5353.`,
      );
    }
  }
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)) {
    return fail('The port must be a number from 1 to 65535.');
  }
  return { ok: true, text };
}

/** A DNS server's text as checkDnsServer accepts it. */
export const dnsServerSchema = z
  .string()
  .max(300)
  .refine((text) => checkDnsServer(text).ok, {
    message:
      'The DNS server must be an IP address with an optional port, e.g. 1.1.1.1:53 or [::1]:53.',
  });

export const domainSettingsSchema = z.strictObject({
  /** The CNAME target shown in the dashboard, pasted by the clerk. */
  target: hostText.optional(),
  /** The DNS server the checks ask (see checkDnsServer), or absent for the system's. */
  resolver: dnsServerSchema.optional(),
  /** The certificate authority's CAA domain; letsencrypt.org when absent. */
  caDomain: hostText.optional(),
});
export type DomainSettings = z.infer<typeof domainSettingsSchema>;

/** As read back from disk: a DNS server saved by an older version that the rule now refuses is dropped, the rest kept. */
const savedSettingsSchema = domainSettingsSchema
  .extend({ resolver: dnsServerSchema.optional().catch(undefined) })
  .transform(({ resolver, ...rest }): DomainSettings =>
    resolver === undefined ? rest : { ...rest, resolver },
  );

export const domainsConfigSchema = z.strictObject({
  primary: hostText,
  redirects: z
    .array(z.strictObject({ from: hostText, to: hostText, status: z.literal(301) }))
    .max(100),
});
export type DomainsConfig = z.infer<typeof domainsConfigSchema>;

export const domainWorkspaceSchema = z.object({
  settings: savedSettingsSchema.catch({}),
  progress: z.record(z.string(), domainProgressSchema).catch({}),
  config: domainsConfigSchema.optional().catch(undefined),
});
export type DomainWorkspace = z.infer<typeof domainWorkspaceSchema>;

export const EMPTY_WORKSPACE: DomainWorkspace = { settings: {}, progress: {} };
