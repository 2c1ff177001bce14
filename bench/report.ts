// What a benchmark reports: a printed line per figure (its label, value and
// verdict), and the same figure as data for `--json FILE`.

import { writeFileSync } from 'node:fs';

/** A figure as data: `{ name, value, unit, baseline, ratio, bound }` in the JSON report. */
export interface Figure {
  /** Stable name, e.g. `main.list.ratio`. */
  readonly name: string;
  readonly value: number;
  readonly unit: 'ms' | 'us' | 'bytes' | 'count' | 'ratio' | 'requests';
  /** The baseline measured in the same run, in the same unit. */
  readonly baseline?: number;
  /** A bound on the value itself (a ratio's bound is `limit`). */
  readonly bound?: number;
}

export interface BenchLine {
  /** The printed label. */
  readonly name: string;
  /** The printed value. */
  readonly value: string;
  readonly figure: Figure;
  /** Against the baseline measured in the same run. */
  readonly ratio?: number;
  /** The ratio this figure must stay under (or, for `atLeast`, above). */
  readonly limit?: number;
  readonly atLeast?: boolean;
  /** A check that is not a ratio, e.g. "no 429 at all". */
  readonly check?: { readonly ok: boolean; readonly rule: string };
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
export const ms = (value: number): string => `${value.toFixed(0)} ms`;
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function print(lines: readonly BenchLine[]): boolean {
  let allOk = true;
  const width = Math.max(...lines.map((l) => l.name.length));
  for (const line of lines) {
    let verdict = '';
    if (line.ratio !== undefined) {
      const ok =
        line.limit === undefined ||
        (line.atLeast ? line.ratio >= line.limit : line.ratio <= line.limit);
      allOk &&= ok;
      const bound =
        line.limit === undefined
          ? ''
          : ` (${line.atLeast ? '>=' : '<='} ${line.limit}${line.atLeast ? '' : 'x'})`;
      verdict = `  ratio ${line.ratio.toFixed(2)}${line.atLeast ? '' : 'x'}${bound}${line.limit === undefined ? ' (no bound)' : ok ? ' ok' : ' OVER'}`;
    }
    if (line.check) {
      allOk &&= line.check.ok;
      const ratio =
        line.ratio !== undefined && line.limit === undefined
          ? `  ${line.ratio.toFixed(2)}x the baseline`
          : verdict;
      verdict = `${ratio}  ${line.check.rule} ${line.check.ok ? 'ok' : 'FAILED'}`;
    }
    console.log(`${line.name.padEnd(width)}  ${line.value.padStart(10)}${verdict}`);
  }
  return allOk;
}

/** Writes every figure as `{ name, value, unit, baseline, ratio, bound }` (null where none). */
export function writeJson(file: string, lines: readonly BenchLine[]): void {
  const figures = lines.map(({ figure, ratio, limit }) => ({
    name: figure.name,
    value: figure.value,
    unit: figure.unit,
    baseline: figure.baseline ?? null,
    ratio: ratio ?? null,
    bound: limit ?? figure.bound ?? null,
  }));
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
}
