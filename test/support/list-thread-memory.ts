// Run as a process of its own by list-scanner-thread.spec.ts (its memory is
// the process's alone): reads the same list on the scanner's thread again and
// again, main collecting its garbage after each as it does in the app, and
// prints the resident memory after the first two lists and after the rest.
// Arguments: how many lists after the first two, and how many orders each.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ListScannerThread } from '../../src/main/store-api/list-scanner-thread.ts';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const items: string[] = [];
const orders = Number(process.argv[3] ?? 400_000);
for (let i = 0; i < orders; i++) {
  items.push(
    `{"id":${i + 1},"petId":${i * 3},"quantity":${i % 5},"shipDate":"2026-01-0${(i % 9) + 1}T10:00:00Z","complete":false}`,
  );
}
const bytes = new TextEncoder().encode(`[${items.join(',')}]`);

async function readOnce(): Promise<void> {
  const reader = new ListScannerThread(bytes.length);
  for (let at = 0; at < bytes.length; at += 64 * 1024)
    await reader.push(bytes.subarray(at, at + 64 * 1024));
  await reader.finish();
  reader.close();
  collect();
  // The thread collects its own once the list is handed over.
  await new Promise((resolve) => setTimeout(resolve, 20));
}

const megabytes = () => process.memoryUsage().rss / 1e6;
await readOnce();
await readOnce();
const before = megabytes();
const lists = Number(process.argv[2] ?? 6);
for (let i = 0; i < lists; i++) await readOnce();
console.log(JSON.stringify({ before, after: megabytes(), listBytes: bytes.length }));
