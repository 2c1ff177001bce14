// Command line of the sandbox: `npm run sandbox -- [options]`. Importing this
// module does nothing; only running it as the entry point starts a server.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PLAN_IDS } from '../../shared/plans.ts';
import type { PlanId } from '../../shared/plans.ts';
import { parseDeprecateSpec } from './deprecations.ts';
import { parseFaultSpec } from './faults.ts';
import { startSandbox } from './server.ts';
import type { SandboxOptions } from './server.ts';

export const USAGE = `Usage: node src/main/sandbox/cli.ts [options]
  --port N             port on 127.0.0.1 (default 4010; 0 picks a free one)
  --orders N           number of generated orders (default 1000)
  --seed N             seed of the data and the fault rolls (default 1)
  --minute-ms MS       length of the per-minute window (default 60000)
  --day-ms MS          length of the per-day window (default 86400000)
  --big-ids            order and pet ids above 2^53
  --faults SPEC        e.g. latency=200@0.3,5xx@0.1,reset@0.05,malformed@0.02,429=5@0.01
  --key PLAN=KEY       accept KEY for PLAN (free, pro, business, enterprise); repeatable;
                       without it the demo keys demo-free ... demo-enterprise are accepted
  --enterprise-limits PER_MINUTE/PER_DAY   custom Enterprise limits (default 5000/1000000)
  --retry-after FORMAT seconds (default) or http-date
  --ban-after N        requests while limited before a key is banned (default 5)
  --ban-ms MS          length of a ban (default 15 minute windows)
  --bandwidth MB/S     send order lists at most this fast (1 MB = 1,000,000 bytes; default unlimited)
  --churn N            every N seconds some orders ship, some complete, new ones arrive
                       and a few are cancelled elsewhere (seeded: the same each run)
  --deprecate PATH[=SUNSET]  answer PATH (e.g. /store/orders, /store/orders/{orderId}) with
                       Deprecation, Sunset and Link headers; SUNSET as 2027-06-30, an
                       HTTP-date or @EPOCH_SECONDS; repeatable
  --tls                serve HTTPS with a certificate for localhost, 127.0.0.1 and ::1,
                       signed by a CA made at start; the CA is written to a file
                       (trust it with NODE_EXTRA_CA_CERTS=FILE)
  --tls-ca FILE        where --tls writes its CA certificate (default: a new
                       folder in the system's temporary folder)
  --help               show this help`;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** What the command line asks for: the sandbox's options, and HTTPS with its CA written to a file. */
export type SandboxCliOptions = SandboxOptions & {
  help?: boolean;
  /** Serve HTTPS; the CA goes to `caFile` (absolute), or to a new temporary folder. */
  https?: { caFile?: string };
};

