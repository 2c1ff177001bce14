// A clerk's day in the built app: cycle after cycle of a refresh of a large
// list that changes as it would (the sandbox's churn), a search typed and
// cleared, a sort, an order's details opened and closed, and a switch to
// another environment and back. What grows over the day is what the app
// keeps that it no longer needs: each figure is the last cycle against the
// 10th (the app warmed up, its caches full), measured in the same run.
// Memory is read after collecting garbage (the renderer's heap and array
// buffers through the DevTools protocol, the page's DOM nodes, main's
// resident memory); times are the median of five cycles around each.
//
// The sandbox runs in a process of its own, so that main's memory is the
// app's (the harness runs main's services in this process) and not the
// sandbox's history of its churn.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CDPSession, Page } from 'playwright-core';
import { startHarness } from '../tools/harness/harness.ts';
import { bytesInUse } from './memory.ts';
import { rendererBytes, SETTLED, timedRefresh, untilRowCountChanges } from './renderer.ts';
import { mb, median, ms, type BenchLine } from './report.ts';

const ROOT = resolve(import.meta.dirname, '..');
const KEY = 'demo-enterprise';
/** The cycle the others are compared with: the app has warmed up (its code optimised, its caches full). */
const BASE_CYCLE = 10;
/**
 * Each figure is the median of the readings of this many cycles, ending at
 * the one named: the machine's other work moves a single reading (a refresh
 * by half, main's resident memory by a tenth) more than a day does.
 */
const SPAN = 5;
/** The cycles a figure is read from. */
const windowOf = (cycle: number) => Array.from({ length: SPAN }, (_, i) => cycle - SPAN + 1 + i);
/** Cycles whose memory is read (a reading collects garbage, which a day does not do every minute). */
const memoryCycles = (cycles: number) =>
  new Set([1, ...windowOf(BASE_CYCLE), 20, 30, ...windowOf(cycles)].filter((c) => c <= cycles));
/** The whole run gives up past this (a step that never ends must not hold the bench for ever). */
const DEADLINE_MS = 15 * 60_000;

interface Cycle {
  readonly cycle: number;
  readonly refreshMs: number;
  /** CPU time of a refresh: main's process (its threads included) and the page's main thread. */
  readonly refreshCpuMs: number;
  readonly keystrokeMs: number;
  /** Read at the cycles of `memoryCycles` only. */
  readonly memory?: {
    readonly rendererBytes: number;
    readonly domNodes: number;
    readonly listeners: number;
    readonly mainRss: number;
    readonly mainBytes: number;
    /** Orders in the list when it was read. */
    readonly orders: number;
  };
  readonly orders: number;
}

/** The sandbox's command line in a process of its own; its address once it listens. */
export async function startSandboxProcess(
  orders: number,
  churnSeconds: number,
): Promise<{ baseUrl: string; child: ChildProcess }> {
  const child = spawn(
    join(ROOT, 'node_modules', '.bin', 'node'),
    [
      join(ROOT, 'src', 'main', 'sandbox', 'cli.ts'),
      '--port',
      '0',
      '--orders',
      String(orders),
      '--churn',
      String(churnSeconds),
      '--enterprise-limits',
      '100000/10000000',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const baseUrl = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('the sandbox did not start in 60 s')), 60_000);
    child.once('exit', (code) => fail(new Error(`the sandbox exited (${code}) before listening`)));
    lines.on('line', (line) => {
      const address = /listening at (\S+)/.exec(line)?.[1];
      if (!address) return;
      clearTimeout(timer);
      done(address);
    });
  });
  return { baseUrl, child };
}

export async function waitUntil(page: Page, condition: string, what: string): Promise<void> {
  const ok = await page.evaluate<boolean>(`(async () => {
    const deadline = performance.now() + 120000;
    while (performance.now() < deadline) {
      if (${condition}) return true;
      await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    }
    return false;
  })()`);
  if (!ok) throw new Error(`the page did not show ${what} in 120 s`);
}

const setSearch = (value: string) => `
  const input = document.querySelector('input[type="search"]');
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  set.call(input, ${JSON.stringify(value)}); input.dispatchEvent(new Event('input', { bubbles: true }));`;

const SORTS = ['Pet ID', 'Ship date', 'Quantity', 'Order ID'];
/** A keystroke's time is a few ms: three of them a cycle. */
const QUERIES = ['4242', '4343', '4444'];

