// npm run bench: every figure is a ratio against a baseline measured in the
// same run, on this machine, now, or a bound the issues set. Set BENCH_ORDERS
// to change the list size. The renderer figures need the built app (npm run
// build) and Debian's chromium. `npm run bench -- --json FILE` also writes
// every figure to FILE as data.

import { parseArgs } from 'node:util';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchBundle } from './bundle.ts';
import { benchChangesDiff } from './changes-diff.ts';
import { benchDay } from './day.ts';
import { benchGrids } from './grids.ts';
import { benchMainList } from './main-list.ts';
import { benchPacing } from './pacing.ts';
import { benchScaling, benchStream } from './renderer.ts';
import { benchSortFromScratch } from './sort.ts';
import { hasChromium } from '../tools/browser/chromium.ts';
import { print, writeJson, type BenchLine } from './report.ts';

const { values: options } = parseArgs({
  options: { json: { type: 'string' }, only: { type: 'string', multiple: true } },
});
/** `--only main --only stream …`: a part of the run, while working on it (the figures to report come from a whole run). */
const wanted = (part: string) => !options.only || options.only.includes(part);

const orders = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
// Main's figures swing by a tenth from round to round on this machine: at least seven.
const MAIN_ROUNDS = Math.max(rounds, 7);
const lines: BenchLine[] = [];
console.log(
  `Store Admin benchmarks: ${orders.toLocaleString('en')} orders, median of ${rounds} rounds (main's: of ${MAIN_ROUNDS}), Node ${process.version}\n`,
);
if (wanted('main')) {
  lines.push(...(await benchMainList(orders, MAIN_ROUNDS, false)));
  lines.push(...(await benchMainList(orders, MAIN_ROUNDS, true)));
}
if (wanted('bundle')) lines.push(...benchBundle());
if (wanted('changes')) lines.push(...(await benchChangesDiff(orders, Math.max(rounds, 5))));
if (wanted('sort')) lines.push(...(await benchSortFromScratch(orders, Math.max(rounds, 5))));
if (wanted('pacing')) lines.push(...(await benchPacing(Number(process.env.BENCH_CANCELS ?? 300))));
if (hasChromium) {
  if (wanted('grids')) {
    const screens = join(tmpdir(), 'store-admin-bench');
    mkdirSync(screens, { recursive: true });
    const grids = await benchGrids(orders, screens);
    lines.push(...grids.lines);
    for (const [grid, path] of Object.entries(grids.screenshots))
      console.log(`mid-scroll at 600 px a frame, ${grid}: ${path}`);
  }
  if (wanted('stream')) lines.push(...(await benchStream(orders, 50)));
  // BENCH_SCALING=10000,100000: other sizes for the scaling table (the largest is scrolled to its end).
  const sizes = (process.env.BENCH_SCALING ?? '10000,100000,1000000,3000000')
    .split(',')
    .map(Number);
  if (wanted('scaling')) lines.push(...(await benchScaling(sizes)));
  // A clerk's day (BENCH_DAY_CYCLES cycles of BENCH_DAY_ORDERS orders, the list churning).
  if (wanted('day'))
    lines.push(
      ...(await benchDay(
        Number(process.env.BENCH_DAY_ORDERS ?? 200_000),
        Number(process.env.BENCH_DAY_CYCLES ?? 40),
        10,
      )),
    );
} else
  console.log(
    "(renderer figures skipped: Debian's chromium is not installed at /usr/bin/chromium)",
  );
const ok = print(lines);
if (options.json) writeJson(options.json, lines);
process.exitCode = ok ? 0 : 1;