/** Sandbox options from command-line arguments; throws UsageError on bad ones. */
export function parseCliArgs(argv: readonly string[]): SandboxCliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string', default: '4010' },
        orders: { type: 'string' },
        seed: { type: 'string' },
        'minute-ms': { type: 'string' },
        'day-ms': { type: 'string' },
        'big-ids': { type: 'boolean' },
        faults: { type: 'string' },
        key: { type: 'string', multiple: true },
        'enterprise-limits': { type: 'string' },
        'retry-after': { type: 'string' },
        'ban-after': { type: 'string' },
        'ban-ms': { type: 'string' },
        bandwidth: { type: 'string' },
        churn: { type: 'string' },
        deprecate: { type: 'string', multiple: true },
        tls: { type: 'boolean' },
        'tls-ca': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { help: true };

  const options: {
    -readonly [K in keyof SandboxCliOptions]: SandboxCliOptions[K];
  } = {
    port: integer('--port', values.port, 0, 65_535),
    bigIds: values['big-ids'] ?? false,
  };
  if (values.orders !== undefined) options.orders = integer('--orders', values.orders, 0);
  if (values.seed !== undefined) options.seed = integer('--seed', values.seed, 0, 2 ** 32 - 1);
  if (values['minute-ms'] !== undefined)
    options.minuteMs = integer('--minute-ms', values['minute-ms'], 1);
  if (values['day-ms'] !== undefined) options.dayMs = integer('--day-ms', values['day-ms'], 1);
  if (values['ban-after'] !== undefined)
    options.banAfter = integer('--ban-after', values['ban-after'], 1);
  if (values['ban-ms'] !== undefined) options.banMs = integer('--ban-ms', values['ban-ms'], 1);
  if (values.bandwidth !== undefined) {
    const mbPerSecond = Number(values.bandwidth);
    if (!/^\d+(?:\.\d+)?$/.test(values.bandwidth) || !(mbPerSecond > 0))
      throw new UsageError(
        `--bandwidth must be a number of MB per second above 0, got "${values.bandwidth}"`,
      );
    options.bytesPerSecond = mbPerSecond * 1_000_000;
  }
  if (values.churn !== undefined)
    options.churnEveryMs = integer('--churn', values.churn, 1, 86_400 * 365) * 1000;
  if (values.deprecate !== undefined) {
    options.deprecate = values.deprecate.map((spec) => {
      try {
        return parseDeprecateSpec(spec);
      } catch (error) {
        throw new UsageError(
          `--deprecate: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
  }
  if (values.faults !== undefined) {
    try {
      options.faults = parseFaultSpec(values.faults);
    } catch (error) {
      throw new UsageError(`--faults: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const retryAfter = values['retry-after'];
  if (retryAfter !== undefined) {
    if (retryAfter !== 'seconds' && retryAfter !== 'http-date') {
      throw new UsageError(`--retry-after must be "seconds" or "http-date", got "${retryAfter}"`);
    }
    options.retryAfterFormat = retryAfter;
  }
  const enterprise = values['enterprise-limits'];
  if (enterprise !== undefined) {
    const [perMinute = '', perDay = '', extra] = enterprise.split('/');
    if (extra !== undefined)
      throw new UsageError('--enterprise-limits must read PER_MINUTE/PER_DAY');
    options.enterpriseLimits = {
      perMinute: integer('--enterprise-limits (per minute)', perMinute, 1),
      perDay: integer('--enterprise-limits (per day)', perDay, 1),
    };
  }
  if (values.key !== undefined) options.keys = values.key.map(parseKey);
  if (values['tls-ca'] !== undefined && !values.tls)
    throw new UsageError('--tls-ca names where --tls writes its CA: add --tls');
  if (values.tls)
    options.https = values['tls-ca'] === undefined ? {} : { caFile: resolve(values['tls-ca']) };
  return options;
}

function integer(name: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^(?:0|[1-9][0-9]*)$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return Number(text);
}

function parseKey(text: string): { plan: PlanId; key: string } {
  const separator = text.indexOf('=');
  const planText = text.slice(0, separator);
  const plan = PLAN_IDS.find((id) => id === planText);
  const key = text.slice(separator + 1);
  if (separator < 0 || !plan || key === '') {
    throw new UsageError(
      `--key must read PLAN=KEY with PLAN one of ${PLAN_IDS.join(', ')}, got "${text}"`,
    );
  }
  return { plan, key };
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseCliArgs(process.argv.slice(2));
    if (options.help) {
      console.log(USAGE);
      return;
    }
  } catch (error) {
    return usageFailure(error);
  }

  let sandbox;
  let caFile: string | undefined;
  try {
    let tls: SandboxOptions['tls'];
    const serveTls = options.https;
    if (serveTls) {
      // Loaded only here: the certificate maker is a development dependency.
      const { makeSandboxTls } = await import('./tls.ts');
      const made = await makeSandboxTls();
      caFile = serveTls.caFile ?? join(mkdtempSync(join(tmpdir(), 'store-sandbox-')), 'ca.pem');
      mkdirSync(dirname(caFile), { recursive: true });
      writeFileSync(caFile, made.ca);
      tls = { key: made.key, cert: made.cert };
    }
    sandbox = await startSandbox({ ...options, ...(tls ? { tls } : {}) });
  } catch (error) {
    // Option values startSandbox rejects (e.g. a key unusable as a bearer token), or a busy port.
    if (error instanceof RangeError) return usageFailure(error);
    console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    return;
  }

  // Listening for the signals before saying it is ready: a script that stops the sandbox as soon
  // as it reads the keys must find it ready to close cleanly.
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1); // a second signal: stop waiting
    closing = true;
    console.log(`${signal}: closing the sandbox`);
    sandbox.close().then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  console.log(`Store sandbox listening at ${sandbox.baseUrl}`);
  if (caFile) {
    console.log(`Also at ${sandbox.baseUrl.replace('127.0.0.1', 'localhost')}`);
    console.log(`CA certificate: ${caFile} (trust it with NODE_EXTRA_CA_CERTS=${caFile})`);
  }
  console.log('Accepted API keys (plan key):');
  for (const { plan, key } of sandbox.keys) console.log(`  ${plan.padEnd(10)} ${key}`);
}

function usageFailure(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  // One line, for scripts and people alike; --help has the rest.
  console.error(`sandbox: ${message.replace(/\s*\n\s*/g, ' ')} (see --help)`);
  process.exitCode = 2;
}

if (import.meta.main) await main();
