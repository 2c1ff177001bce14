// Runs the real store-admin command (bin/store-admin.js) as its own process,
// as a shell or a script would, and gathers what it printed and its exit code.

import { execFile } from 'node:child_process';

export interface CliRun {
  readonly code: number;
  /** Wall time of the run, for the record. */
  readonly ms: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** One run, with `env` added to this process's environment; killed past `timeoutMs`. */
export function runCliProcess(
  args: readonly string[],
  env: Record<string, string | undefined>,
  timeoutMs = 30_000,
): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/store-admin.js', ...args],
      { env: { ...process.env, ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? -1) : 0;
        resolve({
          code: Number.isInteger(code) ? code : -1,
          ms: Date.now() - started,
          stdout,
          stderr,
        });
      },
    );
  });
}
