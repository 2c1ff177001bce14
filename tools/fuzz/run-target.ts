// Runs one fuzz target: its saved regressions first, then `runs` generated
// inputs from `seed`, bounded in time. Used by fuzz.spec.ts and scripts/fuzz.ts.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { FuzzTarget } from './targets.ts';

export const REGRESSIONS_FILE = join(import.meta.dirname, 'regressions.json');

export interface Regression {
  readonly target: string;
  readonly args: unknown[];
  readonly note: string;
}

export function loadRegressions(): Regression[] {
  return JSON.parse(readFileSync(REGRESSIONS_FILE, 'utf8')) as Regression[];
}

/** JSON has no undefined: saved regressions write null for an absent optional value. */
function revive(value: unknown): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.map(revive);
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
        v === null ? [] : [[k, revive(v)]],
      ),
    );
  return value;
}

export interface TargetReport {
  readonly target: string;
  /** Inputs tried: regressions and generated ones. */
  readonly inputs: number;
  readonly regressions: number;
  readonly failed: boolean;
  readonly interrupted: boolean;
  readonly elapsedMs: number;
  readonly counterexample?: unknown;
  readonly error?: string;
}

export async function runTarget(
  target: FuzzTarget,
  options: { runs: number; seed: number; timeLimitMs?: number },
): Promise<TargetReport> {
  const started = Date.now();
  const saved = loadRegressions().filter((r) => r.target === target.name);
  const { property, close } = await target.open();
  try {
    const details = await fc.check(property, {
      numRuns: options.runs,
      seed: options.seed,
      examples: saved.map((r) => revive(r.args) as unknown[]),
      ...(options.timeLimitMs ? { interruptAfterTimeLimit: options.timeLimitMs } : {}),
      markInterruptAsFailure: false,
      endOnFailure: true,
    });
    return {
      target: target.name,
      inputs: details.numRuns,
      regressions: saved.length,
      failed: details.failed,
      interrupted: details.interrupted,
      elapsedMs: Date.now() - started,
      ...(details.failed
        ? {
            counterexample: details.counterexample,
            error: String(
              (details.errorInstance as Error | undefined)?.message ?? 'property false',
            ),
          }
        : {}),
    };
  } finally {
    await close();
  }
}

/** Keeps a failing input, so every later run replays it. */
export function saveRegression(report: TargetReport, seed: number): boolean {
  if (!report.failed || report.counterexample === undefined) return false;
  let args: unknown[];
  try {
    args = JSON.parse(
      JSON.stringify(report.counterexample, (_k, v: unknown) => (v === undefined ? null : v)),
    ) as unknown[];
  } catch {
    return false; // not representable as JSON: the report shows it
  }
  const all = loadRegressions();
  all.push({
    target: report.target,
    args,
    note: `found by npm run fuzz (seed ${seed}) on ${new Date().toISOString().slice(0, 10)}`,
  });
  writeFileSync(REGRESSIONS_FILE, `${JSON.stringify(all, null, 2)}\n`);
  return true;
}
