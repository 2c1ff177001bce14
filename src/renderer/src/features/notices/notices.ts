// The conditions the window tells the clerk about, each once: the service
// cannot be reached (reviewing the saved list; or its address answers with a
// web page, a network's sign-in page), requests paused until a time
// (rate-limited), the key banned, the key refused or missing, the key kept
// back from a new address until the clerk confirms it, a refresh that failed
// otherwise, a switch that did not happen, the data folder taking nothing
// the app saves (whatever the environment), and the service's deprecation
// notices (one notice for them all). Worked out from what the
// store holds for the active environment, so one condition never shows as
// several banners however many calls ran into it. Pure, so each case is
// tested without rendering.

import type { BulkCancelSnapshot } from '../../../../shared/bulk-cancel.ts';
import {
  deprecationSentence,
  type DeprecationNotice,
  type StoreEndpoint,
} from '../../../../shared/deprecations.ts';
import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import type { Failure } from '../../../../shared/failures.ts';
import type { KeyStatus } from '../../../../shared/key-status.ts';
import { MAX_INLINE_WAIT_MS, type QuotaView } from '../../../../shared/quota.ts';
import type { StorageProblem } from '../../../../shared/storage.ts';
import { formatMomentWithSeconds } from '../../format.ts';
import { failureDetails, splitServiceWords } from '../../service-words.ts';
import type { Connectivity } from '../connectivity/connectivity-slice.ts';
import type { EnvironmentOrders } from '../orders/orders-slice.ts';
import { quotaMeterState, type LimitReason } from '../quota/quota-meter-model.ts';
import { BAN_WARNING, describeLimitReason } from '../quota/quota-text.ts';
import { failureNeedsSettings } from '../settings/open-settings-button.tsx';

export type NoticeKind =
  | 'set-up'
  | 'switch-failed'
  | 'banned'
  | 'rate-limited'
  | 'key-refused'
  | 'no-key'
  | 'key-other-address'
  | 'unreachable'
  | 'refresh-failed'
  | 'storage'
  | 'deprecation';

export type NoticeAction = 'retry' | 'open-settings' | 'set-up' | 'try-now' | 'read-more';

export interface Notice {
  readonly kind: NoticeKind;
  readonly environment: EnvironmentId;
  /** `info`: nothing is wrong, something is still to do (an environment not set up yet). */
  readonly tone: 'error' | 'warning' | 'info';
  /** A few words in bold before the sentence. */
  readonly title: string;
  /** The one sentence: what it means for the clerk. */
  readonly sentence: string;
  /** For a hold: when it ends, so the area can show a live countdown beside the time. */
  readonly until?: number;
  /** For a rate limit's hold: whose limit it is (a gateway's cannot get the key banned). */
  readonly holdReason?: LimitReason;
  readonly action?: NoticeAction;
  /** Codes and the service's own words, behind "Details"; empty when there are none. */
  readonly details: readonly string[];
  /** A deprecation notice: the endpoints it is about (Dismiss dismisses them), the first with the link. */
  readonly endpoints?: readonly StoreEndpoint[];
}

export interface NoticeInputs {
  readonly environment: EnvironmentId;
  readonly now: number;
  readonly connectivity: Connectivity | undefined;
  readonly quota: QuotaView | undefined;
  readonly orders: EnvironmentOrders | undefined;
  readonly bulkJob: BulkCancelSnapshot | undefined;
  /** A remote environment has an address set (the sandbox always has). */
  readonly hasBaseUrl: boolean;
  /** The address the environment points at now (undefined for the sandbox and an unset one). */
  readonly baseUrl?: string | undefined;
  readonly switchProblem: string | undefined;
  /** The environment's key as main holds it (remote environments only). */
  readonly keyStatus?: KeyStatus | undefined;
  /**
   * The environment's Settings are on screen: a key kept from a new address is
   * said there, beside the key field and its Confirm button, not twice.
   */
  readonly keySettingsShown?: boolean;
  /**
   * The Orders screen of the environment offers "Set up …" where its orders
   * would be (nothing is saved to show): the prompt is said there, not twice.
   */
  readonly setUpOfferedOnScreen?: boolean;
  /** Main cannot save to the data folder (a full or read-only disk): it goes on from memory. */
  readonly storageProblem?: StorageProblem | undefined;
  /** The service's deprecation notices for the environment, not dismissed (soonest sunset first). */
  readonly deprecations?: readonly DeprecationNotice[];
}

/** Why requests are paused, after "Requests to Staging are paused until …". */
const HOLD_SENTENCES: Readonly<Record<LimitReason, string>> = {
  'server-429': 'The service asked Store Admin to slow down.',
  'gateway-429': 'A gateway between this computer and the store service is limiting requests.',
  'quota-exhausted': 'The quota for this period is used up.',
};

