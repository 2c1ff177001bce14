// npm run bench: every figure is a ratio against a baseline measured in the
// same run, on this machine, now. Set BENCH_ORDERS to change the list size.

import { benchMainList } from './main-list.ts';
import { benchPacing } from './pacing.ts';
import { print, type BenchLine } from './report.ts';

const orders = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const lines: BenchLine[] = [];
console.log(`Store Admin benchmarks: ${orders.toLocaleString('en')} orders, median of ${rounds} rounds, Node ${process.version}\n`);
lines.push(...(await benchMainList(orders, rounds, false)));
lines.push(...(await benchMainList(orders, rounds, true)));
lines.push(...(await benchPacing(Number(process.env.BENCH_CANCELS ?? 300))));
const ok = print(lines);
process.exitCode = ok ? 0 : 1;
