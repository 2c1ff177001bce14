// Checks and routes one call from a renderer: the channel must be in the
// contract and the arguments must match its schema, or nothing runs. Every
// outcome becomes a Result; an unexpected error is reported in plain words
// without its details (which could hold anything).

import { argumentSchemas, type Channel } from '../../shared/ipc-contract.ts';
import type { Failure } from '../../shared/failures.ts';
import { fail, ok, type Result } from '../../shared/result.ts';
import { DomainInputError } from '../domains/domain-name.ts';
import { InvalidKeyError } from '../keys/key-validation.ts';
import { isStoreApiError } from '../store-api/client.ts';
import type { Handlers } from './handlers.ts';

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(argumentSchemas, name);
}

function invalid(message: string): Failure {
  return { kind: 'invalid-input', message, delivery: 'not-sent' };
}

export async function dispatch(
  handlers: Handlers,
  channel: unknown,
  args: unknown,
  log: (message: string) => void = console.error,
): Promise<Result<unknown>> {
  if (!isChannel(channel)) return fail(invalid('Store Admin received a request it does not know.'));
  const parsed = argumentSchemas[channel].safeParse(args);
  if (!parsed.success) {
    log(
      `IPC ${channel}: arguments rejected (${parsed.error.issues.map((i) => i.path.join('.') || 'arguments').join(', ')})`,
    );
    return fail(invalid('Store Admin received a request with details it cannot accept.'));
  }
  try {
    const handler = handlers[channel] as (...a: unknown[]) => Promise<unknown>;
    return ok(await handler(...(parsed.data as unknown[])));
  } catch (error) {
    if (isStoreApiError(error)) return fail(error.failure);
    if (error instanceof InvalidKeyError || error instanceof DomainInputError)
      return fail(invalid(error.message));
    // The error's text is not passed on or logged: it could hold request details.
    log(`IPC ${channel}: unexpected ${error instanceof Error ? error.name : typeof error}`);
    return fail({
      kind: 'internal',
      message: 'Something went wrong inside Store Admin. Please try again.',
      delivery: 'unknown',
    });
  }
}