/** One cycle of the clerk's day; its refresh's and keystroke's times. */
export async function dayCycle(
  page: Page,
  cdp: CDPSession,
  cycle: number,
): Promise<{ refreshMs: number; refreshCpuMs: number; keystrokeMs: number }> {
  const mainBefore = process.cpuUsage();
  const pageBefore = await pageTaskSeconds(cdp);
  const refreshMs = await page.evaluate<number>(timedRefresh);
  if (!Number.isFinite(refreshMs)) throw new Error(`cycle ${cycle}: the refresh did not end`);
  const main = process.cpuUsage(mainBefore);
  const refreshCpuMs =
    (main.user + main.system) / 1000 + ((await pageTaskSeconds(cdp)) - pageBefore) * 1000;
  // Fresh queries, each typed on the whole list, to its rows in the page, then cleared: the median.
  const keystrokes: number[] = [];
  for (const query of QUERIES) {
    keystrokes.push(await page.evaluate<number>(untilRowCountChanges(setSearch(query))));
    await page.evaluate(untilRowCountChanges(setSearch('')));
  }
  const keystrokeMs = median(keystrokes);
  // A sort (a column after another, as the day goes).
  await page
    .getByRole('columnheader')
    .getByRole('button', { name: SORTS[cycle % SORTS.length]! })
    .click();
  // An order's details, opened by a click on a row in view and closed (after a sort the list
  // shows where the sort put the order selected before, not always its top).
  const inView = await page.evaluate(() => {
    const head = document.querySelector('.orders-grid-head')!.getBoundingClientRect();
    const cells = [...document.querySelectorAll('[role="grid"] [role="row"] [role="rowheader"]')];
    const cell = cells.find((candidate) => candidate.getBoundingClientRect().top >= head.bottom);
    const box = cell!.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  });
  await page.mouse.click(inView.x, inView.y);
  await page.getByRole('button', { name: 'Close order details' }).click();
  // Another environment and back: the screen goes and comes again.
  await page.getByRole('radio', { name: 'Staging' }).click();
  await page.getByText('Staging is not set up yet.').waitFor();
  await page.getByRole('radio', { name: 'Sandbox' }).click();
  await waitUntil(page, SETTLED, 'the sandbox list again');
  return { refreshMs, refreshCpuMs, keystrokeMs };
}

/** The page's main thread's busy time so far (Chromium's TaskDuration), in seconds. */
async function pageTaskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? Number.NaN;
}

// V8's collector, also when Node was started without --expose-gc (bench/memory.ts sets the flag).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as (options?: object) => void;

/**
 * Main's resident memory once V8 has given back what it can: a last-resort
 * collection also shrinks the room the heap keeps for what it will allocate
 * next, which a busy day grows in steps (the young generation by tens of MB
 * at once) and an ordinary collection leaves resident.
 */
function mainResident(): number {
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return process.memoryUsage.rss();
}

async function memoryNow(cdp: CDPSession): Promise<Omit<NonNullable<Cycle['memory']>, 'orders'>> {
  const renderer = await rendererBytes(cdp);
  const dom = await cdp.send('Memory.getDOMCounters');
  const mainBytes = await bytesInUse();
  return {
    rendererBytes: renderer,
    domNodes: dom.nodes,
    listeners: dom.jsEventListeners,
    mainRss: mainResident(),
    mainBytes,
  };
}

