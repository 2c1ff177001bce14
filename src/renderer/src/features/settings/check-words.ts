// What one request to an environment's service came to, in Settings' own
// words: the key's check after a save, and the connection test. The clerk is
// in Settings already, so no sentence sends them there; a status code and the
// service's own words go under Details, never into the sentence.

import type { Failure, FailureKind } from '../../../../shared/failures.ts';

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