const KEY_KINDS = new Set<Failure['kind']>(['unauthorized', 'no-key']);
const HOLD_KINDS = new Set<Failure['kind']>(['rate-limited', 'banned']);
const NO_ANSWER_KINDS = new Set<Failure['kind']>(['network', 'timeout']);
/** What a refresh of an environment not set up yet runs into: the setup prompt says it. */
const SETUP_KINDS = new Set<Failure['kind']>(['no-key', 'invalid-input']);

/**
 * A remote environment is set up once it has an address and a key (a key
 * kept back from a new address is set up, and says so in its own notice).
 */
function isSetUp(input: NoticeInputs): boolean {
  if (input.environment === 'sandbox') return true;
  return input.hasBaseUrl && input.keyStatus?.set !== false;
}

/** The list on screen belongs to the address the environment points at now. */
function sameService(input: NoticeInputs): boolean {
  return input.environment === 'sandbox' || input.orders?.service === input.baseUrl;
}

/**
 * The refresh failure that still holds: none from an earlier address, and
 * none that only said the service gave no answer once the service has
 * answered since (the offline notice came and went with it).
 */
function currentLoadFailure(input: NoticeInputs): Failure | undefined {
  const orders = input.orders;
  if (orders?.load.kind !== 'failed' || !sameService(input)) return undefined;
  const { failure } = orders.load;
  const answeredSince =
    input.connectivity?.reachable === true && input.connectivity.since >= orders.load.at;
  return NO_ANSWER_KINDS.has(failure.kind) && answeredSince ? undefined : failure;
}

/** What an environment not set up yet lacks, said by its notice or where its orders would be. */
export function setUpWords(
  label: string,
  hasBaseUrl: boolean,
): { readonly title: string; readonly sentence: string } {
  return {
    title: `${label} is not set up yet.`,
    sentence: hasBaseUrl
      ? 'Enter its API key in Settings to work with its orders.'
      : 'Enter its address and API key in Settings to work with its orders.',
  };
}

