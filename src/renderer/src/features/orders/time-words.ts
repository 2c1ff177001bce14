// How long ago, and when, in the words a clerk uses: "3 h ago, at 09:12".

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "4 min ago", "3 h ago", "2 days ago". */
export function formatAge(ageMs: number): string {
  if (ageMs < MINUTE) return 'just now';
  if (ageMs < HOUR) return `${Math.floor(ageMs / MINUTE)} min ago`;
  if (ageMs < DAY) return `${Math.floor(ageMs / HOUR)} h ago`;
  const days = Math.floor(ageMs / DAY);
  return `${days} ${days === 1 ? 'day' : 'days'} ago`;
}

export { formatMomentWithSeconds } from '../../format.ts';

/** Local midnight that starts a `YYYY-MM-DD` day, in epoch ms; undefined for an empty or bad date. */
export function startOfLocalDay(date: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const time = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime();
  return Number.isNaN(time) ? undefined : time;
}

/** Local midnight that ends a `YYYY-MM-DD` day (the next day's start). */
export function endOfLocalDay(date: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const time = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + 1).getTime();
  return Number.isNaN(time) ? undefined : time;
}
