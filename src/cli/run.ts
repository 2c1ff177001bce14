// store-admin: the command line over the same client the app uses.
//   orders list | orders cancel <id> | orders changes | quota | domain check |
//   domain cert | domain watch
// Human-readable by default, --json for scripts. Exit codes: 0 done,
// 1 the service or the network failed (or a check could not run), 2 bad
// usage, 3 order not found, 4 order already shipped, 5 domain pending or
// certificate missing, 6 domain misconfigured or certificate invalid, 7 order
// gone after a try that may have reached the service (may or may not have been
// cancelled), 8 rate-limited or banned (the time to try again is in the
// message; --try-now ends a rate limit's hold with one request).
//
// Each key's gate state is kept per key and address in the data folder and
// shared by every run and by the app (src/main/quota/shared-gate-files.ts), so
// a shell loop of runs paces as one client and never sends during a hold.

import { isDomainCommand, parseCommandLine, UsageError } from './args.ts';
import { validateBaseUrl } from '../shared/environments.ts';
import type { Failure } from '../shared/failures.ts';
import type { Order } from '../shared/order.ts';
import { planForMinuteLimit } from '../shared/plans.ts';
import type { QuotaSnapshot } from '../shared/quota.ts';
import { realTiming, type Timing } from '../main/store-api/clock.ts';
import { isStoreApiError, type CancelOutcome, type KeyHelp } from '../main/store-api/client.ts';
import { reasonWords } from '../main/local-data/storage-health.ts';
import { isInt64Text } from '../shared/order.ts';
import {
  cliDataDir,
  cliListsFolder,
  CACHE_DIR_VARIABLE,
  DATA_DIR_VARIABLE,
} from './data-folder.ts';
import { runBulkCancel } from './bulk-cancel-command.ts';
import { changesJson, changesText, cliChanges, cliLists, cliScope } from './changes-command.ts';
import { cliServices } from './cli-services.ts';
import {
  appSettingsFile,
  CLI_ENVIRONMENTS,
  environmentOfAddress,
  isCliEnvironment,
  type CliEnvironment,
} from './app-environment.ts';
import { cliNetwork, ProxySettingError, type CliNetwork } from './network.ts';
import { ordersOf } from '../shared/order-columns.ts';
import type { DeprecationHeaders } from '../main/store-api/deprecation.ts';
import { deprecationSentence, type StoreEndpoint } from '../shared/deprecations.ts';

// The domain checks (DNS, TLS) load only when asked for: every orders run, as
// in a shell loop, starts without them.
const domainCommands = () => import('./domain-commands.ts');

export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  notFound: 3,
  alreadyShipped: 4,
  gone: 7,
  held: 8,
} as const;

const EXIT_BY_OUTCOME: Readonly<Record<CancelOutcome['kind'], number>> = {
  cancelled: EXIT.ok,
  'not-found': EXIT.notFound,
  'already-shipped': EXIT.alreadyShipped,
  gone: EXIT.gone,
};

/** The key comes from the environment here, not from a Settings screen. */
const CLI_KEY_HELP: KeyHelp = {
  missing: 'Set it in the STORE_ADMIN_API_KEY environment variable.',
  refused: 'Check the key in the STORE_ADMIN_API_KEY environment variable.',
};

const COMMANDS =
  'orders list, orders cancel <id>, orders cancel --from FILE, orders changes, quota, domain check, domain cert, domain watch';

export const USAGE = `Usage: store-admin <command> [options]

Commands:
  orders list            List every order (and save the list, for orders changes)
  orders cancel <id>     Cancel a pending order
  orders cancel --from FILE [--resume]
                         Cancel many: FILE holds one order number per line,
                         or is a CSV with an "id" column. Paced by the quota
                         and journaled in the data folder per address, with a
                         progress line on stderr. --resume finishes a run
                         that was killed or stopped (an order whose answer was
                         lost is continued, and its result says so). Exit 0
                         when every order has a known outcome.
  orders changes         What changed between the last two lists saved for the
                         address: new, changed (with the values before) and gone
                         orders. Sends nothing; works offline.
  quota                  Send one request and show the quota it reports

Options:
  --base-url URL         The service's base address, ending with /v1
                         (default: $STORE_ADMIN_BASE_URL)
  --env ENVIRONMENT      production or staging: the app's environment whose
                         lists and cancel log the address shares (default:
                         staging when the app's Staging has this address and
                         its Production does not, else production)
  --try-now              When requests are held (rate-limited), send one request
                         through the hold first, as the app's "Try now" does:
                         its answer ends the hold (or sets the new one asked for)
  --json                 Machine-readable output (see README)
  -h, --help             Show this help

The API key is read from $STORE_ADMIN_API_KEY, never from the command line.
Requests are paced with every other run and the app on this computer, per key
and address (state in the app's data folder, or $${DATA_DIR_VARIABLE}). A run
meeting a short hold waits; a longer one exits at once with the time, sending
nothing. The last two lists of each address and the cancel log are the app's,
in its data folder (or $${CACHE_DIR_VARIABLE}). When the service says an endpoint is
deprecated, the notice is printed on standard error (and in --json as
"deprecation").

Exit codes: 0 done, 1 the service or the network failed, 2 bad usage or no key,
3 order not found, 4 order already shipped, 7 order gone after a try that may
have reached the service (it may or may not have been cancelled), 8 rate-limited or banned (try again
at the time given, or end a rate limit's hold with --try-now).
Ctrl-C during orders cancel --from sends nothing more: requests waiting for
their turn are dropped, and the answers already on their way are recorded.
`;

