// Ticks are work in progress and survive a refresh; the ticked orders a
// refreshed list no longer holds (cancelled or removed elsewhere) are named
// once, in a short message, and are no longer ticked.

import type { EnvironmentId } from '../../../../shared/environments.ts';
import { Toast } from '../../components/toast.tsx';
import { formatCount } from '../../format.ts';
import { useAppStore } from '../../store-context.tsx';

/** Ids named in full; the rest are counted. */
const NAMED = 10;

/** "2 ticked orders are no longer in the list: 5, 7." */
export function ticksLostWords(ids: readonly string[]): string {
  if (ids.length === 1) return `Ticked order ${ids[0]} is no longer in the list.`;
  const named = ids.slice(0, NAMED).join(', ');
  const more = ids.length > NAMED ? ` and ${formatCount(ids.length - NAMED)} more` : '';
  return `${formatCount(ids.length)} ticked orders are no longer in the list: ${named}${more}.`;
}

export function TicksLost({ environment }: { environment: EnvironmentId }) {
  const lost = useAppStore((state) =>
    state.ticksLost?.environment === environment ? state.ticksLost : undefined,
  );
  const dismiss = useAppStore((state) => state.dismissTicksLost);
  return (
    <Toast label="Ticked orders" tone="warning" onDone={dismiss} messageKey={lost?.ids.join(',')}>
      {lost && <p>{ticksLostWords(lost.ids)}</p>}
    </Toast>
  );
}
