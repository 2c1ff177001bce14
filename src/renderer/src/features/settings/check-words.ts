// What one request to an environment's service came to, in Settings' own
// words: the key's check after a save, and the connection test. The clerk is
// in Settings already, so no sentence sends them there; a status code and the
// service's own words go under Details, never into the sentence.

import { ENVIRONMENT_LABELS, type EnvironmentId } from '../../../../shared/environments.ts';
import type { Failure, FailureKind } from '../../../../shared/failures.ts';
import { failureDetails, splitServiceWords } from '../../service-words.ts';

export interface CheckFailureWords {
  readonly sentence: string;
  /** The technical lines, for a Details disclosure (may be empty). */
  readonly details: readonly string[];
}

/** The connection test's failure: what happened and what to do here. */
export function connectionFailureWords(
  failure: Failure,
  environment: EnvironmentId,
): CheckFailureWords {
  const label = ENVIRONMENT_LABELS[environment];
  const details = failureDetails(failure);
  switch (failure.kind) {
    case 'unauthorized':
      return {
        sentence:
          environment === 'sandbox'
            ? 'The Sandbox did not accept its own key. Restart Store Admin to start it again.'
            : `The service did not accept the ${label} API key. Enter the right key above.`,
        details,
      };
    case 'no-key':
      // A key kept for another address is "no key" here too; its own sentence says what to do.
      return failure.message.startsWith('No API key is set')
        ? { sentence: `No API key is set for ${label} yet. Enter it above.`, details }
        : { sentence: withoutStatus(failure), details };
    case 'invalid-input':
      // The only input a test has is the environment's address.
      return { sentence: `Save the ${label} address above first.`, details };
    default:
      return { sentence: withoutStatus(failure), details };
  }
}

/** How a key's check went, in the words said after "Key saved for Staging.". */
export type KeyCheckVerdict = 'accepted' | 'refused' | 'unreachable' | 'paused' | 'unclear';

const UNREACHABLE: ReadonlySet<FailureKind> = new Set<FailureKind>(['network', 'timeout']);
const PAUSED: ReadonlySet<FailureKind> = new Set<FailureKind>(['rate-limited', 'banned']);

export function keyCheckVerdict(failure: Failure | undefined): KeyCheckVerdict {
  if (failure === undefined) return 'accepted';
  if (failure.kind === 'unauthorized') return 'refused';
  if (UNREACHABLE.has(failure.kind)) return 'unreachable';
  if (PAUSED.has(failure.kind)) return 'paused';
  return 'unclear';
}

/** What follows "Key saved for Staging." for each verdict. */
export const KEY_CHECK_WORDS: Readonly<Record<KeyCheckVerdict, string>> = {
  accepted: 'The service accepted it.',
  refused: 'The service did not accept it: check the key and enter it again.',
  unreachable: 'Not checked: the service could not be reached. Test the connection once it can.',
  paused: 'Not checked yet: requests to the service are paused for now.',
  unclear:
    'Not checked: the service did not answer as expected. Test the connection for the details.',
};

/** Main's sentence without the service's words and without the status code in brackets. */
function withoutStatus(failure: Failure): string {
  const { plain } = splitServiceWords(failure.message);
  return failure.status === undefined ? plain : plain.replace(` (${failure.status})`, '');
}