/** Said after a rate limit's exit 8. */
const TRY_NOW_HINT =
  'To send one request now anyway, run the same command with --try-now: its answer ends the hold, or says how long to wait.';

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timing?: Timing;
  /** Whether stderr is a terminal (a progress line is then rewritten in place). */
  readonly stderrIsTty?: boolean;
  /** The system's CA certificates, where Node can read them (tests give their own). */
  readonly systemCertificates?: () => readonly string[];
}

interface Parsed {
  readonly command:
    'orders list' | 'orders cancel' | 'orders cancel --from' | 'orders changes' | 'quota' | 'help';
  readonly orderId?: string;
  readonly from?: string;
  readonly resume?: boolean;
  readonly baseUrl?: string;
  /** `--env`: the app's environment to keep the address's history under. */
  readonly environment?: CliEnvironment;
  readonly json: boolean;
  /** End a hold on purpose: one request through it first (the app's "Try now"). */
  readonly tryNow?: boolean;
}

function parse(argv: readonly string[]): Parsed {
  const { values, positionals } = parseCommandLine(argv, {
    'base-url': { type: 'string' },
    env: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
    from: { type: 'string' },
    resume: { type: 'boolean', default: false },
    'try-now': { type: 'boolean', default: false },
  });
  const json = values.json ?? false;
  const baseUrl = values['base-url'];
  const environment = values.env;
  if (environment !== undefined && !isCliEnvironment(environment))
    throw new UsageError(`--env is ${CLI_ENVIRONMENTS.join(' or ')}`);
  const common = {
    json,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(environment !== undefined ? { environment } : {}),
    ...(values['try-now'] ? { tryNow: true } : {}),
  };
  if (values.help || positionals.length === 0) return { command: 'help', ...common };
  const [group, action, ...rest] = positionals;
  const many = values.from !== undefined || values.resume === true;
  if (many && !(group === 'orders' && action === 'cancel'))
    throw new UsageError('--from and --resume belong to orders cancel');
  if (group === 'quota' && action === undefined) return { command: 'quota', ...common };
  if (group === 'orders' && action === 'list' && rest.length === 0)
    return { command: 'orders list', ...common };
  if (group === 'orders' && action === 'changes' && rest.length === 0)
    return { command: 'orders changes', ...common };
  if (group === 'orders' && action === 'cancel' && many) {
    if (rest.length > 0)
      throw new UsageError('orders cancel takes either one order number or --from FILE, not both');
    if (values.from === '') throw new UsageError('--from needs a file name');
    return {
      command: 'orders cancel --from',
      resume: values.resume === true,
      ...(values.from !== undefined ? { from: values.from } : {}),
      ...common,
    };
  }
  if (group === 'orders' && action === 'cancel') {
    if (rest.length !== 1) throw new UsageError('orders cancel needs exactly one order number');
    const orderId = rest[0]!;
    if (!isInt64Text(orderId))
      throw new UsageError(
        `“${orderId.slice(0, 40)}” is not an order number (a whole number, such as 42)`,
      );
    return { command: 'orders cancel', orderId, ...common };
  }
  throw new UsageError(`unknown command “${positionals.join(' ')}”; the commands are ${COMMANDS}`);
}

function quotaJson(quota: QuotaSnapshot) {
  const plan = quota.limit !== undefined ? planForMinuteLimit(quota.limit) : undefined;
  return {
    known: quota.known,
    ...(quota.limit !== undefined ? { limit: quota.limit } : {}),
    ...(quota.remaining !== undefined ? { remaining: quota.remaining } : {}),
    ...(quota.resetAt !== undefined ? { resetAt: new Date(quota.resetAt).toISOString() } : {}),
    ...(plan ? { plan: plan.label } : {}),
  };
}