/** The day: `cycles` cycles of `orders` orders, the sandbox churning every `churnSeconds`. */
export async function benchDay(
  orders: number,
  cycles: number,
  churnSeconds: number,
): Promise<BenchLine[]> {
  if (cycles < BASE_CYCLE + SPAN)
    throw new Error(`the day needs at least ${BASE_CYCLE + SPAN} cycles`);
  const started = performance.now();
  const sandbox = await startSandboxProcess(orders, churnSeconds);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-day-'));
  const harness = await startHarness({
    dataDir,
    sandbox: { baseUrl: sandbox.baseUrl, key: KEY },
    viewport: { width: 1280, height: 800 },
  }).catch((error: unknown) => {
    sandbox.child.kill();
    throw error;
  });
  const { page } = harness;
  const cdp = await page.context().newCDPSession(page);
  const log: Cycle[] = [];
  try {
    await cdp.send('Performance.enable');
    await waitUntil(page, SETTLED, 'the first list');
    const measured = memoryCycles(cycles);
    for (let cycle = 1; cycle <= cycles; cycle++) {
      if (performance.now() - started > DEADLINE_MS)
        throw new Error(`the day did not end in ${DEADLINE_MS / 60_000} minutes (cycle ${cycle})`);
      const times = await dayCycle(page, cdp, cycle);
      const count = await page.evaluate<number>(
        `Number(document.querySelector('[role="grid"]').getAttribute('aria-rowcount')) - 1`,
      );
      const memory = measured.has(cycle) ? { ...(await memoryNow(cdp)), orders: count } : undefined;
      log.push({ cycle, ...times, orders: count, ...(memory ? { memory } : {}) });
      // The day as it goes, at the cycles whose memory is read.
      if (memory)
        console.log(
          `day: cycle ${cycle}: ${count.toLocaleString('en')} orders; renderer ${mb(memory.rendererBytes)} (${(memory.rendererBytes / count).toFixed(1)} B an order), ${memory.domNodes} DOM nodes, ${memory.listeners} listeners; main ${mb(memory.mainRss)} resident, ${mb(memory.mainBytes)} heap and buffers; refresh ${ms(times.refreshMs)} (CPU ${ms(times.refreshCpuMs)}), keystroke ${ms(times.keystrokeMs)}`,
        );
    }
  } finally {
    await cdp.detach().catch(() => undefined);
    await harness.close();
    sandbox.child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return dayLines(log, orders, churnSeconds);
}

function dayLines(log: readonly Cycle[], orders: number, churnSeconds: number): BenchLine[] {
  const at = (cycle: number) => log[cycle - 1]!;
  const last = log.length;
  const memoryAt = (cycle: number) => at(cycle).memory!;
  const around = <T>(cycle: number, from: (cycle: number) => T, pick: (item: T) => number) =>
    median(windowOf(cycle).map((c) => pick(from(c))));
  const label = `day (Chromium, harness): ${last} cycles of ${orders.toLocaleString('en')} orders, churn every ${churnSeconds} s`;
  const span = (cycle: number) => `${cycle - SPAN + 1}-${cycle}`;
  const line = <T>(
    what: string,
    name: string,
    from: (cycle: number) => T,
    pick: (item: T) => number,
    show: (value: number) => string,
    unit: 'bytes' | 'count' | 'ms',
    bounded: boolean,
  ): BenchLine => {
    const baseline = around(BASE_CYCLE, from, pick);
    const value = around(last, from, pick);
    return {
      name: `${label}: ${what}, cycles ${span(last)} against ${span(BASE_CYCLE)} (cycle 1: ${show(pick(from(1)))}, ${BASE_CYCLE}: ${show(pick(from(BASE_CYCLE)))}, ${last}: ${show(pick(from(last)))})`,
      value: show(value),
      figure: { name, value, unit, baseline },
      ratio: value / baseline,
      ...(bounded ? { limit: 1.1 } : {}),
    };
  };
  const count = (value: number) => value.toLocaleString('en');
  type Memory = NonNullable<Cycle['memory']>;
  return [
    // Per order: the list grows a little with the churn, and what the renderer holds is mostly the list.
    line<Memory>(
      'renderer heap and array buffers after GC, per order in the list',
      'day.renderer.bytesPerOrder.ratio',
      memoryAt,
      (m) => m.rendererBytes / m.orders,
      (value) => `${value.toFixed(1)} B`,
      'bytes',
      true,
    ),
    line<Memory>(
      'DOM nodes after GC',
      'day.dom.nodes.ratio',
      memoryAt,
      (m) => m.domNodes,
      count,
      'count',
      true,
    ),
    line<Memory>(
      "main's resident memory after a last-resort GC",
      'day.main.rss.ratio',
      memoryAt,
      (m) => m.mainRss,
      mb,
      'bytes',
      true,
    ),
    line<Cycle>(
      'a refresh, click to the whole list shown',
      'day.refresh.ratio',
      at,
      (c) => c.refreshMs,
      ms,
      'ms',
      true,
    ),
    line<Cycle>(
      'a keystroke (a fresh query on the whole list) to its rows, the median of three',
      'day.keystroke.ratio',
      at,
      (c) => c.keystrokeMs,
      ms,
      'ms',
      true,
    ),
    line<Cycle>(
      "a refresh's CPU time, main's process and the page's main thread",
      'day.refresh.cpu.ratio',
      at,
      (c) => c.refreshCpuMs,
      ms,
      'ms',
      false,
    ),
    line<Memory>(
      "the page's event listeners after GC",
      'day.listeners.ratio',
      memoryAt,
      (m) => m.listeners,
      count,
      'count',
      false,
    ),
    line<Memory>(
      "main's heap and buffers after GC",
      'day.main.bytes.ratio',
      memoryAt,
      (m) => m.mainBytes,
      mb,
      'bytes',
      false,
    ),
    {
      name: `${label}: orders in the list at the last cycle (cycle 1: ${count(at(1).orders)})`,
      value: count(at(last).orders),
      figure: { name: 'day.orders', value: at(last).orders, unit: 'count' },
    },
  ];
}
