// Asking the clerk whether a key may go to a new address. Main owns the
// question (Electron's native dialog in the app, anything else in the harness
// and tests); the renderer can only ask main to put it. Its words are here,
// plain Node, so they are tested without Electron.

import { ENVIRONMENT_LABELS } from '../../shared/environments.ts';
import type { KeyEnvironment } from '../../shared/key-status.ts';
import { originNames } from './key-origin.ts';

export interface OriginQuestion {
  readonly environment: KeyEnvironment;
  /** The origin the key is bound to now. */
  readonly from: string;
  /** The origin of the environment's new address. */
  readonly to: string;
}

/** Resolves true only when the clerk said the key may go to `to`. */
export type ConfirmKeyForOrigin = (question: OriginQuestion) => Promise<boolean>;

/** Nobody to ask (no window): the key stays where it was. */
export const declineKeyForOrigin: ConfirmKeyForOrigin = async () => false;

export interface OriginQuestionText {
  readonly title: string;
  readonly message: string;
  readonly detail: string;
  /** Refuse first: it is the default and what Escape answers. */
  readonly buttons: readonly [refuse: string, allow: string];
}

export function originQuestionText(question: OriginQuestion): OriginQuestionText {
  const label = ENVIRONMENT_LABELS[question.environment];
  const { from, to } = originNames(question.from, question.to);
  return {
    title: `Send the ${label} key to ${to}?`,
    message: `The ${label} API key was entered for ${from}. The ${label} address now points to ${to}.`,
    detail: `Anyone at ${to} who receives the key can use it. Send it only if ${to} is your ${label} store service. Otherwise, change the address back in Settings.`,
    buttons: ['Don’t send the key', `Send the key to ${to}`],
  };
}
