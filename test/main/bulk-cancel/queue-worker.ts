// A bulk cancel in its own process, for the kill-and-restart test: loads the
// journal (resuming a job it finds) or starts one, and runs to the end.
// Env: SANDBOX_URL, DATA_DIR, IDS (comma-separated), KEY.

import { BulkJournal } from '../../../src/main/bulk-cancel/journal.ts';
import { serviceScope } from '../../../src/main/environments/service-scope.ts';
import { BulkCancelQueue } from '../../../src/main/bulk-cancel/queue.ts';
import { realTiming } from '../../../src/main/store-api/clock.ts';
import { RequestGate } from '../../../src/main/quota/gate.ts';
import { RetryBudget } from '../../../src/main/store-api/retry-budget.ts';
import { StoreClient } from '../../../src/main/store-api/client.ts';

const env = process.env as Record<string, string>;
const client = new StoreClient({
  baseUrl: env.SANDBOX_URL!,
  getKey: () => env.KEY,
  gate: new RequestGate({ timing: realTiming }),
  budget: new RetryBudget(Date.now),
});
const queue = new BulkCancelQueue({
  environment: 'staging',
  journal: new BulkJournal(env.DATA_DIR!, serviceScope('staging', env.SANDBOX_URL)),
  client: async () => client,
  timing: realTiming,
  concurrency: 3,
});
await queue.load();
if (!queue.snapshot()) await queue.start(env.IDS!.split(','));
await queue.idle();
process.stdout.write(`${JSON.stringify(queue.snapshot())}\n`);
