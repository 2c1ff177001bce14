import { writeFileSync } from 'node:fs';
import { openApp, waitSettled, waitSortsPrepared, untilRowCountChanges } from './renderer.ts';
const setSearch = (value: string) => `
  const input = document.querySelector('input[type="search"]');
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  set.call(input, ${JSON.stringify(value)}); input.dispatchEvent(new Event('input', { bubbles: true }));`;
const orders = Number(process.env.N ?? 1_000_000);
const app = await openApp(orders);
const { page, cdp, harness } = app;
try {
  await page.goto(harness.url);
  await waitSettled(page, orders);
  await waitSortsPrepared(page);
  await page.waitForTimeout(1000);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  const times: Record<string, number[]> = { fresh: [], extend: [] };
  for (let round = 0; round < 5; round++) {
    if (round === 4) await cdp.send('Profiler.start');
    times.fresh!.push(await page.evaluate<number>(untilRowCountChanges(setSearch('4242'))));
    await page.evaluate(untilRowCountChanges(setSearch('')));
    await page.evaluate(untilRowCountChanges(setSearch('42')));
    await page.waitForTimeout(300);
    times.extend!.push(await page.evaluate<number>(untilRowCountChanges(setSearch('421'))));
    await page.evaluate(untilRowCountChanges(setSearch('')));
  }
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync('/tmp/grid-search.cpuprofile', JSON.stringify(profile));
  console.log(JSON.stringify(times));
  // self time by function
  const self = new Map<string, number>();
  const dt = profile.timeDeltas ?? [];
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const samples = profile.samples ?? [];
  for (let i = 0; i < samples.length; i++) {
    const n = byId.get(samples[i]!)!;
    const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 30);
  for (const [k, v] of top) console.log(v.toFixed(1).padStart(8), k);
} finally {
  await app.close();
}
