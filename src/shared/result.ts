// Results cross the IPC boundary as data, never as thrown errors.
import type { Failure } from './failures.ts';

export type Result<T> = { ok: true; value: T } | { ok: false; error: Failure };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: Failure): Result<T> => ({ ok: false, error });