/** The notices to show, most pressing first, each kind at most once. */
export function noticesFor(input: NoticeInputs): Notice[] {
  const { environment, now } = input;
  const label = ENVIRONMENT_LABELS[environment];
  const notices: Notice[] = [];
  const offline = input.connectivity?.reachable === false;
  const notSetUp = !isSetUp(input);
  // What an earlier address or an earlier outage left behind no longer holds.
  const loadFailure = currentLoadFailure(input);
  const keyFailure = sameService(input) ? input.orders?.keyFailure : undefined;

  if (notSetUp && !input.keySettingsShown && !input.setUpOfferedOnScreen) {
    notices.push({
      kind: 'set-up',
      environment,
      tone: 'info',
      ...setUpWords(label, input.hasBaseUrl),
      action: 'set-up',
      details: [],
    });
  }

  if (input.switchProblem) {
    notices.push({
      kind: 'switch-failed',
      environment,
      tone: 'error',
      title: 'Not switched.',
      sentence: input.switchProblem,
      details: [],
    });
  }

  // A hold is what the gate in main holds now (the quota view), never an older failure's time.
  const hold = quotaMeterState(input.quota, now);
  const holdFailure = input.orders?.holdFailure;
  if (hold.kind === 'banned') {
    notices.push({
      kind: 'banned',
      environment,
      tone: 'error',
      title: 'Key banned.',
      sentence: `The service has banned the ${label} API key until ${formatMomentWithSeconds(hold.until, now)}. Store Admin sends nothing until then.`,
      until: hold.until,
      details: [
        ...(holdFailure ? failureDetails(holdFailure) : []),
        'A ban follows repeated requests after a rate limit. Nothing needs to be done: it ends by itself.',
      ],
    });
  } else if (
    hold.kind === 'limited' &&
    // A 429's hold of a few seconds is waited out by the requests themselves (and a burst of them
    // made the notice come and go every second, the list jumping with it): the meter says it.
    !(
      (hold.reason === 'server-429' || hold.reason === 'gateway-429') &&
      hold.until - now <= MAX_INLINE_WAIT_MS
    )
  ) {
    notices.push({
      kind: 'rate-limited',
      environment,
      tone: 'warning',
      title: 'Requests paused.',
      sentence: `Requests to ${label} are paused until ${formatMomentWithSeconds(hold.until, now)}. ${HOLD_SENTENCES[hold.reason]}`,
      until: hold.until,
      holdReason: hold.reason,
      action: 'try-now',
      details: [
        ...(holdFailure ? failureDetails(holdFailure) : []),
        describeLimitReason(hold.reason),
        // A gateway's pace is not the key's quota: no ban follows from it.
        ...(hold.reason === 'gateway-429' ? [] : [BAN_WARNING]),
      ],
    });
  }

  const bulkKeyPause =
    input.bulkJob?.status === 'paused' && input.bulkJob.pauseReason === 'key'
      ? input.bulkJob
      : undefined;
  if (input.keyStatus?.problem === 'other-address') {
    // Nothing is sent with the key until the clerk confirms the new address: it stops every
    // request, as a missing key would, and the 'no-key' failure it causes says nothing more.
    if (!input.keySettingsShown) {
      notices.push({
        kind: 'key-other-address',
        environment,
        tone: 'error',
        title: 'Key not sent.',
        sentence:
          input.keyStatus.notice ??
          `The ${label} key was entered for another address. Confirm the new address or enter the key again in Settings.`,
        action: 'open-settings',
        details: [],
      });
    }
  } else if (notSetUp) {
    // Said once, as the neutral prompt above (or on the Settings screen itself).
  } else if (keyFailure?.kind === 'no-key') {
    notices.push({
      kind: 'no-key',
      environment,
      tone: 'error',
      title: 'No API key.',
      sentence: `No API key is set for ${label}, so nothing can be sent to it. Add one in Settings.`,
      ...(environment === 'sandbox' ? {} : { action: 'open-settings' as const }),
      details: [],
    });
  } else if (keyFailure || bulkKeyPause) {
    notices.push({
      kind: 'key-refused',
      environment,
      tone: 'error',
      title: 'Key refused.',
      sentence:
        environment === 'sandbox'
          ? 'The sandbox did not accept its demo key. Restart Store Admin to start the sandbox again.'
          : `The service did not accept the ${label} API key. Enter a valid key in Settings.`,
      ...(environment === 'sandbox' ? {} : { action: 'open-settings' as const }),
      details: keyFailure ? failureDetails(keyFailure) : [],
    });
  }

  if (offline) {
    const list = input.orders?.list;
    const connectivityMessage = input.connectivity?.message;
    const webPage = input.connectivity?.cause === 'web-page';
    // The list's time is the status bar's to say, under the list it belongs to: said once.
    const review =
      'Search, filters, review marks and exports work; cancelling waits until the service answers.';
    notices.push({
      kind: 'unreachable',
      environment,
      tone: 'warning',
      title: list ? 'Offline review.' : `${label} cannot be reached.`,
      sentence: webPage
        ? // Something on the network answers for the service: the clerk's way out is a browser.
          `The ${label} address answered with a web page, not the store service: perhaps this network’s sign-in page. Sign in to the network in a browser, then retry.${
            list ? ` The list shown is the last one saved. ${review}` : ''
          }`
        : list
          ? `${label} cannot be reached, so the list shown is the last one saved. ${review}`
          : `Store Admin could not reach the ${label} service, and no list of its orders is saved on this computer yet.`,
      action: 'retry',
      // The web page's sentence already says what the message would.
      details: connectivityMessage && !webPage ? [connectivityMessage] : [],
    });
  }

  // A refresh that failed for a reason none of the above already says.
  if (
    loadFailure &&
    !(notSetUp && SETUP_KINDS.has(loadFailure.kind)) &&
    !KEY_KINDS.has(loadFailure.kind) &&
    !HOLD_KINDS.has(loadFailure.kind) &&
    !(offline && NO_ANSWER_KINDS.has(loadFailure.kind))
  ) {
    const { plain } = splitServiceWords(loadFailure.message);
    notices.push({
      kind: 'refresh-failed',
      environment,
      tone: 'error',
      title: 'Not refreshed.',
      sentence: plain,
      action: failureNeedsSettings(loadFailure, environment, input.hasBaseUrl)
        ? 'open-settings'
        : 'retry',
      details: failureDetails(loadFailure),
    });
  }

  // Last: the work goes on (from memory), only what changes now will not outlast the app.
  if (input.storageProblem) {
    notices.push({
      kind: 'storage',
      environment,
      tone: 'warning',
      title: 'Not saving.',
      sentence: input.storageProblem.message,
      details: [
        input.storageProblem.detail ?? `The system's error code: ${input.storageProblem.code}`,
      ],
    });
  }
  const deprecation = deprecationNotice(input.deprecations ?? [], environment, now);
  if (deprecation) notices.push(deprecation);
  return notices;
}

/**
 * The service's deprecation notices as one notice: the soonest in its
 * sentence, the others behind Details; "Read more" opens the link the
 * service gave (main opens it), and Dismiss puts them all away.
 */
function deprecationNotice(
  deprecations: readonly DeprecationNotice[],
  environment: EnvironmentId,
  now: number,
): Notice | undefined {
  const [first, ...others] = deprecations;
  if (!first) return undefined;
  const linked = deprecations.find((notice) => notice.link !== undefined);
  const ordered = linked ? [linked, ...deprecations.filter((n) => n !== linked)] : deprecations;
  return {
    kind: 'deprecation',
    environment,
    tone: 'warning',
    title: 'Service change.',
    sentence: deprecationSentence(first, now),
    ...(linked ? { action: 'read-more' as const } : {}),
    details: [
      ...others.map((notice) => deprecationSentence(notice, now)),
      ...(linked ? [`The service’s notice: ${linked.link}`] : []),
    ],
    endpoints: ordered.map((notice) => notice.endpoint),
  };
}
