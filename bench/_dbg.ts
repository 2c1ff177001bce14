import { benchGrids } from './grids.ts';
import { print } from './report.ts';
const r = await benchGrids(Number(process.argv[2] ?? 20000), '/tmp/peers-dbg');
print(r.lines);
