// Option parsing shared by every store-admin command: node's parseArgs, with
// its complaints turned into a UsageError the commands report with exit code 2.

import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * parseArgs's own messages run over several lines and leave a quote open
 * ("as in '-- "--x""); say the same in one plain sentence.
 */
function plainWords(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const text = String(message ?? error);
  const option = /'(-[^'\s]*)'/.exec(text)?.[1] ?? 'an option';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option} (to give a value that starts with a dash, put it after --)`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return text.includes('does not take an argument')
        ? `${option} does not take a value`
        : `${option} needs a value (write ${option}=VALUE for one that starts with a dash)`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return 'unexpected argument';
    default:
      return text.split('\n')[0]!.replaceAll("'", '');
  }
}

export function parseCommandLine<O extends Options>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
  } catch (error) {
    throw new UsageError(plainWords(error));
  }
}

/** Whether argv is a `domain ...` command, which src/cli/domain-commands.ts runs. */
export function isDomainCommand(argv: readonly string[]): boolean {
  return argv[0] === 'domain';
}