function quotaLine(quota: QuotaSnapshot): string {
  if (!quota.known || quota.limit === undefined)
    return 'Quota: unknown (the service sent no rate-limit headers)';
  const reset =
    quota.resetAt !== undefined
      ? `, resets at ${new Date(quota.resetAt).toLocaleTimeString()}`
      : '';
  return `Quota: ${quota.remaining ?? '?'} of ${quota.limit} requests left${reset} (${planForMinuteLimit(quota.limit).label} plan)`;
}

function orderTable(orders: readonly Order[]): string {
  const header = ['ID', 'PET ID', 'QTY', 'SHIP DATE', 'COMPLETE'];
  const rows = orders.map((o) => [
    o.id ?? '-',
    o.petId ?? '-',
    o.quantity?.toString() ?? '-',
    o.shipDate ?? '-',
    o.complete === undefined ? '-' : o.complete ? 'yes' : 'no',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function exitFor(failure: Failure): number {
  return failure.kind === 'rate-limited' || failure.kind === 'banned' ? EXIT.held : EXIT.failed;
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  if (isDomainCommand(argv)) return (await domainCommands()).runDomainCommand([...argv], io);
  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`store-admin: ${error.message}. Try --help.\n`);
    return EXIT.usage;
  }
  if (parsed.command === 'help') {
    io.stdout(`${USAGE}\n${(await domainCommands()).DOMAIN_USAGE}\n`);
    return EXIT.ok;
  }
  // What the service's answers said of deprecated endpoints, once per endpoint.
  const deprecations = new Map<StoreEndpoint, DeprecationHeaders>();
  const deprecationJson = () => {
    const [entry] = deprecations;
    if (!entry) return {};
    const [endpoint, said] = entry;
    const notice = { environment: 'production' as const, endpoint, ...said, seenAt: timing.now() };
    return {
      deprecation: {
        endpoint,
        message: deprecationSentence(notice, timing.now()),
        ...(said.deprecatedAt !== undefined ? { deprecatedAt: iso(said.deprecatedAt) } : {}),
        ...(said.sunsetAt !== undefined ? { sunsetAt: iso(said.sunsetAt) } : {}),
        ...(said.link !== undefined ? { link: said.link } : {}),
      },
    };
  };
  const sayDeprecations = () => {
    for (const [endpoint, said] of deprecations) {
      const notice = {
        environment: 'production' as const,
        endpoint,
        ...said,
        seenAt: timing.now(),
      };
      const more = said.link ? ` Read more: ${said.link}` : '';
      io.stderr(`Note: ${deprecationSentence(notice, timing.now())}${more}\n`);
    }
  };
  const json = (value: object) =>
    io.stdout(`${JSON.stringify({ ...value, ...deprecationJson() })}\n`);
  const fail = (failure: Failure, code: number = exitFor(failure)): number => {
    if (parsed.json) json({ ok: false, error: failure });
    else io.stderr(`${failure.message}\n`);
    // A hold can be ended on purpose (not a ban: that only grows with requests).
    if (!parsed.json && failure.kind === 'rate-limited') io.stderr(`${TRY_NOW_HINT}\n`);
    return code;
  };
  const timing = io.timing ?? realTiming;
  const checked = validateBaseUrl(parsed.baseUrl ?? io.env.STORE_ADMIN_BASE_URL ?? '');
  if (!checked.ok) {
    io.stderr(`store-admin: --base-url: ${checked.message}\n`);
    return EXIT.usage;
  }
  // The app's data folder; what the CLI kept in a folder of its own before 0.5.0 is merged in once.
  const cacheDir = await cliListsFolder(io.env);
  // The address's history is the app's, under the environment the app has it in.
  const environment = environmentOfAddress(
    checked.value,
    appSettingsFile(io.env),
    parsed.environment,
  );
  if (parsed.command === 'orders changes') {
    // From the saved lists alone: no key, no request.
    const { tracker, cancelLog } = cliLists(cacheDir);
    const scope = cliScope(checked.value, environment);
    const changes = cliChanges(await tracker.compared(scope), await cancelLog.read(scope));
    if (parsed.json) json(changesJson(changes));
    else io.stdout(changesText(changes));
    return EXIT.ok;
  }
  const key = io.env.STORE_ADMIN_API_KEY?.trim();
  if (!key) {
    return fail(
      {
        kind: 'no-key',
        message: `No API key is set. ${CLI_KEY_HELP.missing}`,
        delivery: 'not-sent',
      },
      EXIT.usage,
    );
  }
  let network: CliNetwork;
  try {
    network = cliNetwork(
      io.env,
      io.systemCertificates ? { systemCertificates: io.systemCertificates } : {},
    );
  } catch (error) {
    if (!(error instanceof ProxySettingError)) throw error;
    io.stderr(`store-admin: ${error.message}\n`);
    return EXIT.usage;
  }
  const dataDir = cliDataDir(io.env);
  const { client, gate, scope, orders, quota, cacheSaves, sharing } = cliServices({
    baseUrl: checked.value,
    environment,
    key,
    dataDir,
    cacheDir,
    timing,
    fetch: network.fetch,
    keyHelp: CLI_KEY_HELP,
    onDeprecation: (endpoint, said) => {
      if (said) deprecations.set(endpoint, said);
    },
  });
  // The gate's state is what keeps a loop of runs from getting the key banned: said in one line when
  // it moved, and nothing is sent when it can be kept nowhere.
  if (sharing.kind === 'moved')
    io.stderr(
      `Note: Store Admin cannot keep its request pacing in ${sharing.folder} because ${reasonWords(sharing.error)}, so it keeps it in ${sharing.fallback}; set ${DATA_DIR_VARIABLE} to a folder it can write to share it with the app again.\n`,
    );
  if (sharing.kind === 'alone')
    return fail({
      kind: 'internal',
      message: `Store Admin cannot keep its request pacing in ${sharing.folder} because ${reasonWords(sharing.error)}, nor anywhere else, so it sends nothing: without it, runs could not see a hold another run was told about, and the key could be banned. Set ${DATA_DIR_VARIABLE} to a folder it can write.`,
      delivery: 'not-sent',
    });
  /** What the cache folder would not take, said once at the end ("The list was not saved ..."). */
  const sayUnsaved = (what: string): void => {
    const problem = cacheSaves.problem();
    if (problem)
      io.stderr(
        `Note: ${what} not saved in ${problem.folder} because ${reasonWords({ code: problem.code })}. Set ${CACHE_DIR_VARIABLE} to a folder Store Admin can write to keep it.\n`,
      );
  };

  try {
    if (parsed.tryNow && gate.openAt().reason !== undefined) {
      // One request through the hold, as the app's button sends; `quota` is that request itself.
      const tried = await quota.tryNow(environment);
      if (parsed.command === 'quota') {
        if (parsed.json) json({ ok: true, quota: quotaJson(tried.quota) });
        else io.stdout(`${tried.message}\n${quotaLine(tried.quota)}\n`);
        sayDeprecations();
        return EXIT.ok;
      }
      io.stderr(`${tried.message}\n`);
    }
    switch (parsed.command) {
      case 'orders list': {
        // Saved as the app saves its cache (crash-safe, the list before kept), for orders changes.
        const list = await orders.refresh(environment);
        const listed = ordersOf(list.columns);
        if (parsed.json) {
          json({
            ok: true,
            count: listed.length,
            receivedAt: iso(list.receivedAt),
            orders: listed,
            quota: quotaJson(client.quota()),
          });
        } else {
          io.stdout(
            `${orderTable(listed)}\n\n${listed.length} orders. ${quotaLine(client.quota())}\n`,
          );
        }
        sayUnsaved('The list was');
        sayDeprecations();
        return EXIT.ok;
      }
      case 'orders cancel': {
        const orderId = parsed.orderId!;
        // Sent, logged and explained as the app does it (src/main/orders/orders-service.ts).
        const outcome = await orders.cancel(environment, orderId).catch((error: unknown) => {
          sayUnsaved('The attempt was');
          throw error;
        });
        if (parsed.json) {
          json({
            ok: outcome.kind === 'cancelled',
            orderId,
            outcome: outcome.kind,
            message: outcome.message,
            quota: quotaJson(client.quota()),
          });
        } else {
          (outcome.kind === 'cancelled' ? io.stdout : io.stderr)(`${outcome.message}\n`);
        }
        sayUnsaved('The cancel was');
        sayDeprecations();
        return EXIT_BY_OUTCOME[outcome.kind];
      }
      case 'orders cancel --from': {
        const code = await runBulkCancel(
          {
            resume: parsed.resume === true,
            json: parsed.json,
            ...(parsed.from ? { from: parsed.from } : {}),
          },
          {
            baseUrl: checked.value,
            client,
            gate,
            dataDir,
            io,
            timing,
            tty: io.stderrIsTty === true,
            // Logged as single cancels are, so orders changes tells these orders apart too.
            ...orders.cancelLogHooks(scope),
          },
        );
        sayUnsaved('Some results were');
        return code;
      }
      case 'quota': {
        const check = await quota.check(environment);
        if (parsed.json) json({ ok: true, quota: quotaJson(check.quota) });
        else io.stdout(`${quotaLine(check.quota)}\n`);
        sayDeprecations();
        return EXIT.ok;
      }
    }
  } catch (error) {
    if (isStoreApiError(error)) {
      const code = fail(error.failure);
      sayDeprecations();
      return code;
    }
    throw error;
  } finally {
    await network.close();
  }
}

const iso = (epochMs: number) => new Date(epochMs).toISOString();
