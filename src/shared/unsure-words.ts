// Why a request that left may or may not have been acted on, in one set of
// words for the command line (src/main/store-api/client.ts builds its
// messages with them) and the app (the renderer's cancel outcome): what
// came back, or did not, and from whom. A page from something between this
// computer and the service (a gateway's 502, a proxy's 504) is said to be
// that, not the store service's answer.

/** What left a request's outcome unknown: the first thing that did, for the tries of one call. */
export type Unsure =
  /** It was sent, and the connection ended before an answer came. */
  | { readonly why: 'no-answer' }
  /** It was sent, and no answer came in time. */
  | { readonly why: 'timeout' }
  /**
   * An answer that does not say what was done (a 5xx, a CDN's 52x, a 2xx
   * other than the interface's). `between`: not the service's JSON, so from
   * the address or something between it and this computer (a gateway's page).
   */
  | { readonly why: 'status'; readonly status: number; readonly between: boolean }
  /** A web page where the service answers JSON (a network's sign-in page, say). */
  | { readonly why: 'web-page'; readonly status: number }
  | { readonly why: 'redirect'; readonly status?: number }
  /** An earlier try of this cancel went out and its answer was lost (a crash, a cut connection). */
  | { readonly why: 'earlier-try' }
  /** Stopped after it was sent. */
  | { readonly why: 'stopped' };

/** Where a request went, in the words of the front end that says it. */
export interface UnsurePlace {
  /** The app: "Staging"; the command line: "the store service at api.example.com". */
  readonly service: string;
  /** The app: "the Staging address"; the command line: "the address api.example.com". */
  readonly address: string;
}

/** The command line's (and main's) words for a service at `host`. */
export function hostPlace(host: string): UnsurePlace {
  return { service: `the store service at ${host}`, address: `the address ${host}` };
}

/** The app's words for an environment labelled `label` ("Staging"). */
export function environmentPlace(label: string): UnsurePlace {
  return { service: label, address: `the ${label} address` };
}

const STATUS_NAMES: Readonly<Record<number, string>> = {
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** "502 Bad Gateway", or the number alone when it has no common name. */
export function statusName(status: number): string {
  const name = STATUS_NAMES[status];
  return name ? `${status} ${name}` : String(status);
}

/** "the address api.example.com (or something between it and this computer)" */
export function betweenWords(place: UnsurePlace): string {
  return `${place.address} (or something between it and this computer)`;
}

/**
 * What happened to `subject` ("the request", "the first try"), as a clause:
 * "the request was sent, but the connection ended before Staging answered".
 */
export function unsureWords(unsure: Unsure, place: UnsurePlace, subject = 'the request'): string {
  switch (unsure.why) {
    case 'no-answer':
      return `${subject} was sent, but the connection ended before ${place.service} answered`;
    case 'timeout':
      return `${subject} was sent, but ${place.service} did not answer in time`;
    case 'status':
      return unsure.between
        ? `${betweenWords(place)} answered ${subject} with ${statusName(unsure.status)}, which does not say whether it was done`
        : `${place.service} answered ${subject} with ${statusName(unsure.status)}, which does not say whether it was done`;
    case 'web-page':
      return `${place.address} answered ${subject} with a web page, not the store service`;
    case 'redirect':
      return `${place.service} answered ${subject} with a redirect instead of saying whether it was done`;
    case 'earlier-try':
      return 'an earlier try was sent and its answer was lost';
    case 'stopped':
      return `${subject} was stopped after it was sent`;
  }
}

/** Said after "may or may not have been cancelled": how to find out, and that cancelling again is safe. */
export function checkAgainWords(orderId: string): string {
  return `Refresh the list to check: if order ${orderId} is still in it, cancel it again.`;
}

/** "Order 7 may or may not have been cancelled: …. Refresh the list to check: …" */
export function unsureCancelWords(orderId: string, unsure: Unsure, place: UnsurePlace): string {
  return `Order ${orderId} may or may not have been cancelled: ${unsureWords(unsure, place)}. ${checkAgainWords(orderId)}`;
}
