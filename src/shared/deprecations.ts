// The service's deprecation notices as the app and the CLI say them: one per
// endpoint Store Admin calls and environment, in plain words with the date
// ("The store service will stop answering the order list on 30 June 2027.").

import type { EnvironmentId } from './environments.ts';
import { formatServiceDay } from './display-format.ts';

/** The operations of the interface Store Admin calls. */
export const STORE_ENDPOINTS = ['list-orders', 'cancel-order'] as const;
export type StoreEndpoint = (typeof STORE_ENDPOINTS)[number];

const ENDPOINT_WORDS: Readonly<
  Record<StoreEndpoint, { readonly stop: string; readonly thing: string; readonly stopIt: string }>
> = {
  'list-orders': {
    stop: 'stop answering the order list',
    thing: 'the order list',
    stopIt: 'stop answering it',
  },
  'cancel-order': {
    stop: 'stop accepting order cancels',
    thing: 'cancelling orders',
    stopIt: 'stop accepting cancels',
  },
};

export interface DeprecationNotice {
  readonly environment: EnvironmentId;
  readonly endpoint: StoreEndpoint;
  /** Epoch ms the service gave in Deprecation; undefined when it gave none. */
  readonly deprecatedAt?: number;
  /** Epoch ms the service gave in Sunset. */
  readonly sunsetAt?: number;
  /** Where the service says to read about it (https only). */
  readonly link?: string;
  /** When an answer first said so (epoch ms). */
  readonly seenAt: number;
}

/** "30 June 2027": the day the service named (its dates are UTC, as HTTP-dates are). */
export { formatServiceDay };

/** The notice in one sentence, for a clerk. */
export function deprecationSentence(notice: DeprecationNotice, now: number): string {
  const words = ENDPOINT_WORDS[notice.endpoint];
  const { sunsetAt, deprecatedAt } = notice;
  if (sunsetAt !== undefined) {
    return sunsetAt > now
      ? `The store service will ${words.stop} on ${formatServiceDay(sunsetAt)}.`
      : `The store service said it would ${words.stop} on ${formatServiceDay(sunsetAt)}, so it may ${words.stopIt} at any time.`;
  }
  if (deprecatedAt !== undefined && deprecatedAt > now)
    return `The store service will mark ${words.thing} as deprecated on ${formatServiceDay(deprecatedAt)}: it may ${words.stopIt} in a later version.`;
  return `The store service has marked ${words.thing} as deprecated${
    deprecatedAt !== undefined ? ` since ${formatServiceDay(deprecatedAt)}` : ''
  }: it may ${words.stopIt} in a later version.`;
}
