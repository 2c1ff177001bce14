import { reasonWords, storageErrorCode } from '../main/local-data/storage-health.ts';
import { runCli } from './run.ts';

// Whatever the commands did not foresee is still one sentence, never a stack trace.
try {
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    stderrIsTty: process.stderr.isTTY === true,
  });
} catch (error) {
  const path = (error as NodeJS.ErrnoException | undefined)?.path;
  process.stderr.write(
    storageErrorCode(error) !== undefined && path
      ? `store-admin: cannot write ${path} because ${reasonWords(error)}. Set STORE_ADMIN_DATA_DIR (or STORE_ADMIN_CACHE_DIR) to a folder Store Admin can write.\n`
      : `store-admin: something went wrong inside Store Admin (${error instanceof Error ? error.name : typeof error}). Nothing more was sent.\n`,
  );
  process.exitCode = 1;
}
