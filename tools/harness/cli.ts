// npm run harness: the renderer in any browser, against the real main-process
// services and a sandbox on loopback. Development only.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandbox } from '../../src/main/sandbox/server.ts';
import { SANDBOX_DEMO_KEY } from '../../src/shared/environments.ts';
import { startHarness } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    orders: { type: 'string', default: '1000' },
    'data-dir': { type: 'string' },
  },
});

const sandbox = await startSandbox({ port: 0, orders: Number(values.orders) });
const harness = await startHarness({
  port: Number(values.port),
  dataDir: values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'store-admin-harness-')),
  sandbox: { baseUrl: sandbox.baseUrl, key: SANDBOX_DEMO_KEY },
});
console.log(`Store Admin harness: open ${harness.url}`);
console.log(`Sandbox: ${sandbox.baseUrl} (key ${SANDBOX_DEMO_KEY})`);
const stop = async (): Promise<void> => {
  await harness.close();
  await sandbox.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
